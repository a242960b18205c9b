/// A paint kind in kernel form: one type per kind (`SolidFill`, `BitmapFill`,
/// `BorderFill`, `ShadowFill`, `GradientFill`, `LayerFill`), each holding everything it needs
/// and owning its preparation (a static `prepare` called from
/// `PreparedItem.append`), its opacity rule (`paintsOpaque`), its per-band
/// setup and its row drawing. `PreparedItem.fill` holds one as a case of
/// `PreparedFill`; `PreparedItem.draw` is the one switch from that case to the
/// fill's code, once per item and band, below which everything is specialized
/// for the fill: no dispatch per row or run, and (since `Band` holds only plain
/// values and raw pointers) no reference counting either.
///
/// The row driver (`RowPainter`) hands a fill runs of pixels that the item
/// can touch (shape span, clips, bounds, minus what a later opaque item
/// hides); `ItemRow` offers what drawing them shares: the interior span,
/// coverage, clips and quantization to 8-bit alpha, the target's pixels.
protocol Fill: Sendable {
    /// What drawing needs inside one band (a colour, a sampler over the band's
    /// scratch rows, a layer's pixels): built once per item and band.
    associatedtype Band

    /// This fill as `PreparedItem.fill`.
    var prepared: PreparedFill { get }

    /// Every pixel it paints at full coverage and opacity 1 is exactly opaque,
    /// so the item may hide what is under it (`PreparedItem.opaqueBox`, `Occlusion`).
    var paintsOpaque: Bool { get }

    /// The band's drawing state; `columns` are the target columns the item can
    /// touch. Nil when there is nothing to draw in this band.
    func band(columns: Range<Int>, scratch: RowScratch) -> Band?

    /// Draws pixels `lower ..< upper` (non-empty) of row `y`.
    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow)

    /// Scalar reference for the pipeline tests: coverage (0...1, before clips
    /// and opacity) and premultiplied source of pixel `(x, y)`, from the Double
    /// formulas without spans or fast paths. Nil for a fill that cannot be
    /// evaluated alone (a group's layer: the tests draw groups themselves).
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)?
}

/// A fill whose alpha is the item's coverage: a colour, or a source of pixels,
/// laid inside the shape (solid, bitmap, gradient, a group's layer; text
/// masks would be too). Each row is cut into the interior run, where shape and
/// clips cover exactly 1 and one constant alpha (the opacity) applies, and the
/// edge runs around it (per-pixel coverage); the fill only blends.
/// A later row `y` of an item and, in the buffer drawn into, its pixel at the run's first column (`ItemRow.rowAhead`).
typealias RowAhead = (y: Int, dst: UnsafeMutablePointer<UInt8>)

protocol CoverageFill: Fill {
    /// Work that every run of row `y` shares (a bitmap's vertical texel blend);
    /// pixels `lower ..< upper` will be drawn. Nothing by default.
    static func beginRow(_ band: inout Band, y: Int, lower: Int, upper: Int)

    /// Source-over of pixels `x ..< x + count` of row `y` onto `dst` at one constant `alpha`.
    /// `ahead`: a row of the item the band draws later, for fills whose rows come from memory to
    /// prefetch (`LayerFill`, `SolidFill`); a hint the others ignore.
    static func blendInterior(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, ahead: RowAhead)

    /// Source-over of pixels `x ..< x + count` of row `y` onto `dst` with per-pixel `alpha`.
    static func blend(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>)
}

extension CoverageFill {
    @inline(__always)
    static func beginRow(_ band: inout Band, y: Int, lower: Int, upper: Int) {}

    @inline(__always)
    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        beginRow(&band, y: y, lower: lower, upper: upper)
        let (f0, f1) = row.interior(y, lower, upper)
        drawEdge(&band, y, lower, f0, row)
        if f0 < f1 {
            let later = row.rowAhead(y)
            blendInterior(
                &band, y: y, x: f0, count: f1 - f0, dst: row.pixel(f0, y), alpha: row.opacityByte,
                ahead: (later, row.pixel(f0, later)))
        }
        drawEdge(&band, y, f1, upper, row)
    }

    /// Per-pixel coverage of shape and clips over `lower ..< upper`, then the blend.
    @inline(__always)
    private static func drawEdge(_ band: inout Band, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow) {
        guard lower < upper else { return }
        let live = row.edgeAlpha(y, lower, upper)
        guard live.lower < live.upper else { return }
        blend(
            &band, y: y, x: live.lower, count: live.upper - live.lower, dst: row.pixel(live.lower, y),
            alpha: UnsafePointer(live.alpha + live.lower))
    }
}
