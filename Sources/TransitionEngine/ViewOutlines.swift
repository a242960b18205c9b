import Primitives

/// Where each transient view is at one moment: its bounds' four corners in
/// canvas pixels, after its own and its ancestors' transforms (3-D included),
/// for a tool that marks a view on a frame (the studio's timeline highlights
/// the view of the bar under the pointer).
///
/// It walks the same tree, with the same maps, that `TransitionSegment.items`
/// draws, so an outline sits exactly on what is drawn; it draws nothing and is
/// cheap (one state per view). Views that draw nothing at that moment (opacity
/// 0, a back turned with `doubleSided` false, or inside such a view) are
/// listed too, with `isVisible` false, since a timeline bar exists for them all.
public struct FrameOutlines: Sendable, Equatable, Codable {
    public struct View: Sendable, Equatable, Codable {
        /// Index in the segment's views: the same order as `TransitionSummary`'s segment views.
        public var index: Int
        public var screen: String
        public var path: String
        /// Top-left, top-right, bottom-right, bottom-left of the view's bounds, in canvas pixels.
        public var corners: [Point]
        /// The view's own opacity at this moment, 0...1.
        public var opacity: Double
        /// Whether anything of the view is drawn: its opacity and its ancestors' are above 0 and it faces the
        /// viewer or is double-sided (the draw items' own tests, `TransitionSegment.subtreeItems`).
        public var isVisible: Bool
    }

    /// The segment shown (0: the first motion; 1: a roundtrip's way back).
    public var segment: Int
    /// Seconds into that segment.
    public var time: Double
    public var views: [View]
}

extension TransitionTimeline {
    /// The outlines frame `index` shows (its segment and time as `displayList(frame:)` has them).
    public func outlines(frame index: Int) -> FrameOutlines {
        let (segment, time) = segmentTime(ofFrame: index)
        return outlines(segment: segment, time: time)
    }

    /// The outlines of segment `segment` at `time` seconds (clamped like `displayList(segment:time:)`).
    public func outlines(segment: Int, time: Double) -> FrameOutlines {
        let s = min(max(segment, 0), segments.count - 1)
        let t = time.isFinite ? min(max(time, 0), segments[s].duration) : 0
        return FrameOutlines(segment: s, time: t, views: segments[s].outlines(at: t))
    }
}

extension TransitionSegment {
    func outlines(at time: Double) -> [FrameOutlines.View] {
        var outlines: [FrameOutlines.View] = []
        var stack: [(index: Int, parent: PlaneMap, parentVisible: Bool)] =
            containerOrder.reversed().map { ($0, .affine(.scale(scale, scale)), true) }
        // Depth-first in draw order, without recursion: a scene may nest views deeply.
        while let (index, parent, parentVisible) = stack.popLast() {
            let view = views[index]
            let state = view.state(at: view.progress(at: time))
            let toPixels = state.map.concatenating(parent)
            let visible = parentVisible && state.effectiveOpacity > 0 && (state.doubleSided || toPixels.isFacingViewer)
            let size = state.size
            let corners = [Point(x: 0, y: 0), Point(x: size.width, y: 0), Point(x: size.width, y: size.height), Point(x: 0, y: size.height)]
            outlines.append(
                FrameOutlines.View(
                    index: index, screen: view.screen.rawValue, path: view.address.description,
                    corners: corners.map(toPixels.apply), opacity: state.effectiveOpacity, isVisible: visible))
            stack += childOrder[index].reversed().map { ($0, toPixels, visible) }
        }
        return outlines
    }
}
