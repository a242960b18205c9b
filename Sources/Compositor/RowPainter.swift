/// Draws one prepared item with its fill `F`, row by row, inside one band.
///
/// A row of an item is cut into runs that cost differently:
/// - the row span (shape, clips and bounds intersected; exact for rotations;
///   on the item's steady rows the one `SteadyRows` keeps, as are the interior and edge alpha),
///   minus the parts later opaque items hide (`PreparedItem.hiddenBy`, or
///   `hiddenByRows` for a rotated one) and
///   the pixels drawn without the item (`PreparedItem.excluded`, `LayerBypass`),
///   is handed to the fill (`Fill.drawRun`) as one or more runs;
/// - coverage fills (solid, bitmap, gradient, group layer) split a run into the interior
///   run where shape and every clip have coverage exactly 1
///   (`CoverageShape.fullSpan`: one constant alpha, the opacity, no coverage
///   math, a store when opaque) and the edge runs around it (per-pixel
///   analytic coverage, clip coverage multiplied in, quantized with the
///   opacity, zero alpha trimmed) (`CoverageFill`);
/// - borders: outer minus inner coverage, skipping the inner shape's interior;
/// - shadows: the blurred value per pixel (`ShadowKernels`).
/// The target may be a group's layer: a buffer of `width`-pixel rows holding
/// target pixels from `origin` on (rows and columns stay in target coordinates).
/// Every pixel's bytes depend only on the item and the row, never on the band.
///
/// Generic over the fill rather than switching on its kind per row: the one
/// switch is `PreparedItem.draw`, once per item and band, so the per-row and
/// per-run code is specialized for each fill and makes static calls.
struct RowPainter<F: Fill> {
    private let row: ItemRow
    private var band: F.Band
    private let bounds: PixelBox
    /// `hiddenBy` and `excluded` together, by `x0`: the pixels left alone, and the rows they touch.
    private let skipped: [PixelBox]
    private let skippedRows: Range<Int>
    private let hiddenByRows: RowHider?

    /// Nil when the fill has nothing to draw in this band.
    init?(
        _ item: PreparedItem, _ fill: F, target: UnsafeMutablePointer<UInt8>, width: Int, origin: (x: Int, y: Int),
        scratch: RowScratch
    ) {
        guard let band = fill.band(columns: item.bounds.x0 ..< item.bounds.x1, scratch: scratch) else { return nil }
        self.band = band
        row = ItemRow(item, target: target, width: width, origin: origin, scratch: scratch)
        bounds = item.bounds
        skipped = item.excluded.isEmpty ? item.hiddenBy : (item.hiddenBy + item.excluded).sorted { $0.x0 < $1.x0 }
        let top = skipped.lazy.map(\.y0).min() ?? 0
        skippedRows = top ..< max(top, skipped.lazy.map(\.y1).max() ?? 0)
        hiddenByRows = item.hiddenByRows
        scratch.steady = item.steady ?? .none
        scratch.steadyAlphaReady = false
    }

    mutating func drawRow(_ y: Int) {
        var x0: Int, x1: Int
        if row.steady.contains(y) {
            (x0, x1) = (row.steady.lower, row.steady.upper)
        } else {
            (x0, x1) = CoverageShape.span(row: y, of: row.shape, clips: row.clips, within: bounds)
            guard x0 < x1 else { return }
        }
        if skippedRows.contains(y) {
            drawOutside(y, x0, x1)
        } else if let hider = hiddenByRows, let h = hider.span(y), h.lower < x1, x0 < h.upper {
            drawAround(y, x0, x1, hidden: h)
        } else {
            F.drawRun(&band, y: y, lower: x0, upper: x1, row)
        }
    }

    /// Draws the pixels of `x0 ..< x1` on row `y` left and right of the `hidden` ones (which overlap them).
    @inline(__always)
    private mutating func drawAround(_ y: Int, _ x0: Int, _ x1: Int, hidden h: (lower: Int, upper: Int)) {
        if x0 < h.lower { F.drawRun(&band, y: y, lower: x0, upper: h.lower, row) }
        if h.upper < x1 { F.drawRun(&band, y: y, lower: h.upper, upper: x1, row) }
    }

    /// Draws the pixels of `x0 ..< x1` on row `y` outside every skipped box (and `hiddenByRows`' span),
    /// left to right: one sweep over the boxes in `x0` order, each gap between them one run.
    private mutating func drawOutside(_ y: Int, _ x0: Int, _ x1: Int) {
        let rowHidden = hiddenByRows?.span(y).map { PixelBox(x0: $0.lower, y0: y, x1: $0.upper, y1: y + 1) }
        guard let rowHidden else {
            var cursor = x0
            for box in skipped where box.y0 <= y && y < box.y1 && box.x1 > cursor && box.x0 < x1 {
                if box.x0 > cursor { F.drawRun(&band, y: y, lower: cursor, upper: box.x0, row) }
                cursor = box.x1
                if cursor >= x1 { return }
            }
            F.drawRun(&band, y: y, lower: cursor, upper: x1, row)
            return
        }
        // A rotated hider's span besides them (rare): a scan per run.
        var cursor = x0
        while cursor < x1 {
            var coveredTo = cursor
            var next = x1
            func look(_ box: PixelBox) {
                guard box.y0 <= y, y < box.y1, box.x1 > cursor, box.x0 < x1 else { return }
                if box.x0 <= cursor { coveredTo = max(coveredTo, box.x1) } else { next = min(next, box.x0) }
            }
            look(rowHidden)
            for box in skipped { look(box) }
            if coveredTo > cursor {
                cursor = coveredTo
            } else {
                F.drawRun(&band, y: y, lower: cursor, upper: next, row)
                cursor = next
            }
        }
    }
}

