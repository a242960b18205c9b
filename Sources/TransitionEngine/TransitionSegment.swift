import FramePlan
import Primitives
import SceneModel

/// One direction of a transition (a present or a dismiss): its transient views
/// in draw order and their snapshots, sampled at any time into draw items.
public struct TransitionSegment: Sendable {
    /// Transient views, bottom list first (Shift's `ShiftViews` order).
    public internal(set) var views: [TransientView]
    public let isPresenting: Bool
    /// Set once the views' contents are known (`TransientViewBuilder`).
    var snapshots: [SnapshotDescription]
    /// Indices into `views` drawn straight in the container, back to front.
    let containerOrder: [Int]
    /// For each view, its `parent` children, back to front.
    let childOrder: [[Int]]
    let scale: Double
    /// A presentation's dimming layer, drawn under the presented root over the whole canvas.
    var dimming: Dimming?
    /// What moves the roots, for `info` (`RootMotions.name`).
    var rootMotion = ""
    /// The screens as laid out, shown at exactly the segment's start and end.
    var resting = RestingPictures(start: [], end: [])

    /// An end of the segment, where the screens are at rest.
    public enum RestingEnd: Sendable { case start, end }

    /// What the segment shows at rest at `end`: the screens as laid out, not Shift's snapshots.
    func restingItems(_ end: RestingEnd) -> [DrawItem] { end == .start ? resting.start : resting.end }

    struct Dimming: Sendable {
        var color: RGBAColor
        var opacity: Double
        /// The presented root's index in `views`: the layer follows its progress and draws just under it.
        var presented: Int
        /// Fading in (present) or out (dismiss).
        var appearing: Bool
        var canvas: Size
    }

    /// The transition lasts as long as its longest view (delay included).
    public var duration: Double { views.map { $0.delay + $0.duration }.max() ?? 0 }

    init(
        fromViews: [TransientView], toViews: [TransientView], isPresenting: Bool, toOnTop: Bool,
        snapshots: [SnapshotDescription], scale: Double, matchedOnTop: Bool = false
    ) {
        let (bottom, top) = toOnTop ? (fromViews, toViews) : (toViews, fromViews)
        var all = bottom
        for var view in top {
            if case .parent(let p) = view.superview { view.superview = .parent(p + bottom.count) }
            all.append(view)
        }
        self.views = all
        self.isPresenting = isPresenting
        self.snapshots = snapshots
        self.scale = scale
        var container: [Int] = []
        var children = [[Int]](repeating: [], count: all.count)
        for (i, view) in all.enumerated() {
            switch view.superview {
            case .container: container.append(i)
            case .parent(let p): children[p].append(i)
            }
        }
        // Shift's adjustPosition: in list order, `front` moves a view to the end
        // of its siblings and `back` to the start; then Core Animation draws
        // siblings by zPosition, keeping this order among equals.
        // Moving one view at a time was quadratic in a view's children (10 000
        // siblings: half a minute); in index order, the fronts end up at the
        // end in that order and the backs at the start in reverse, so one pass does it.
        func adjust(_ siblings: inout [Int]) {
            let backs = siblings.filter { all[$0].options.position == .back }.sorted(by: >)
            let fronts = siblings.filter { all[$0].options.position == .front }.sorted()
            siblings = backs + siblings.filter { all[$0].options.position == .auto } + fronts
            siblings = ZOrder.sorted(siblings) { all[$0].final.zPosition }
        }
        adjust(&container)
        // A navigation that puts the source screen (which holds the matched pairs) underneath still flies
        // the pairs over both roots, as Hero's container holds them above its snapshots.
        if matchedOnTop { container = container.filter { !all[$0].isMatched } + container.filter { all[$0].isMatched } }
        for i in children.indices { adjust(&children[i]) }
        self.containerOrder = container
        self.childOrder = children
    }

    /// Whether the `to` views follow the `from` views in `views` (are drawn above them).
    /// `arrivingOnTop` is what a navigation asks of the roots; an explicit `viewOrder` wins over it.
    static func toViewsOnTop(_ viewOrder: ViewOrder, isPresenting: Bool, arrivingOnTop: Bool? = nil) -> Bool {
        switch viewOrder {
        case .auto: return arrivingOnTop ?? isPresenting
        case .toViewsOnTop: return true
        case .fromViewsOnTop: return false
        }
    }

    /// The draw items of Shift's arrangement at `time` (the snapshots as they
    /// move), with snapshot indices offset by `snapshotBase`. At exactly 0 and
    /// the duration the timeline shows `restingItems` instead.
    func items(at time: Double, snapshotBase: Int) -> [DrawItem] {
        let toPixels = AffineTransform2D.scale(scale, scale)
        return containerOrder.flatMap { index in
            var items: [DrawItem] = []
            if let dimming, dimming.presented == index {
                let view = views[index]
                let p = min(max(view.progress(at: time), 0), 1)
                let alpha = dimming.opacity * (dimming.appearing ? p : 1 - p)
                if alpha > 0 {
                    items.append(
                        DrawItem(
                            transform: toPixels, shape: RoundedRect(rect: Rect(origin: .zero, size: dimming.canvas)),
                            paint: .solid(dimming.color), opacity: alpha, label: "dimming"))
                }
            }
            return items + subtreeItems(index, time: time, parentToPixels: .affine(toPixels), snapshotBase: snapshotBase)
        }
    }

