import Primitives
import FramePlan

/// A group that is a solid and one bitmap over it, in the same rectangle and
/// clips (the solid's corners rounded at least as much as the bitmap's), at a
/// group opacity below 1, not turned (a card's content cross-fading, a screen's
/// snapshot over its background, a translucent bar's): drawn straight onto the
/// group's target as one item, row by row, instead of through a `GroupLayer`.
/// The item's shape is the bitmap's, which holds the solid's.
///
/// The same bytes as the layer: where the solid covers exactly 1 (so the bitmap
/// does too), the layer would hold the samples laid over the solid's colour
/// (the solid stored, the bitmap blended at 255), composited at the group's
/// opacity; that is the backed bitmap drawn at the group's opacity
/// (`BitmapFill.backing`, as `LayerBypass` argues for whole rows). Around that
/// span the run's layer pixels are made in a scratch row exactly as the layer
/// path makes them (transparent, the solid at its coverage alpha, the bitmap at
/// its own) and composited at the group's opacity: the layer path's kernels in
/// its order. `GroupTests` compares the two byte for byte.
///
/// Why: through the layer each pixel of a card is cleared, filled, blended
/// onto, read back and blended again; `LayerBypass` could skip that only in
/// rows the group covers edge to edge, which a rounded card at fractional
/// edges never does, and cutting rows around its corners cost more per run
/// than the layer saved. Here the edges are part of the same run.
struct BackedGroupFill: Fill {
    /// The bitmap, its `backing` the solid's premultiplied colour.
    let bitmap: BitmapFill
    /// The solid's shape (inside the item's, the bitmap's).
    let background: CoverageShape
    /// The solid's steady rows (`SteadyRows`): where they are the bitmap's too, the alpha of both at the
    /// edges is worked out once per band, as `ItemRow.edgeAlpha` does for an item.
    let backgroundSteady: SteadyRows?
    /// The group's opacity as 8-bit alpha (the item itself is drawn at opacity 1: its coverage alpha is
    /// what the layer's items would get).
    let groupAlpha: UInt8

    /// The fused item for `group` (a `.group` item) with `content`, prepared against the pixel box `target`
    /// as the layer's items would be; nil unless the group qualifies: opacity below 1, no clips, a shape that
    /// is a whole-pixel box (coverage exactly 1) holding the content; content a solid at opacity 1,
    /// then a bitmap at opacity 1 with the same transform, rectangle and clips and corners no rounder than
    /// the solid's, neither projected nor turned (a turned bitmap's samples depend on where its runs start,
    /// which here are not the layer's).
    static func prepare(
        _ group: DrawItem, content: DisplayList, target: PixelBox, sources: Rasterizer.Sources
    ) -> PreparedItem? {
        let opacity = PreparedItem.opacity(of: group)
        guard opacity < 1, group.clips.isEmpty, content.items.count == 2,
            let hard = LayerFill.pixelBox(group.transform, group.shape)
        else { return nil }
        let (below, above) = (content.items[0], content.items[1])
        guard case .solid(let color) = below.paint, case .bitmap(let reference) = above.paint,
            PreparedItem.opacity(of: below) == 1, PreparedItem.opacity(of: above) == 1,
            below.transform == above.transform, below.shape.rect == above.shape.rect,
            below.shape.cornerRadius >= above.shape.cornerRadius || !(above.shape.cornerRadius > 0),
            below.clips == above.clips, below.projection == nil, above.projection == nil,
            !below.clips.contains(where: { $0.projection != nil }),
            let solid = SolidFill.prepare(below, color: color, target: target),
            let bitmap = BitmapFill.prepare(above, reference, sources: sources, target: target),
            solid.bounds.intersection(bitmap.bounds) == solid.bounds, bitmap.bounds.intersection(hard) == bitmap.bounds,
            case .solid(let solidFill) = solid.fill, case .bitmap(var backed) = bitmap.fill, backed.mapping.isSeparable
        else { return nil }
        backed.backing = unsafeBitCast(solidFill.color, to: UInt32.self)
        let fill = BackedGroupFill(
            bitmap: backed, background: solid.shape,
            backgroundSteady: SteadyRows(shape: solid.shape, clips: solid.clips, bounds: solid.bounds),
            groupAlpha: roundedByte(Float(opacity) * 255))
        return PreparedItem(
            fill.prepared, shape: bitmap.shape, clips: bitmap.clips, opacity: 1, bounds: bitmap.bounds, paintsOpaque: false)
    }

    var prepared: PreparedFill { .backedGroup(self) }
    /// Translucent: drawn at the group's opacity.
    var paintsOpaque: Bool { false }

