import Primitives
import FramePlan

/// `.group` (group opacity): a `GroupLayer` of the group's items, read 1:1
/// (layer pixel `(x, y)` is target pixel `(x, y)`) inside the group's shape
/// and clips at its opacity, like a bitmap without sampling: the interior is
/// the constant-alpha blend of the layer's row, the edges per-pixel alpha.
/// Rows whose layer pixels could be computed straight away skip the layer
/// (`LayerBypass`).
struct LayerFill: CoverageFill {
    let layer: GroupLayer

    /// Groups nested deeper than this draw nothing (a guard against runaway recursion).
    static let maxGroupDepth = 32

    /// Appends the prepared form of `group` (a `.group` item) to `items`:
    /// nothing when it cannot be seen; its items themselves when it is an exact
    /// no-op layer (opacity 1, no clips, a shape that is a whole-pixel box: the
    /// layer would be copied with coverage exactly 1, so drawing the items in
    /// place, cut to that box, gives the same frame up to rounding, faster);
    /// otherwise one item reading a `GroupLayer`.
    static func append(
        _ group: DrawItem, content: DisplayList, target: PixelBox, sources: Rasterizer.Sources,
        depth: Int, threads: Int, into items: inout [PreparedItem]
    ) {
        guard depth < maxGroupDepth else { return }
        let opacity = PreparedItem.opacity(of: group)
        guard opacity > 0, !content.items.isEmpty,
            let shape = CoverageShape(transform: group.transform, shape: group.shape)
        else { return }
        if opacity == 1, group.clips.isEmpty, let hard = pixelBox(group.transform, group.shape) {
            let box = hard.intersection(target)
            if !box.isEmpty {
                Rasterizer.append(content, target: box, sources: sources, depth: depth + 1, threads: threads, into: &items)
            }
            return
        }
        var box = shape.bounds.intersection(target)
        var clips: [CoverageShape] = []
        clips.reserveCapacity(group.clips.count)
        for clip in group.clips {
            guard !box.isEmpty, let c = CoverageShape(transform: clip.transform, shape: clip.shape) else { return }
            box = box.intersection(c.bounds)
            clips.append(c)
        }
        guard !box.isEmpty else { return }
        // An opaque solid and a bitmap over it: one item drawn straight, the same bytes (`BackedGroupFill`).
        if sources.bypassesLayers, let fused = BackedGroupFill.prepare(group, content: content, target: box, sources: sources) {
            items.append(fused)
            return
        }
        var nested = Rasterizer.prepare(content, target: box, sources: sources, depth: depth + 1, threads: threads)
        guard var used = nested.items.first?.bounds else { return }
        for item in nested.items.dropFirst() {
            let b = item.bounds
            used = PixelBox(x0: min(used.x0, b.x0), y0: min(used.y0, b.y0), x1: max(used.x1, b.x1), y1: max(used.y1, b.y1))
        }
        // Rows where the layer would hold pixels computable straight away: drawn directly, left alone by the layer.
        let bypass = sources.bypassesLayers ? LayerBypass.find(content: nested.items, layer: used, shape: shape, clips: clips) : nil
        let bypassed = bypass?.bands ?? []
        for index in nested.items.indices where !bypassed.isEmpty { nested.items[index].excluded = bypassed }
        let fill = LayerFill(layer: GroupLayer(box: used, content: nested))
        var composite = PreparedItem(
            fill.prepared, shape: shape, clips: clips, opacity: opacity, bounds: used, paintsOpaque: fill.paintsOpaque)
        composite.excluded = bypassed
        items.append(composite)
        if let bypass {
            for band in bypass.bands { items.append(bypass.direct.bypassing(to: band, fill: bypass.fill, opacity: opacity)) }
        }
    }

    /// The whole-pixel box a shape is exactly (coverage 1 inside, 0 outside):
    /// no rotation, no rounded corners, integer edges in target pixels; else nil.
    static func pixelBox(_ t: AffineTransform2D, _ shape: RoundedRect) -> PixelBox? {
        guard t.b == 0, t.c == 0, !(shape.cornerRadius > 0) else { return nil }
        let r = shape.rect
        let xs = (t.a * r.minX + t.tx, t.a * (r.minX + r.width) + t.tx)
        let ys = (t.d * r.minY + t.ty, t.d * (r.minY + r.height) + t.ty)
        let edges = [xs.0, xs.1, ys.0, ys.1]
        guard edges.allSatisfy({ $0.isFinite && abs($0) < 1e15 && $0 == $0.rounded() }) else { return nil }
        let box = PixelBox(
            x0: clampedIndex(min(xs.0, xs.1)), y0: clampedIndex(min(ys.0, ys.1)),
            x1: clampedIndex(max(xs.0, xs.1)), y1: clampedIndex(max(ys.0, ys.1)))
        return box.isEmpty ? nil : box
    }

    var prepared: PreparedFill { .layer(self) }
    /// Layers are translucent wherever their items leave them so; not worth a scan.
    var paintsOpaque: Bool { false }

    /// The layer's pixels (lent by a `LayerPool` for the duration of a draw), in target coordinates.
    typealias Band = BufferRows

    /// Nil when the layer was not lent a buffer: there is nothing to read.
    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard let pixels = layer.pixels else { return nil }
        return Band(pixels: UnsafePointer(pixels), stride: layer.stride, x0: layer.box.x0, y0: layer.box.y0)
    }

    /// The composite streams two rows nobody has touched since the layer was
    /// drawn (all of the band's layer rows are drawn before any is composited):
    /// the layer's and the target's. Both are prefetched two rows ahead.
    @inline(__always)
    static func blendInterior(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, ahead: RowAhead
    ) {
        BlendKernels.sourceOverConstant(
            dst: dst, src: band.pixel(x, y), alpha: alpha, count: count,
            prefetching: (UnsafePointer(ahead.dst), band.pixel(x, ahead.y)))
    }

    @inline(__always)
    static func blend(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>
    ) {
        BlendKernels.sourceOver(dst: dst, src: band.pixel(x, y), alpha: alpha, count: count)
    }

    /// None alone: the layer's pixels exist only while a frame is drawn (the
    /// pipeline tests draw groups with a reference of their own).
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? { nil }
}
