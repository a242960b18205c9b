/// Draws one prepared item, row by row, inside one band.
///
/// A row of an item is cut into runs that cost differently:
/// - the row span (shape, clips and bounds intersected; exact for rotations),
///   minus the part a later opaque item hides (`PreparedItem.hiddenBy`);
/// - for solid and bitmap paints, the interior run where shape and every clip
///   have coverage exactly 1 (`CoverageShape.fullSpan`): one constant alpha
///   (the opacity), no coverage math, a store when opaque;
/// - the edge runs around it: per-pixel analytic coverage, clip coverage
///   multiplied in, quantized with the opacity, zero alpha trimmed;
/// - borders: outer minus inner coverage, skipping the inner shape's interior;
/// - shadows: the blurred value per pixel (`ShadowKernels`);
/// - group layers: like a bitmap at 1:1, read straight from the layer's row
///   (interior: constant-alpha blend of the row; edges: per-pixel alpha).
/// The target may be a group's layer: a buffer of `width`-pixel rows holding
/// target pixels from `origin` on (rows and columns stay in target coordinates).
/// Every pixel's bytes depend only on the item and the row, never on the band.
struct RowPainter {
    /// The fill without class references, so the per-row switches cause no ARC traffic.
    private enum Kind { case solid, bitmap, border, shadow, layer }
    private let kind: Kind
    private let color: SIMD4<UInt8>
    private let opaqueSource: Bool
    private let inner: CoverageShape?
    private let shadow: ShadowShape?
    private let item: PreparedItem
    private let target: UnsafeMutablePointer<UInt8>
    private let width: Int
    private let originX: Int, originY: Int
    /// `.layer`: the layer's pixels, row length and first pixel (target coordinates).
    private let layerPixels: UnsafePointer<UInt8>?
    private let layerStride: Int, layerX0: Int, layerY0: Int
    private let scratch: RowScratch
    private var sampler: BitmapSampler?
    private let shadowColumns: UnsafePointer<Float>?

    init(_ item: PreparedItem, target: UnsafeMutablePointer<UInt8>, width: Int, origin: (x: Int, y: Int) = (0, 0),
         scratch: RowScratch) {
        self.item = item
        self.target = target
        self.width = width
        originX = origin.x; originY = origin.y
        self.scratch = scratch
        var layerPixels: UnsafePointer<UInt8>?, layerStride = 0, layerX0 = 0, layerY0 = 0
        let columns = item.bounds.x0 ..< item.bounds.x1
        var shadowColumns: UnsafePointer<Float>?
        var color = SIMD4<UInt8>(), opaqueSource = false, inner: CoverageShape?, shadow: ShadowShape?
        switch item.fill {
        case .solid(let c):
            kind = .solid; color = c
        case .bitmap(let mapping, let texture):
            kind = .bitmap; opaqueSource = texture.isOpaque
            sampler = BitmapSampler(mapping: mapping, texture: texture, scratch: scratch, columns: columns)
        case .border(let c, let ring):
            kind = .border; color = c; inner = ring
        case .shadow(let c, let s):
            kind = .shadow; color = c; shadow = s
            if s.isAxisAligned {
                ShadowKernels.prepareColumns(s, x0: columns.lowerBound, count: columns.count,
                                             into: scratch.shadowColumns + columns.lowerBound)
                shadowColumns = UnsafePointer(scratch.shadowColumns)
            }
        case .layer(let layer):
            kind = .layer
            layerPixels = layer.pixels.map { UnsafePointer($0) }
            layerStride = layer.stride; layerX0 = layer.box.x0; layerY0 = layer.box.y0
        }
        self.layerPixels = layerPixels; self.layerStride = layerStride; self.layerX0 = layerX0; self.layerY0 = layerY0
        self.color = color; self.opaqueSource = opaqueSource; self.inner = inner; self.shadow = shadow
        self.shadowColumns = shadowColumns
    }

    mutating func drawRow(_ y: Int) {
        if kind == .layer && layerPixels == nil { return }  // a layer not lent a buffer: nothing to read
        var (x0, x1) = item.shape.span(row: y)
        x0 = max(x0, item.bounds.x0); x1 = min(x1, item.bounds.x1)
        for clip in item.clips where x0 < x1 {
            let s = clip.span(row: y)
            x0 = max(x0, s.lower); x1 = min(x1, s.upper)
        }
        guard x0 < x1 else { return }
        if let h = item.hiddenBy, h.y0 <= y, y < h.y1, h.x0 < x1, x0 < h.x1 {
            if x0 < h.x0 { drawRun(y, x0, h.x0) }
            if h.x1 < x1 { drawRun(y, h.x1, x1) }
        } else {
            drawRun(y, x0, x1)
        }
    }