    struct Band {
        var bitmap: BitmapFill.Band
        let background: CoverageShape
        let backgroundSteady: SteadyRows
        let color: SIMD4<UInt8>
        let groupAlpha: UInt8
        /// Absolute-x scratch rows standing in for the layer's row around the solid's full span, and the
        /// alpha of the solid and the bitmap there on steady rows (valid once `steadyAlphaReady`).
        let layerRow: UnsafeMutablePointer<UInt8>
        let solidAlpha: UnsafeMutablePointer<UInt8>
        let bitmapAlpha: UnsafeMutablePointer<UInt8>
        var steadyAlphaReady = false
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard let inner = bitmap.band(columns: columns, scratch: scratch), let backing = bitmap.backing else { return nil }
        return Band(
            bitmap: inner, background: background, backgroundSteady: backgroundSteady ?? .none,
            color: unsafeBitCast(backing, to: SIMD4<UInt8>.self), groupAlpha: groupAlpha, layerRow: scratch.layerRow,
            solidAlpha: scratch.layerAlpha, bitmapAlpha: scratch.layerAlpha + scratch.capacity)
    }

    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        BitmapFill.beginRow(&band.bitmap, y: y, lower: lower, upper: upper)
        let steady = band.backgroundSteady.contains(y) && row.steady.contains(y)
        var (f0, f1): (Int, Int)
        if steady {
            (f0, f1) = band.backgroundSteady.interior(lower, upper)
            if !band.steadyAlphaReady {
                // The item's steady span around the solid's steady interior, as the per-row path computes it.
                let s = band.backgroundSteady
                for (a, b) in [(row.steady.lower, s.interiorLower), (s.interiorUpper, row.steady.upper)] where a < b {
                    _ = edgeAlpha(band, y, a, b, row)
                    (band.solidAlpha + a).update(from: row.scratch.alpha + a, count: b - a)
                    row.shapeCoverage(y, a, b)
                    _ = row.alphaRun(y, a, b)
                    (band.bitmapAlpha + a).update(from: row.scratch.alpha + a, count: b - a)
                }
                band.steadyAlphaReady = true
            }
        } else {
            (f0, f1) = CoverageShape.fullSpan(row: y, of: band.background, clips: row.clips)
            f0 = max(f0, lower)
            f1 = min(f1, upper)
            if f0 >= f1 { (f0, f1) = (upper, upper) }
        }
        drawThroughLayerRow(&band, y, lower, f0, row, steady: steady)
        if f0 < f1 {
            let later = row.rowAhead(y)
            BitmapFill.blendInterior(
                &band.bitmap, y: y, x: f0, count: f1 - f0, dst: row.pixel(f0, y), alpha: band.groupAlpha,
                ahead: (later, row.pixel(f0, later)))
        }
        drawThroughLayerRow(&band, y, f1, upper, row, steady: steady)
    }

    /// The solid's alpha over `lower ..< upper` on row `y` into `row.scratch.alpha`, as its own item in the
    /// layer would get it (`ItemRow.alphaRun` at opacity 1, the same clips); returns the non-zero pixels.
    @inline(__always)
    private static func edgeAlpha(_ band: Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow) -> (lower: Int, upper: Int) {
        CoverageKernels.coverageRow(band.background, y: y, x0: lower, count: upper - lower, into: row.scratch.coverage + lower)
        return row.alphaRun(y, lower, upper)
    }

    /// The solid's alpha over `lower ..< upper` on row `y`, as its own item in the layer would get it (`edgeAlpha`),
    /// and its non-zero pixels.
    @inline(__always)
    private static func solidAlpha(
        _ band: Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow, steady: Bool
    ) -> (alpha: UnsafePointer<UInt8>, lower: Int, upper: Int) {
        runAlpha(kept: band.solidAlpha, steady: steady, lower, upper, row) { edgeAlpha(band, y, lower, upper, row) }
    }

    /// The bitmap's alpha over `lower ..< upper` on row `y`, as its own item in the layer would get it
    /// (`ItemRow.alphaRun` of its coverage), and its non-zero pixels.
    @inline(__always)
    private static func bitmapAlpha(
        _ band: Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow, steady: Bool
    ) -> (alpha: UnsafePointer<UInt8>, lower: Int, upper: Int) {
        runAlpha(kept: band.bitmapAlpha, steady: steady, lower, upper, row) {
            row.shapeCoverage(y, lower, upper)
            return row.alphaRun(y, lower, upper)
        }
    }

    /// On a steady row the band's `kept` alpha, else what `compute` leaves in `row.scratch.alpha`; with the non-zero pixels.
    @inline(__always)
    private static func runAlpha(
        kept: UnsafeMutablePointer<UInt8>, steady: Bool, _ lower: Int, _ upper: Int, _ row: ItemRow,
        compute: () -> (lower: Int, upper: Int)
    ) -> (alpha: UnsafePointer<UInt8>, lower: Int, upper: Int) {
        let live = steady ? CoverageKernels.nonZero(kept, lower, upper) : compute()
        return (UnsafePointer(steady ? kept : row.scratch.alpha), live.lower, live.upper)
    }

    /// The bitmap's samples of pixels `x ..< x + count` on row `y` as the layer's bitmap item takes them: without the
    /// backing colour (`BitmapSampler.sample`; valid until its next call).
    @inline(__always)
    private static func layerSamples(_ band: inout Band, _ y: Int, _ x: Int, _ count: Int) -> UnsafePointer<UInt8> {
        let backing = band.bitmap.sampler.backing
        band.bitmap.sampler.backing = nil
        defer { band.bitmap.sampler.backing = backing }
        return band.bitmap.sampler.sample(y: y, x: x, count: count)
    }

    /// Pixels `lower ..< upper` of row `y` where the solid covers less than 1: the layer's pixels, made as the
    /// layer's two items would make them (each its own coverage alpha at opacity 1), then composited at the
    /// group's opacity as the group's item would (its box covers them exactly 1). On steady rows the alphas
    /// are the band's kept ones.
    private static func drawThroughLayerRow(
        _ band: inout Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow, steady: Bool
    ) {
        guard lower < upper else { return }
        let count = upper - lower
        #if SHIFTRENDER_AVX512
        if count <= 16 { return drawThroughRegister(&band, y, lower, upper, row, steady: steady) }
        #endif
        let layer = band.layerRow + 4 &* lower
        layer.update(repeating: 0, count: 4 &* count)
        let solid = solidAlpha(band, y, lower, upper, row, steady: steady)
        if solid.lower < solid.upper {
            BlendKernels.sourceOverSolid(
                dst: band.layerRow + 4 &* solid.lower, color: band.color, alpha: solid.alpha + solid.lower,
                count: solid.upper - solid.lower)
        }
        let bitmap = bitmapAlpha(band, y, lower, upper, row, steady: steady)
        if bitmap.lower < bitmap.upper {
            let n = bitmap.upper - bitmap.lower
            BlendKernels.sourceOver(
                dst: band.layerRow + 4 &* bitmap.lower, src: layerSamples(&band, y, bitmap.lower, n),
                alpha: bitmap.alpha + bitmap.lower, count: n)
        }
        BlendKernels.sourceOverConstant(dst: row.pixel(lower, y), src: layer, alpha: band.groupAlpha, count: count)
    }

    #if SHIFTRENDER_AVX512
    /// `drawThroughLayerRow` of at most sixteen pixels with the layer's pixels in one register: the kernels'
    /// sixteen-pixel forms (`sourceOverSolid`, `sourceOver`, `sourceOverConstant` of a run this short, each a
    /// blend lane by lane) in the same order, so the same bytes. Through the scratch row each kernel's masked load
    /// read bytes just stored, which waits for the stores to drain, three times a run: the cards' one- and
    /// two-pixel edges on steady rows paid that on every row.
    private static func drawThroughRegister(
        _ band: inout Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow, steady: Bool
    ) {
        let count = upper - lower
        // The solid over a clear layer; lanes where it does not reach have alpha 0 and stay clear.
        let solid = WidePixels.alphaLanes(solidAlpha(band, y, lower, upper, row, steady: steady).alpha + lower, count: count)
        var layer = WidePixels.blend(WidePixels.splat(0), WidePixels.splat(unsafeBitCast(band.color, to: UInt32.self)), solid)
        let bitmap = bitmapAlpha(band, y, lower, upper, row, steady: steady)
        let n = bitmap.upper - bitmap.lower
        // Samples of clear texels are 0, which the blend lays over the layer as nothing: not sampled (the edges of a
        // card's content usually are clear).
        if n > 0 && !band.bitmap.sampler.readsOnlyClearTexels(y: y, x: bitmap.lower, count: n) {
            let samples = layerSamples(&band, y, bitmap.lower, n)
            let placed = WidePixels.movedUp(WidePixels.load(samples, count: n), by: bitmap.lower - lower, count: n)
            layer = WidePixels.blend(layer, placed, WidePixels.alphaLanes(bitmap.alpha + lower, count: count))
        }
        guard band.groupAlpha != 0 else { return }
        let target = UnsafeMutableRawPointer(row.pixel(lower, y))
        let under = WidePixels.load(target, count: count)
        let blended = band.groupAlpha == 255
            ? WidePixels.blendFull(under, layer) : WidePixels.blend(under, layer, WidePixels.splat(UInt32(band.groupAlpha)))
        WidePixels.store(blended, target, count: count)
    }
    #endif

    /// None alone, as for a group's layer: `GroupTests` compares it with the layer path instead.
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? { nil }
}
