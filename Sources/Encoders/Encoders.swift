/// Encoders: frames in, files out.
///
/// The last stage of scene -> engine -> frame plan -> compositor -> encoders.
/// An encoder knows only frames (`Bitmap`s, premultiplied RGBA8, all the size
/// given in `VideoSettings`) and the path it writes; it imports Primitives,
/// PNGCodec and the C shims (FFmpeg, libpng) and nothing else of the project.
/// Every default is stated once, in `VideoSettings.Defaults` and
/// `GIFOptions.Defaults`, with the accepted ranges beside them.
///
/// Outputs, picked from the path by `OutputFormat`:
/// - `.mp4`: H.264 (libx264, constant quality), yuv420p, BT.709 tags,
///   `+faststart`; no alpha (frames show over black); odd sizes padded with
///   the background or refused (`OddSizePolicy`). `VideoFileEncoder`.
/// - `.mov`: ProRes 4444 (prores_ks), 10-bit 4:4:4, straight alpha when the
///   canvas is transparent. `VideoFileEncoder`.
/// - `.webm`: VP9 (libvpx, constant quality), yuva420p with straight alpha
///   when the canvas is transparent. `VideoFileEncoder`.
/// - `.gif`: looping, scaled down and rate-limited for a README, one palette
///   for the whole clip (palettegen), ordered dithering (paletteuse). `GIFEncoder`.
/// - a directory or a pattern (`frames/`, `out/f_%04d.png`): PNGs over
///   libdeflate (`PNGFrameWriter`), RGBA when transparent, frames encoded in parallel.
///   `PNGSequenceEncoder`.
///
/// Invariant: output is never half-written. Every encoder writes to a
/// temporary name beside its target (same directory, so the final step is a
/// rename within one file system, which is atomic) and renames it into place
/// in `finish()`. Until then a file already at the target is untouched; on
/// `cancel()`, on any error, and when an unfinished encoder is released, the
/// temporary output is removed, so an aborted render never leaves a truncated
/// video that looks like a real one, nor replaces a good earlier one. The
/// GIF's frame spool is unlinked the moment it is created, so not even
/// `kill -9` leaves it behind. See `AtomicOutput`.
///
/// Invariant: `cancel()`, from any thread at any moment, stops the encoder
/// at once, at every stage: while `append` waits, while the encoder thread
/// encodes, during `finish()`'s drain, the codec's flush (x264's look-ahead
/// at a slow preset holds dozens of frames, tens of seconds of work), the
/// trailer (MP4's `+faststart` rewrites the file) and the GIF's second pass.
/// It raises a flag the shim checks between packets, between frames and at
/// every I/O buffer (an `AVIOInterruptCB`), so a blocking write gives up too;
/// it removes the temporary output and `finish()` throws `.cancelled`. What
/// cannot be cut short, one codec call (at x264's slow presets a frame, or
/// the look-ahead's analysis of its batch: seconds on a busy machine), runs
/// on the writer's own thread (`WriterThread`), which nobody waits for once
/// cancelled; it closes the writer when that call returns. The rename
/// passes OutputFiles' commit gate: after `stopCommits()` (a signal,
/// possibly before `cancel()` has reached the encoder) `finish()` throws
/// `.cancelled` and the target is as it was.
///
/// Invariant: outputs are bit-exact. The same frames, settings and encoder
/// thread count give the same bytes: the muxers and encoders run with
/// FFmpeg's bitexact flags (no random WebM segment id, no version strings,
/// no creation times). What the thread count changes, measured on 640x360
/// to 1080p clips at 1 to 8 threads:
/// - libx264: only the options string x264 writes into the first frame
///   (`threads=N`); the coded pictures were the same at every count.
/// - libvpx-vp9 with row-mt: one thread differs from two or more (every
///   frame after the first); two, four and eight threads gave the same bytes.
/// - prores_ks: nothing; slices are coded independently (a test holds this).
/// So a clip encoded on machines with different core counts differs in bytes
/// but not in how its chunks join; pin `encoderThreads` where the bytes must
/// match across machines. libx264 runs without its AVX-512 code: that code
/// reads heap memory nothing wrote, so an MP4's bytes depended on what the
/// process had done before (`CFFmpegShim/x264_cpu.c`).
///
/// Invariant: memory does not grow with the clip. Frames go from the caller
/// to encoder threads through a fixed set of frame buffers (`FramePipeline`):
/// `append` copies into a free one, `exchange` swaps buffers without copying,
/// and either waits while all are taken. So compositing frame n+1 overlaps
/// encoding frame n, nothing is allocated per frame, and at most a few frames
/// plus the codec's own fixed look-ahead are in memory
/// (`StreamingTests.memoryIsFlat` holds 10x the frames to 10% more peak
/// memory). The GIF, which needs every frame twice (count colours, then map
/// them), spools scaled frames to disk rather than holding them. One design
/// for every format (`StreamingEncoder` + a `FrameSink` per format) keeps the
/// lifecycle and the cancel/fail paths written and tested once.
///
/// Un-premultiplying, for the outputs that keep alpha, is the project's one
/// implementation (`Primitives.Unpremultiply`), run on the encoder thread;
/// the C shims only convert, scale, encode and mux.
///
/// Clips rendered in parts: with `VideoSettings.chunk`, a video carries a
/// chunk label, and `VideoChunkJoiner` joins the parts by stream copy.
///
/// Speed and memory figures (the codecs dominate; the pipeline adds little
/// to ffmpeg's own CLI at the same settings) are in `benchmarks/RESULTS.md`;
/// `encoders-bench` measures them.
///
/// Encoders are used from one thread (append, then finish), except `cancel`,
/// which any thread may call at any time.
public enum Encoders {}
