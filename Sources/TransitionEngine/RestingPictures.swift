import FramePlan
import Primitives
import SceneModel

/// What a segment shows at exactly its start and its end: the screens as laid
/// out. A device shows the real view hierarchy before a transition starts and
/// after it completes; Shift's snapshots (a matched view lifted out of its
/// parent, `masksToBounds` set to the end's value) exist only while it runs.
/// So the first and last motion frames, the holds and a roundtrip's pause are
/// drawn from the view tree as UIKit draws it (`SnapshotBuilder.subtreeItems`
/// over the whole screen), and the frames strictly between keep Shift's
/// arrangement; where the two differ the device jumps too, and
/// `RestingJumps` names the views.
///
/// A screen at rest is that screen alone: after a push or a full-screen
/// present the screen left is gone. A presentation keeps the presenting
/// screen under the presented one, in its changed state (a page sheet's
/// screen behind, scaled and rounded), under the dimming at full opacity.
struct RestingPictures: Sendable {
    /// Before the segment starts and after it ends, in canvas pixels.
    var start: [DrawItem]
    var end: [DrawItem]
    /// The views each picture shows, bottom first, with what they can paint.
    var startViews: [RestingView] = []
    var endViews: [RestingView] = []

    /// A presentation at rest: the presenting root's changes and the dimming between the two screens.
    struct Presentation {
        var presentingChanges: [PropertyChange]
        var dimming: DimmingSpec?
    }

    init(start: [DrawItem], end: [DrawItem]) {
        (self.start, self.end) = (start, end)
    }

    init(
        fromTree: ViewTree, toTree: ViewTree, isPresenting: Bool, presentation: Presentation?,
        images: ImageTable, scale: Double, canvas: Size
    ) {
        func alone(_ tree: ViewTree) -> [DrawItem] { Self.screen(tree, images: images, scale: scale) }
        let views = (from: RestingView.all(in: fromTree, scale: scale), to: RestingView.all(in: toTree, scale: scale))
        guard let presentation else {
            (start, end) = (alone(fromTree), alone(toTree))
            (startViews, endViews) = (views.from, views.to)
            return
        }
        let (presenting, presented) = isPresenting ? (fromTree, toTree) : (toTree, fromTree)
        var both = Self.screen(presenting, images: images, scale: scale, rootChanges: presentation.presentingChanges)
        if let dimming = presentation.dimming, dimming.opacity > 0 {
            both.append(
                DrawItem(
                    transform: .scale(scale, scale), shape: RoundedRect(rect: Rect(origin: .zero, size: canvas)),
                    paint: .solid(dimming.color), opacity: dimming.opacity, label: "dimming"))
        }
        both += alone(presented)
        (start, end) = isPresenting ? (alone(fromTree), both) : (both, alone(toTree))
        (startViews, endViews) = isPresenting ? (views.from, views.from + views.to) : (views.to + views.from, views.to)
    }

    /// `tree` drawn as laid out, in canvas pixels; `rootChanges` (Shift's
    /// property changes) applied to its root first.
    static func screen(_ tree: ViewTree, images: ImageTable, scale: Double, rootChanges: [PropertyChange] = []) -> [DrawItem] {
        guard let root = tree.nodes.first else { return [] }
        let painter = SnapshotBuilder(tree: tree, excluded: [], images: images, scale: scale)
        let toPixels = PlaneMap.affine(.scale(scale, scale))
        guard !rootChanges.isEmpty else { return painter.subtreeItems(0, toTarget: root.toSuperview.concatenating(toPixels)) }
        var state = ViewState(spec: root.spec, size: root.size, position: root.position)
        for change in rootChanges { state.apply(change) }
        var spec = root.spec
        spec.alpha = state.alpha
        spec.cornerRadius = state.cornerRadius
        return painter.subtreeItems(0, toTarget: state.map.concatenating(toPixels), spec: spec)
    }
}

/// A view of a screen at rest and the box of canvas pixels it can paint: its
/// bounds through its transforms, grown by its shadow and a pixel of
/// anti-aliasing. For naming the views where the rest and Shift's
/// arrangement differ (`RestingJumps`).
public struct RestingView: Sendable, Equatable {
    public var address: ViewAddress
    public var name: String?
    public var box: Rect

    public var isRoot: Bool { address.indices.isEmpty }

    /// The box around `corners` (canvas pixels), grown by `grow` pixels on every side.
    init(address: ViewAddress, name: String?, corners: [Point], grow: Double) {
        self.address = address
        self.name = name
        // A plane turned edge-on or behind the eye has no finite box: it may paint anywhere.
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            box = Rect(x: -1e12, y: -1e12, width: 2e12, height: 2e12)
            return
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        box = Rect(
            x: xs.min()! - grow, y: ys.min()! - grow,
            width: xs.max()! - xs.min()! + 2 * grow, height: ys.max()! - ys.min()! + 2 * grow)
    }

    static func all(in tree: ViewTree, scale: Double) -> [RestingView] {
        let toPixels = PlaneMap.affine(.scale(scale, scale))
        return tree.nodes.map { node in
            let map = node.toCanvas.concatenating(toPixels)
            let w = node.size.width, h = node.size.height
            let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)].map(map.apply)
            var grow = 1.0
            if let shadow = node.spec.shadow, shadow.opacity > 0 {
                grow += (2 * shadow.radius + max(abs(shadow.offset.width), abs(shadow.offset.height))) * scale
            }
            return RestingView(address: node.address, name: node.spec.name, corners: corners, grow: grow)
        }
    }
}
