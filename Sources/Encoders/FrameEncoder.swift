import Primitives

/// Something that turns a run of frames into one output (a video file, a
/// directory of images). Frames arrive in order; nothing appears at the
/// target until `finish()` succeeds.
public protocol FrameEncoder: AnyObject {
    /// Adds the next frame. It must have the size the encoder was made for.
    /// On error the encoder removes its temporary output and accepts nothing
    /// more; the target is as it was before the encoder was made.
    func append(_ frame: Bitmap) throws

    /// Completes the output and moves it into place at the target. On error
    /// the temporary output is removed and the target is left as it was.
    func finish() throws

    /// Abandons the output: removes every trace of it. The target is left as
    /// it was. Safe to call more than once, and after `finish()` (then it does
    /// nothing).
    func cancel()
}
