import FramePlan
import Primitives

/// The frame last handed to the encoder, kept for one step so that a hold (a
/// frame whose display list equals the previous one's: a delay before the
/// transition starts, the still end of a clip, a pause in a cascade) is a copy
/// of its pixels rather than a second composite.
///
/// A copy costs one pass over the frame's bytes; compositing the benchmark
/// scene costs many (every item's rows, groups twice), so a held frame is
/// several times cheaper. The same bytes either way: a display list is a pure
/// function of the frame, and the compositor draws a list the same every time.
///
/// Ownership: the encoder reads the handed-over bitmap on its own thread while
/// this keeps a second reference; both only read it. `release` must drop that
/// reference before the next `exchange`, which may hand the same storage back:
/// otherwise writing the next frame into it would copy it (an allocation a frame).
struct HeldFrame {
    private var list: DisplayList?
    private var pixels: Bitmap?

    /// Copies the held frame into `target` when `next` is the list it was drawn from; false otherwise.
    func copy(_ next: DisplayList, into target: inout Bitmap) -> Bool {
        guard let pixels, list == next, target.width == pixels.width, target.height == pixels.height,
            target.pixels.count == pixels.pixels.count
        else { return false }
        target.pixels.withUnsafeMutableBytes { out in
            pixels.pixels.withUnsafeBytes { out.copyMemory(from: $0) }
        }
        return true
    }

    mutating func release() {
        list = nil
        pixels = nil
    }

    mutating func keep(_ list: DisplayList, _ frame: Bitmap) {
        self.list = list
        pixels = frame
    }
}
