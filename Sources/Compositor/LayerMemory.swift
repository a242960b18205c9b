public import FramePlan
import Primitives

/// What the compositor allocates for a display list's 3-D planes and backdrop blurs, from the list alone (nothing
/// drawn), by the same rules that size them when the list is prepared, for the memory estimate made before a render.
///
/// - A projected item (`DrawItem.projection`) is drawn flat into a `PlaneLayer` (`PlaneLayer.Extent`): its base
///   texture and the levels its samplers read, from the renderer's `TexturePool`, which hands out blocks a quarter
///   larger than asked. They live until the list has been drawn. The flat bitmap the layer is drawn into lives
///   only until its texture is made. Projected items in the layer's own content make layers of their own.
/// - A backdrop blur (at the top level only) blurs into a region lent from the renderer's `LayerPool`, as group
///   layers are: the item's pixel bounds, as wide as whole groups of eight columns, as tall as the bounds grown
///   by the blur's reach (`ceil(3 sigma)`) within the target.
public enum LayerMemory {
    /// Bytes of `list`'s plane layers on a `width` x `height` target: `held` until the list is drawn, and the
    /// largest flat bitmap one of them is drawn into first.
    public static func planeLayers(_ list: DisplayList, width: Int, height: Int) -> (held: Double, largestBitmap: Double) {
        var held = 0.0
        var largest = 0.0
        walk(list, view: PixelBox(x0: 0, y0: 0, x1: max(0, width), y1: max(0, height)), depth: 0, held: &held, largest: &largest)
        return (held, largest)
    }

    /// Bytes of the region a top-level backdrop blur item is blurred into on a `width` x `height` target; nil for
    /// any other item, or one that blurs nothing.
    public static func backdropRegionBytes(_ item: DrawItem, width: Int, height: Int) -> Double? {
        guard case .backdropBlur(let sigma) = item.paint, PreparedItem.opacity(of: item) > 0 else { return nil }
        let target = PixelBox(x0: 0, y0: 0, x1: max(0, width), y1: max(0, height))
        let bounds: PixelBox
        let pixels: Double
        if let projection = item.projection, projection.affine == nil {
            guard
                let s = ProjectedBackdropFill.pixelSigma(
                    sigma, transform: item.transform, shape: item.shape.rect, projection: projection),
                let shape = ProjectedShape(transform: item.transform, shape: item.shape, projection: projection)
            else { return nil }
            (bounds, pixels) = (shape.bounds.intersection(target), s)
        } else {
            let transform = item.projection?.affine.map { item.transform.concatenating($0) } ?? item.transform
            guard let s = BackdropFill.pixelSigma(sigma, transform: transform),
                let shape = CoverageShape(transform: transform, shape: item.shape)
            else { return nil }
            (bounds, pixels) = (shape.bounds.intersection(target), s)
        }
        guard !bounds.isEmpty else { return nil }
        return Double(BackdropRegion(bounds: bounds, target: target, sigma: pixels).byteCount)
    }

    /// The pool's blocks are a quarter larger than asked (`TexturePool.take`).
    static let poolSlack = 1.25

    private static func walk(_ list: DisplayList, view: PixelBox, depth: Int, held: inout Double, largest: inout Double) {
        guard depth < LayerFill.maxGroupDepth else { return }
        for item in list.items where PreparedItem.opacity(of: item) > 0 {
            if item.projection != nil || item.clips.contains(where: { $0.projection != nil }) {
                if case .backdropBlur = item.paint { continue }  // a region, not a layer
                guard let extent = PlaneLayer.Extent(item: item, projection: item.projection ?? .identity, view: view) else { continue }
                var levels = 0
                for lx in 0 ... extent.maxLevelX {
                    for ly in 0 ... extent.maxLevelY { levels += MipLevels.byteCount(lx, ly, width: extent.width, height: extent.height) }
                }
                held += poolSlack * Double(levels)
                largest = max(largest, Double(extent.width) * Double(extent.height) * 4)
                guard case .group(let content) = item.paint else { continue }
                let toLayer = AffineTransform2D.scale(extent.density, extent.density)
                    .concatenating(.translation(-Double(extent.ox), -Double(extent.oy)))
                walk(
                    PlaneLayer.placed(content, by: toLayer), view: PixelBox(x0: 0, y0: 0, x1: extent.width, y1: extent.height),
                    depth: depth + 1, held: &held, largest: &largest)
            } else if case .group(let content) = item.paint {
                walk(content, view: view, depth: depth + 1, held: &held, largest: &largest)
            }
        }
    }
}
