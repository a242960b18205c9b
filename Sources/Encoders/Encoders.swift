/// Encoders: frames in, files out.
///
/// The last stage of scene -> engine -> frame plan -> compositor -> encoders.
/// An encoder knows only frames (`Bitmap`s, premultiplied RGBA8, all the size
/// given in `VideoSettings`) and the path it writes; it imports Primitives,
/// PNGCodec and the FFmpeg shim and nothing else of the project.
///
/// Outputs: H.264 in MP4 (`MP4Encoder`, BT.709, yuv420p, via the C shim over
/// FFmpeg) and PNG sequences (`PNGSequenceEncoder`, `frame_00000.png`...).
/// `OutputFormat` picks one from the output path.
///
/// Invariant: output is never half-written. Every encoder writes to a
/// temporary name beside its target (same directory, so the final step is a
/// rename within one file system, which is atomic) and renames it into place
/// in `finish()`. Until then a file already at the target is untouched; on
/// `cancel()`, on any error, and when an unfinished encoder is released, the
/// temporary output is removed, so a crashed or aborted render never leaves
/// a truncated video that looks like a real one. See `AtomicOutput`.
///
/// Encoders are not thread-safe: one caller appends, then finishes or cancels.
public enum Encoders {}