    private mutating func drawRun(_ y: Int, _ lower: Int, _ upper: Int) {
        switch kind {
        case .solid, .bitmap, .layer:
            sampler?.beginRow(y, lower: lower, upper: upper)
            var (f0, f1) = item.shape.fullSpan(row: y)
            for clip in item.clips where f0 < f1 {
                let s = clip.fullSpan(row: y)
                f0 = max(f0, s.lower); f1 = min(f1, s.upper)
            }
            f0 = max(f0, lower); f1 = min(f1, upper)
            if f0 >= f1 { f0 = upper; f1 = upper }
            drawEdge(y, lower, f0)
            if f0 < f1 { drawInterior(y, f0, f1) }
            drawEdge(y, f1, upper)
        case .border:
            let inner = self.inner!
            let hole = inner.fullSpan(row: y)
            if hole.lower < hole.upper && hole.lower < upper && lower < hole.upper {
                drawRing(y, lower, min(upper, hole.lower), inner)
                drawRing(y, max(lower, hole.upper), upper, inner)
            } else {
                drawRing(y, lower, upper, inner)
            }
        case .shadow:
            let n = upper - lower
            ShadowKernels.shadowRow(shadow!, y: y, x0: lower, count: n, columns: shadowColumns, into: scratch.coverage + lower)
            finishVarying(y, lower, n)
        }
    }

    /// Per-pixel coverage of shape and clips over `lower ..< upper`, then paint.
    private func drawEdge(_ y: Int, _ lower: Int, _ upper: Int) {
        guard lower < upper else { return }
        CoverageKernels.coverageRow(item.shape, y: y, x0: lower, count: upper - lower, into: scratch.coverage + lower)
        finishVarying(y, lower, upper - lower)
    }

    /// Border coverage: the outer shape's minus the inner one's.
    private func drawRing(_ y: Int, _ lower: Int, _ upper: Int, _ inner: CoverageShape) {
        guard lower < upper else { return }
        let coverage = scratch.coverage, innerCoverage = scratch.clipCoverage
        CoverageKernels.coverageRow(item.shape, y: y, x0: lower, count: upper - lower, into: coverage + lower)
        let s = inner.span(row: y)
        let a = max(lower, s.lower), b = min(upper, s.upper)
        if a < b {
            CoverageKernels.coverageRow(inner, y: y, x0: a, count: b - a, into: innerCoverage + a)
            for x in a ..< b { coverage[x] = max(0, coverage[x] - innerCoverage[x]) }
        }
        finishVarying(y, lower, upper - lower)
    }

    /// Clips, opacity, quantization, trimming and the paint, for coverage already in `scratch.coverage`.
    private func finishVarying(_ y: Int, _ x0: Int, _ n: Int) {
        let coverage = scratch.coverage + x0
        for clip in item.clips {
            CoverageKernels.coverageRow(clip, y: y, x0: x0, count: n, into: scratch.clipCoverage + x0)
            CoverageKernels.multiply(coverage, by: scratch.clipCoverage + x0, count: n)
        }
        let live = CoverageKernels.quantize(coverage, opacity: item.opacity, count: n, into: scratch.alpha + x0)
        guard live.lower < live.upper else { return }
        let x = x0 + live.lower, count = live.upper - live.lower
        let dst = pixel(x, y), alpha = UnsafePointer(scratch.alpha + x)
        switch kind {
        case .solid, .border, .shadow:
            BlendKernels.sourceOverSolid(dst: dst, color: color, alpha: alpha, count: count)
        case .bitmap:
            let src = sampler!.sample(y: y, x: x, count: count)
            BlendKernels.sourceOver(dst: dst, src: src, alpha: alpha, count: count)
        case .layer:
            BlendKernels.sourceOver(dst: dst, src: layerPixel(x, y), alpha: alpha, count: count)
        }
    }

    /// Coverage 1 throughout: one alpha, the opacity's.
    private func drawInterior(_ y: Int, _ lower: Int, _ upper: Int) {
        let count = upper - lower, dst = pixel(lower, y)
        switch kind {
        case .solid:
            BlendKernels.sourceOverSolidConstant(dst: dst, color: color, alpha: item.opacityByte, count: count)
        case .bitmap:
            sampler!.blendInterior(y: y, x: lower, count: count, dst: dst, alpha: item.opacityByte, opaqueSource: opaqueSource)
        case .layer:
            BlendKernels.sourceOverConstant(dst: dst, src: layerPixel(lower, y), alpha: item.opacityByte, count: count)
        case .border, .shadow:
            break
        }
    }

    /// Target pixel `(x, y)` (target coordinates) in the buffer drawn into.
    @inline(__always)
    private func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
        target + ((y - originY) * width + (x - originX)) * 4
    }

    /// Layer pixel `(x, y)` (target coordinates, inside the layer's box).
    @inline(__always)
    private func layerPixel(_ x: Int, _ y: Int) -> UnsafePointer<UInt8> {
        layerPixels! + ((y - layerY0) * layerStride + (x - layerX0)) * 4
    }
}