    /// The items of view `index` and of the transient views inside it. Clips
    /// are those of this view and below; the caller adds its own. A view with
    /// alpha below 1 comes back as one group (`GroupOpacity`); a 3-D view's
    /// own parts as plane groups (`ViewItems`). A view with `doubleSided`
    /// false whose back faces the viewer draws nothing, nor does its subtree.
    private func subtreeItems(
        _ index: Int, time: Double, parentToPixels: PlaneMap,
        snapshotBase: Int
    ) -> [DrawItem] {
        let view = views[index]
        let progress = view.progress(at: time)
        let state = view.state(at: progress)
        let alpha = state.effectiveOpacity
        guard alpha > 0 else { return [] }
        let toPixels = state.map.concatenating(parentToPixels)
        guard state.doubleSided || toPixels.isFacingViewer else { return [] }
        let bounds = Rect(origin: .zero, size: state.size)
        let label = view.name ?? view.address.description
        var collected = ViewItems(map: toPixels, bounds: bounds, cornerRadius: state.cornerRadius, label: label)
        let layer = collected.painter
        var below: [DrawItem] = []
        layer.paintShadow(
            color: state.shadowColor, opacity: state.shadowOpacity, radius: state.shadowRadius,
            offset: state.shadowOffset, masksToBounds: state.masksToBounds, into: &below)
        collected.own(below)
        below = []
        collected.backdropBlur(radius: state.blurRadius)
        layer.paintBackground(state.blurTint, into: &below)
        layer.paintBackground(state.backgroundColor, into: &below)
        layer.paintGradient(state.leavingGradient, into: &below)
        layer.paintGradient(state.gradient, into: &below)
        collected.own(below)
        let contentClips = collected.contentClips(masksToBounds: state.masksToBounds)
        let sizing = view.options.contentSizing
        // The cross-fade follows the curve but never leaves 0...1, whatever it overshoots.
        let fade = min(max(progress, 0), 1)
        var content: [DrawItem] = []
        if let initial = view.initialContent {
            drawContent(
                initial, opacity: 1 - fade, bounds: bounds, cornerRadius: state.cornerRadius, sizing: sizing,
                toPixels: layer.transform, clips: contentClips, snapshotBase: snapshotBase, label: label + " (initial content)",
                into: &content)
        }
        drawContent(
            view.finalContent, opacity: view.initialContent == nil ? 1 : fade, bounds: bounds,
            cornerRadius: state.cornerRadius, sizing: sizing, toPixels: layer.transform, clips: contentClips,
            snapshotBase: snapshotBase, label: label, into: &content)
        if state.masksToBounds { collected.ownClipped(content) } else { collected.own(content) }
        let childClips = collected.childClips(masksToBounds: state.masksToBounds)
        for child in childOrder[index] {
            collected.target(
                GroupOpacity.clipped(
                    subtreeItems(child, time: time, parentToPixels: toPixels, snapshotBase: snapshotBase), by: childClips))
        }
        var above: [DrawItem] = []
        // Hero's overlay: a colour over the view's content and subviews, inside its rounded bounds.
        if state.overlay.alpha > 0 { layer.paintBackground(state.overlay, into: &above) }
        layer.paintBorder(width: state.borderWidth, color: state.borderColor, into: &above)
        collected.own(above)
        return collected.finish(opacity: alpha)
    }

    /// A view's content laid into its current bounds (`stretch`) or at its own
    /// size pinned top-left (`final`); images are re-fitted, never a stretched bitmap.
    /// A matched view's content is Shift's snapshot: its own background and
    /// border around the image and subviews, faded as one layer (rounded with
    /// the view, where Shift's are square: docs/scene-format.md says why). So
    /// the arriving content, drawn over the leaving one, covers it: the leaving
    /// content shows as (1 - q)^2 at fade progress q, as on a device, not 1 - q.
    private func drawContent(
        _ content: TransientView.Content, opacity: Double, bounds: Rect, cornerRadius: Double,
        sizing: ShiftOptions.ContentSizing, toPixels: AffineTransform2D, clips: [Clip],
        snapshotBase: Int, label: String, into items: inout [DrawItem]
    ) {
        guard opacity > 0 else { return }
        let area = sizing == .stretch ? bounds : Rect(origin: .zero, size: content.size)
        let layer = LayerPainter(transform: toPixels, bounds: area, cornerRadius: cornerRadius, label: label)
        var parts: [DrawItem] = []
        if let frame = content.frame { layer.paintBackground(frame.background, into: &parts) }
        if let image = content.image {
            let rect = ContentLayout.imageRect(imageSize: content.imageSize, in: area, mode: content.contentMode)
            parts.append(DrawItem(transform: toPixels, shape: RoundedRect(rect: rect), paint: .bitmap(.image(image)), label: label))
        }
        if let text = content.text, content.size.width > 0, content.size.height > 0 {
            // Drawn at the view's own size and scaled with the content, as a snapshot of the label would be.
            let drawn = content.textSize
            let rect = Rect(
                x: area.minX, y: area.minY, width: area.width * drawn.width / content.size.width,
                height: area.height * drawn.height / content.size.height)
            parts.append(DrawItem(transform: toPixels, shape: RoundedRect(rect: rect), paint: .bitmap(.image(text)), label: label))
        }
        if let snapshot = content.snapshot {
            // A clipped snapshot covers only its part of the area.
            let rect = content.snapshotGrid?.part(of: area) ?? area
            parts.append(
                DrawItem(
                    transform: toPixels, shape: RoundedRect(rect: rect), paint: .bitmap(.snapshot(snapshotBase + snapshot)),
                    label: label))
        }
        if let frame = content.frame { layer.paintBorder(width: frame.borderWidth, color: frame.borderColor, into: &parts) }
        items += GroupOpacity.wrap(GroupOpacity.clipped(parts, by: clips), opacity: opacity, label: label)
    }
}
