import Compositor
import FramePlan
import Primitives
import SceneModel
import TransitionEngine

/// Where the picture jumps as a transition starts or ends. The clip shows the
/// screens as laid out at rest and Shift's snapshots in between
/// (`RestingPictures`); where the two differ at an end (a view drawn in its
/// matched parent's snapshot under a matched view, a shadow that the
/// partner's `masksToBounds` hides from the start), a device jumps there too.
/// This finds those places by drawing both pictures at each end of each
/// motion and naming, for every pixel that differs, the topmost view of the
/// screen at rest that can paint it, or, where that is a root (the
/// difference lies over its background), the topmost view of Shift's
/// arrangement there (an arriving screen shown at once, a view on its way).
///
/// Pixels, not a comparison of the two plans' structure: the two draw the
/// same view through different paths (a snapshot bitmap against live items),
/// so only the pictures can be compared. A channel must differ by at least
/// `threshold`, a quarter of its range (a rounded edge that Shift's
/// arrangement anti-aliases twice, background and content, differs by up to
/// about 56), on at least `minimumPixels` sampled pixels of one view.
enum RestingJumps {
    static let threshold = 64
    static let minimumPixels = 4
    /// Every `step`-th pixel along each axis is compared: a jump worth naming covers more than that.
    static let step = 2

    /// `swappingScreens`: the timeline plans a reversed scene, whose `from` is the file's `to`.
    static func problems(in timeline: TransitionTimeline, renderer: FrameRenderer, swappingScreens: Bool = false) -> [SceneProblem] {
        // For each view, the moments it jumps at: "starts", "ends", and a roundtrip's way back's.
        var found: [ViewAddress: [String]] = [:]
        var order: [ViewAddress] = []
        var rest = Bitmap(width: 0, height: 0)
        var motion = Bitmap(width: 0, height: 0)
        for (s, segment) in timeline.segments.enumerated() {
            for end in [TransitionSegment.RestingEnd.start, .end] {
                renderer.render(timeline.restingDisplayList(segment: s, end), into: &rest)
                let time = end == .start ? 0 : segment.duration
                renderer.render(timeline.motionDisplayList(segment: s, time: time), into: &motion)
                let views = (rest: timeline.restingViews(segment: s, end), motion: timeline.motionViews(segment: s, time: time))
                let moment = (end == .start ? "starts" : "ends") + (s > 0 ? " its way back" : "")
                for address in jumpingViews(rest, motion, views: views) {
                    if found[address] == nil { order.append(address) }
                    found[address, default: []].append(moment)
                }
            }
        }
        return order.map { address in
            let when = found[address]!.joined(separator: " and ")
            var address = address
            if swappingScreens { address.screen = address.screen == .from ? .to : .from }
            return SceneProblem(
                .warning, at: address.place,
                "the screen at rest and Shift's snapshots draw this differently, so the picture jumps here as the "
                    + "transition \(when) (a device jumps too: it shows the view hierarchy only at rest)")
        }
    }

    /// The views under the pixels where `a` (at rest) and `b` (Shift's arrangement) differ: at each, the
    /// topmost view at rest, or the topmost in motion where that is a root. Both lists are bottom first.
    static func jumpingViews(
        _ a: Bitmap, _ b: Bitmap, views: (rest: [RestingView], motion: [RestingView])
    ) -> [ViewAddress] {
        guard a.width == b.width, a.height == b.height else { return [] }
        var counts: [ViewAddress: Int] = [:]
        var order: [ViewAddress] = []
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for y in stride(from: 0, to: a.height, by: step) {
                    for x in stride(from: 0, to: a.width, by: step) {
                        let i = (y * a.width + x) * 4
                        var differs = false
                        for c in 0 ..< 4 where abs(Int(p[i + c]) - Int(q[i + c])) >= threshold { differs = true }
                        guard differs else { continue }
                        let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                        var top = views.rest.last { $0.box.holds(centre) }
                        if top?.isRoot ?? true, let moving = views.motion.last(where: { $0.box.holds(centre) }) {
                            top = moving
                        }
                        guard let address = top?.address else { continue }
                        if counts[address] == nil { order.append(address) }
                        counts[address, default: 0] += 1
                    }
                }
            }
        }
        return order.filter { counts[$0]! >= minimumPixels }
    }
}

extension Rect {
    fileprivate func holds(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
}
