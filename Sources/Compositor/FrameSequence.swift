import Synchronization
public import Primitives
public import FramePlan

/// Frames of one plan drawn in a given order, each frame's display list made and prepared while the frame
/// before it is still being drawn: on the last band's thread, once that band is done (`FrameRenderer.draw`).
///
/// Why: making a display list (the engine) and preparing it (items resolved, culled, group layers planned) is
/// about 4% of a frame drawn by one thread. Drawn frame by frame with two threads, it ran on one thread while the
/// other waited: about 8% of a frame's wall time. Alongside, its time counts as that band's, and the next frame's
/// `BandSplit` deals that band fewer rows, so both threads stay busy: half of that wait is saved. With one thread
/// there is nothing to overlap, and a preparation that is a large part of the frame keeps its own bands
/// (`overlaps`); the order of work is then the same as frame by frame.
///
/// The same bytes as `FrameRenderer.render(frame:into:)`: a display list is a pure function of its frame and a
/// prepared list of its display list, whichever thread makes it.
///
/// Use: `next()` gives the next frame's index and display list (a caller holding frames may copy one whose list
/// equals the last instead of drawing it); `draw(into:)` then draws that frame.
public struct FrameSequence: Sendable {
    public let renderer: FrameRenderer
    private let frames: [Int]
    private var position = 0
    private var current: Upcoming?
    /// The frame after `current`, made alongside its drawing (nil when not made, or not yet).
    private var upcoming: Upcoming?
    /// How long the last preparation and the last drawing took (wall), for `overlaps`.
    private var preparing: Duration?
    private var drawing: Duration?
    /// `overlaps`, or another rule (tests: overlap always, whatever the timing).
    var overlapRule: @Sendable (_ threads: Int, _ preparing: Duration?, _ drawing: Duration?) -> Bool = Self.overlaps

    private struct Upcoming: Sendable {
        var index: Int
        var list: DisplayList
        var prepared: Rasterizer.PreparedList?
    }

    /// `frames`, in this order, of `renderer`'s plan; each must be in `0 ..< renderer.plan.frameCount`.
    public init(renderer: FrameRenderer, frames: [Int]) {
        self.renderer = renderer
        self.frames = frames
    }

    /// The next frame's index and display list; nil after the last.
    public mutating func next() -> (index: Int, displayList: DisplayList)? {
        guard position < frames.count else {
            current = nil
            return nil
        }
        let index = frames[position]
        position += 1
        if let upcoming, upcoming.index == index {
            current = upcoming
        } else {
            current = Upcoming(index: index, list: renderer.plan.displayList(frame: index), prepared: nil)
        }
        upcoming = nil
        return (index, current!.list)
    }

    /// Draws the frame `next()` gave last into `target` (replaced by a canvas-sized bitmap unless it is one),
    /// and makes the next frame's display list and prepared list meanwhile when that pays (`overlaps`).
    public mutating func draw(into target: inout Bitmap) {
        guard let frame = current else { preconditionFailure("draw(into:) before next() gave a frame") }
        let prepared: Rasterizer.PreparedList
        if let made = frame.prepared {
            prepared = made
        } else {
            let start = ContinuousClock.now
            prepared = renderer.prepare(frame.list)
            preparing = start.duration(to: .now)
        }
        let start = ContinuousClock.now
        defer { drawing = start.duration(to: .now) }
        guard position < frames.count, overlapRule(renderer.threads, preparing, drawing) else {
            renderer.draw(prepared, into: &target)
            return
        }
        let following = frames[position]
        let made = Mutex<(Upcoming, Duration)?>(nil)
        let renderer = self.renderer
        renderer.draw(prepared, into: &target) {
            let list = renderer.plan.displayList(frame: following)
            let start = ContinuousClock.now
            let next = Upcoming(index: following, list: list, prepared: renderer.prepare(list))
            made.withLock { $0 = (next, start.duration(to: .now)) }
        }
        if let (next, taken) = made.withLock({ $0 }) {
            upcoming = next
            preparing = taken
        }
    }

    /// Whether the next frame is prepared alongside this one's drawing: with more than one thread, once a frame
    /// has been timed, and while preparing takes under a quarter of drawing. A preparation that draws plane
    /// layers (`PlaneLayer`, a projected group) has bands of its own; run alongside, one thread would draw them
    /// while the split can move at most half the rows away (`BandSplit`): the 3-D cube benchmark drew 20% slower.
    static func overlaps(threads: Int, preparing: Duration?, drawing: Duration?) -> Bool {
        guard threads > 1, let preparing, let drawing else { return false }
        return preparing * 4 < drawing
    }
}
