/// Encoders: frames in, files out.
///
/// The last stage of scene -> engine -> frame plan -> compositor -> encoders.
/// An encoder knows only frames (`Bitmap`s, premultiplied RGBA8, all the size
/// given in `VideoSettings`) and the path it writes; it imports Primitives,
/// PNGCodec and the C shims (FFmpeg, libpng) and nothing else of the project.
///
/// Outputs, picked from the path by `OutputFormat`:
/// - `.mp4`: H.264 (libx264, CRF 18, preset medium), yuv420p, BT.709 tags,
///   `+faststart`; no alpha (frames show over black); odd sizes padded with
///   the background or refused (`OddSizePolicy`). `VideoFileEncoder`.
/// - `.mov`: ProRes 4444 (prores_ks), 10-bit 4:4:4, straight alpha when the
///   canvas is transparent. `VideoFileEncoder`.
/// - `.webm`: VP9 (libvpx, CRF 30), yuva420p with straight alpha when the
///   canvas is transparent. `VideoFileEncoder`.
/// - `.gif`: looping, at most 480 px wide and 30 fps, one palette for the
///   whole clip (palettegen), Bayer dithering (paletteuse). `GIFEncoder`.
/// - a directory or a pattern (`frames/`, `out/f_%04d.png`): PNGs via libpng,
///   RGBA when transparent, Paeth filter and zlib level 3, frames encoded in parallel.
///   `PNGSequenceEncoder`.
///
/// Invariant: output is never half-written. Every encoder writes to a
/// temporary name beside its target (same directory, so the final step is a
/// rename within one file system, which is atomic) and renames it into place
/// in `finish()`. Until then a file already at the target is untouched; on
/// `cancel()` (from any thread), on any error, and when an unfinished encoder
/// is released, the temporary output is removed, so an aborted render never
/// leaves a truncated video that looks like a real one, nor replaces a good
/// earlier one. The GIF's frame spool is unlinked the moment it is created,
/// so not even `kill -9` leaves it behind. See `AtomicOutput`.
///
/// Invariant: memory does not grow with the clip. Frames go from the caller
/// to encoder threads through a fixed set of frame buffers (`FramePipeline`):
/// `append` copies into a free one, `exchange` swaps buffers without copying,
/// and either waits while all are taken. So compositing frame n+1 overlaps
/// encoding frame n, nothing is allocated per frame, and at most a few frames
/// plus the codec's own fixed look-ahead are in memory. The GIF, which needs
/// every frame twice (count colours, then map them), spools scaled frames to
/// disk rather than holding them. One design for every format
/// (`StreamingEncoder` + a `FrameSink` per format) keeps the lifecycle and
/// the cancel/fail paths written and tested once.
///
/// Measured (2 shared x86-64 cores under a load average of 5-7 from other
/// jobs, so treat them as lower bounds), 1080p synthetic frames (gradient
/// background, moving card), 60 fps:
///
///     swift build -c release --scratch-path .build-enc --product encoders-bench
///     .build-enc/release/encoders-bench --format mp4 --frames 120 [--transparent]
///
///     format          fps    size (120 frames)   peak RSS
///     mp4 (medium)    14.6   152 KB              509 MiB (x264 look-ahead)
///     mov (ProRes)     2.4   69.7 MB             240 MiB
///     webm (VP9)       6.7   25 KB / 60 frames   364 MiB; 4.0 fps with alpha
///     gif (480 px)    78.7   123 KB              124 MiB
///     png (level 6)    9.7   67 KB a frame        85 MiB
///
/// ffmpeg's own CLI encoded H.264 medium at 8 fps and ProRes 4444 at 2 fps
/// on the machine at the same time, so these are the codecs' speeds, not the
/// pipeline's. Peak memory for 60 and 600 frames (1 s and 10 s at 60 fps,
/// 320x180, transparent) is the same within 1% for every format, and for MP4
/// at the default preset at 640x360 too (117 vs 118 MB);
/// `StreamingTests.memoryIsFlat` holds it to 10%. The default MP4 of
/// UI-like test frames decodes back at 40.9 dB PSNR (`MP4QualityTests`); the
/// example fixture's frames at 41.3 dB.
///
/// Encoders are used from one thread (append, then finish), except `cancel`,
/// which any thread may call at any time.
public enum Encoders {}
