import Primitives
import SceneModel

/// Where a transient view stands at a moment, in canvas pixels: the four
/// corners of its bounds as drawn (transforms, 3-D and all), for tools that
/// point at a view on a frame (the studio's timeline highlights one).
///
/// Outlines follow the same maps as the draw items (`TransitionSegment.items`),
/// so an outline is exactly where the view's layer lands, not a second model
/// of the geometry. A view that draws nothing at that moment (alpha 0, its
/// back turned with `doubleSided` false, or inside such a view) is listed with
/// `isVisible` false, so every transient view has an outline at every frame.
public struct ViewOutline: Codable, Sendable, Equatable {
    /// "from" or "to", as `TransitionSummary.View.screen`.
    public var screen: String
    /// The view's place, as `TransitionSummary.View.path` ("to.subviews[2]").
    public var path: String
    public var name: String?
    /// The bounds' corners in canvas pixels: top-left, top-right, bottom-right, bottom-left, each `[x, y]`.
    public var corners: [[Double]]
    public var isVisible: Bool
}

extension TransitionSegment {
    /// Every transient view's outline at `time`, in draw order (back to front).
    func outlines(at time: Double) -> [ViewOutline] {
        var outlines: [ViewOutline] = []
        func visit(_ index: Int, parentToPixels: PlaneMap, parentVisible: Bool) {
            let view = views[index]
            let state = view.state(at: view.progress(at: time))
            let toPixels = state.map.concatenating(parentToPixels)
            let visible = parentVisible && state.effectiveOpacity > 0 && (state.doubleSided || toPixels.isFacingViewer)
            let (w, h) = (state.size.width, state.size.height)
            let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)].map {
                let p = toPixels.apply($0)
                return [p.x, p.y]
            }
            outlines.append(
                ViewOutline(
                    screen: view.screen.rawValue, path: view.address.description, name: view.name, corners: corners,
                    isVisible: visible))
            for child in childOrder[index] { visit(child, parentToPixels: toPixels, parentVisible: visible) }
        }
        for index in containerOrder { visit(index, parentToPixels: .affine(.scale(scale, scale)), parentVisible: true) }
        return outlines
    }
}

extension TransitionTimeline {
    /// Every transient view's outline on frame `index` (clamped to the clip), in draw order.
    public func outlines(frame index: Int) -> [ViewOutline] {
        let (segment, time) = segmentTime(ofFrame: index)
        return segments[segment].outlines(at: time)
    }
}
