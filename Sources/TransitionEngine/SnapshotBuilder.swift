import FramePlan
import Primitives
import SceneModel

/// Builds the static content of a transient view: its non-transient subviews,
/// drawn as UIKit would (background rounded by cornerRadius, image placed by
/// contentMode, masksToBounds clipping, alpha), into a bitmap of the view's
/// size at the canvas scale, or of the part of it a `SnapshotGrid` keeps.
///
/// The view's own background, image, corner radius, alpha and shadow are not
/// in it: they animate, so they are drawn live every frame. Views that draw
/// themselves (transient views and matched partners) are left out with their subtrees.
struct SnapshotBuilder {
    let tree: ViewTree
    let excluded: Set<Int>
    let images: ImageTable
    let scale: Double

    /// The whole grid of node `index`'s content at the canvas scale (nil for an empty view).
    func wholeGrid(of index: Int) -> SnapshotGrid? { SnapshotGrid.whole(size: tree.nodes[index].size, scale: scale) }

    /// The snapshot of node `index`'s subviews over `grid` (by default the
    /// whole view), or nil when there is nothing to draw.
    func snapshot(of index: Int, grid: SnapshotGrid? = nil) -> SnapshotDescription? {
        let node = tree.nodes[index]
        guard let grid = grid ?? wholeGrid(of: index) else { return nil }
        let toPixels = grid.toPixels
        var items: [DrawItem] = []
        for child in ZOrder.sorted(node.children.filter { !excluded.contains($0) }, by: { tree.nodes[$0].spec.zPosition }) {
            items += subtreeItems(child, toTarget: tree.nodes[child].toSuperview.concatenating(.affine(toPixels)))
        }
        guard !items.isEmpty else { return nil }
        let label = node.spec.name ?? node.address.description
        return SnapshotDescription(
            name: "\(tree.screen.rawValue): \(label)", pixelWidth: grid.pixelWidth,
            pixelHeight: grid.pixelHeight, content: DisplayList(items: items))
    }

    /// A static view and its subviews as UIKit draws them; clips are this
    /// view's and below (the caller adds its own), alpha below 1 a group, a
    /// 3-D view's own parts plane groups (`ViewItems`), a back-facing view
    /// with `doubleSided` false nothing. `spec` stands for the node's own
    /// (a root's alpha and corner radius at rest under a presentation).
    func subtreeItems(_ index: Int, toTarget: PlaneMap, spec override: View? = nil) -> [DrawItem] {
        let node = tree.nodes[index]
        let spec = override ?? node.spec
        guard spec.alpha > 0 else { return [] }
        guard spec.doubleSided || toTarget.isFacingViewer else { return [] }
        let bounds = Rect(origin: .zero, size: node.size)
        let label = spec.name ?? node.address.description
        var collected = ViewItems(map: toTarget, bounds: bounds, cornerRadius: spec.cornerRadius, label: label)
        let layer = collected.painter
        var items: [DrawItem] = []
        let shadow = spec.shadow ?? ShadowSpec()
        layer.paintShadow(
            color: shadow.color, opacity: spec.shadow == nil ? 0 : shadow.opacity, radius: shadow.radius,
            offset: shadow.offset, masksToBounds: spec.masksToBounds, into: &items)
        collected.own(items)
        items = []
        if let blur = spec.blur {
            collected.backdropBlur(radius: blur.radius)
            layer.paintBackground(BlurTint.color(of: blur.style), into: &items)
        }
        layer.paintBackground(spec.backgroundColor ?? .clear, into: &items)
        layer.paintGradient(spec.gradient, into: &items)
        collected.own(items)
        items = []
        let innerClips = collected.contentClips(masksToBounds: spec.masksToBounds)
        if let image = images.index(of: spec.image) {
            let rect = ContentLayout.imageRect(imageSize: images.pointSize(of: image), in: bounds, mode: spec.contentMode)
            items.append(
                DrawItem(
                    transform: layer.transform, shape: RoundedRect(rect: rect), paint: .bitmap(.image(image)),
                    clips: innerClips, label: label))
        }
        if let text = images.index(ofLabel: spec.text, size: node.size) {
            items.append(
                DrawItem(
                    transform: layer.transform, shape: RoundedRect(rect: Rect(origin: .zero, size: images.pointSize(of: text))),
                    paint: .bitmap(.image(text)), clips: innerClips, label: label))
        }
        if spec.masksToBounds { collected.ownClipped(items) } else { collected.own(items) }
        let childClips = collected.childClips(masksToBounds: spec.masksToBounds)
        for child in ZOrder.sorted(node.children.filter { !excluded.contains($0) }, by: { tree.nodes[$0].spec.zPosition }) {
            collected.target(
                GroupOpacity.clipped(
                    subtreeItems(child, toTarget: tree.nodes[child].toSuperview.concatenating(toTarget)),
                    by: childClips))
        }
        items = []
        layer.paintBorder(width: spec.borderWidth, color: spec.borderColor, into: &items)
        collected.own(items)
        return collected.finish(opacity: spec.alpha)
    }
}
