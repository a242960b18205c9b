import Primitives

/// Something that turns a run of frames into one output (a video file, a
/// GIF, a PNG sequence). Frames arrive in order; nothing appears at the
/// target until `finish()` succeeds.
///
/// The encoders in this module stream: `append` hands the frame to an
/// encoder thread and returns, so the caller composites the next frame while
/// this one is encoded; a fixed set of frame buffers bounds memory whatever
/// the clip's length.
public protocol FrameEncoder: AnyObject, Sendable {
    /// Adds the next frame (copied; the caller may reuse its bitmap at once).
    /// It must have the size the encoder was made for. Blocks while every
    /// frame buffer is taken. On error the encoder removes its temporary
    /// output and accepts nothing more; the target is as it was.
    func append(_ frame: Bitmap) throws

    /// Adds the next frame without copying it: the encoder keeps `frame` and
    /// returns a bitmap of the same size, whose pixels are unspecified, to
    /// draw the following frame into. A loop that does
    /// `frame = try encoder.exchange(frame)` moves no pixels and allocates
    /// nothing per frame. Errors as `append`.
    func exchange(_ frame: Bitmap) throws -> Bitmap

    /// Completes the output and moves it into place at the target. On error
    /// the temporary output is removed and the target is left as it was.
    func finish() throws

    /// Abandons the output: removes every trace of it. The target is left as
    /// it was. Safe from any thread (a signal handler's, while another thread
    /// is in `append` or `finish`), more than once, and after `finish()`
    /// (then it does nothing).
    func cancel()

    /// Things the user should know about the output that are not errors, one
    /// line each, e.g. that an odd size was padded. Known once the encoder is made.
    var warnings: [String] { get }
}

extension FrameEncoder {
    public func exchange(_ frame: Bitmap) throws -> Bitmap {
        try append(frame)
        return frame
    }

    public var warnings: [String] { [] }
}