/// What every fill's row drawing shares: the item's geometry and opacity, the
/// rows drawn into and the band's scratch rows (coverage, alpha; indexed by
/// absolute target x).
struct ItemRow {
    /// Where coverage can be non-zero (a shadow's extent, for a shadow).
    let shape: CoverageShape
    let clips: [CoverageShape]
    let opacity: Float
    let opacityByte: UInt8
    let scratch: RowScratch
    /// The item's last row (its bounds), so that a row ahead stays inside the buffer drawn into.
    private let lastRow: Int
    private let target: UnsafeMutablePointer<UInt8>
    private let width: Int
    private let originX: Int, originY: Int

    init(
        _ item: PreparedItem, target: UnsafeMutablePointer<UInt8>, width: Int, origin: (x: Int, y: Int),
        scratch: RowScratch
    ) {
        shape = item.shape
        clips = item.clips
        opacity = item.opacity
        opacityByte = item.opacityByte
        lastRow = item.bounds.y1 - 1
        self.scratch = scratch
        self.target = target
        self.width = width
        originX = origin.x
        originY = origin.y
    }

    /// The item's steady rows (`SteadyRows.none` when it has none). Kept in
    /// the scratch, not here: a larger `ItemRow` was copied for every run.
    @inline(__always)
    var steady: SteadyRows { scratch.steady }

    /// The row to prefetch while row `y` is drawn (layer composites, colour blends): the one the
    /// band draws two rows on, as for texel rows (benchmarks/RESULTS.md), or the item's last.
    @inline(__always)
    func rowAhead(_ y: Int) -> Int { min(Rasterizer.rowAhead(y, by: 2, split: scratch.split), lastRow) }

    /// Target pixel `(x, y)` (target coordinates) in the buffer drawn into.
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
        target + ((y - originY) * width + (x - originX)) * 4
    }

    /// The pixels of `lower ..< upper` on row `y` where shape and every clip
    /// cover exactly 1, as `(f0, f1)`; `(upper, upper)` when there are none.
    @inline(__always)
    func interior(_ y: Int, _ lower: Int, _ upper: Int) -> (Int, Int) {
        if steady.contains(y) { return steady.interior(lower, upper) }
        var (f0, f1) = CoverageShape.fullSpan(row: y, of: shape, clips: clips)
        f0 = max(f0, lower)
        f1 = min(f1, upper)
        return f0 < f1 ? (f0, f1) : (upper, upper)
    }

    /// The shape's coverage of pixels `lower ..< upper` on row `y`, into `scratch.coverage`.
    @inline(__always)
    func shapeCoverage(_ y: Int, _ lower: Int, _ upper: Int) {
        CoverageKernels.coverageRow(shape, y: y, x0: lower, count: upper - lower, into: scratch.coverage + lower)
    }

    /// For coverage already in `scratch.coverage[lower ..< upper]`: clips
    /// multiplied in, times the opacity, quantized into `scratch.alpha`; returns
    /// the pixels with non-zero alpha (empty when `lower >= upper`).
    func alphaRun(_ y: Int, _ lower: Int, _ upper: Int) -> (lower: Int, upper: Int) {
        let n = upper - lower
        let coverage = scratch.coverage + lower
        for clip in clips {
            CoverageKernels.coverageRow(clip, y: y, x0: lower, count: n, into: scratch.clipCoverage + lower)
            CoverageKernels.multiply(coverage, by: scratch.clipCoverage + lower, count: n)
        }
        let live = CoverageKernels.quantize(coverage, opacity: opacity, count: n, into: scratch.alpha + lower)
        return (lower + live.lower, lower + live.upper)
    }

    /// The alpha of pixels `lower ..< upper` of an edge run on row `y` and the
    /// pixels of it that are non-zero, as `alphaRun` after `shapeCoverage`
    /// gives them: on a steady row from the item's edge alpha, worked out on
    /// the first steady row the band draws (`scratch.steadyAlpha`), else computed.
    @inline(__always)
    func edgeAlpha(_ y: Int, _ lower: Int, _ upper: Int) -> (alpha: UnsafeMutablePointer<UInt8>, lower: Int, upper: Int) {
        guard steady.contains(y) else {
            shapeCoverage(y, lower, upper)
            let live = alphaRun(y, lower, upper)
            return (scratch.alpha, live.lower, live.upper)
        }
        let alpha = scratch.steadyAlpha
        if !scratch.steadyAlphaReady {
            func keep(_ a: Int, _ b: Int) {
                guard a < b else { return }
                shapeCoverage(y, a, b)
                _ = alphaRun(y, a, b)
                (alpha + a).update(from: scratch.alpha + a, count: b - a)
            }
            keep(steady.lower, steady.interiorLower)
            keep(steady.interiorUpper, steady.upper)
            scratch.steadyAlphaReady = true
        }
        let live = CoverageKernels.nonZero(alpha, lower, upper)
        return (alpha, live.lower, live.upper)
    }

    /// Source-over of one premultiplied colour with the alpha of coverage
    /// already in `scratch.coverage[lower ..< upper]` (`alphaRun`).
    @inline(__always)
    func blendColor(_ color: SIMD4<UInt8>, _ y: Int, _ lower: Int, _ upper: Int) {
        let live = alphaRun(y, lower, upper)
        guard live.lower < live.upper else { return }
        BlendKernels.sourceOverSolid(
            dst: pixel(live.lower, y), color: color, alpha: UnsafePointer(scratch.alpha + live.lower),
            count: live.upper - live.lower, prefetching: UnsafePointer(pixel(live.lower, rowAhead(y))))
    }
}
