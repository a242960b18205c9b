import Primitives
import FramePlan

/// `.shadow`: the item's shape blurred (`ShadowShape`, evaluated per pixel by
/// `ShadowKernels`) in one premultiplied colour. The item covers the blur's
/// extent (`DrawItem.paintRect`, the plan's one definition of how far a paint
/// reaches), not its shape. Axis-aligned shadows tabulate their horizontal
/// factor per band (`ShadowKernels.prepareColumns`), so most pixels cost one
/// multiply; near the corners, blurred enough, they interpolate the corner
/// correction from every other pixel of every other row (`ShadowCornerGrid`).
struct ShadowFill: Fill {
    let color: SIMD4<UInt8>
    let shadow: ShadowShape

    /// Nil for a transparent colour or a NaN sigma. A shadow that is not
    /// blurred (sigma 0, or unusable: `ShadowBlur`) is its hard shape: a `SolidFill`.
    static func prepare(_ item: DrawItem, color: RGBAColor, sigma: Double, target: PixelBox) -> PreparedItem? {
        let premultiplied = Compositor.premultipliedPixel(color)
        guard premultiplied.w > 0, !sigma.isNaN else { return nil }
        guard let shadow = ShadowShape(transform: item.transform, shape: item.shape, sigma: sigma)
        else { return PreparedItem(item, SolidFill(color: premultiplied), target: target) }
        return PreparedItem(item, ShadowFill(color: premultiplied, shadow: shadow), shape: shadow.extent, target: target)
    }

    var prepared: PreparedFill { .shadow(self) }
    var paintsOpaque: Bool { false }

    struct Band {
        let color: SIMD4<UInt8>
        let shadow: ShadowShape
        /// Axis-aligned shadows: the horizontal factor per absolute target column.
        let columns: UnsafePointer<Float>?
        /// Blurred enough: the corners' corrections, interpolated.
        var grid: ShadowCornerGrid?
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard shadow.isAxisAligned else { return Band(color: color, shadow: shadow, columns: nil) }
        let factors = Self.columnFactors(shadow, columns: columns, scratch: scratch)
        return Band(
            color: color, shadow: shadow, columns: factors,
            grid: ShadowCornerGrid(shadow, columns: columns, columnFactors: factors, scratch: scratch))
    }

    /// An axis-aligned shadow's horizontal factors (`ShadowKernels.prepareColumns`, absolute x) for the
    /// band's `columns`, from the even column at or before the first to two past the last: the corner
    /// grid's points bracket the band's columns.
    static func columnFactors(_ shadow: ShadowShape, columns: Range<Int>, scratch: RowScratch) -> UnsafePointer<Float> {
        let first = columns.lowerBound & ~1
        ShadowKernels.prepareColumns(shadow, x0: first, count: columns.upperBound + 2 - first, into: scratch.shadowColumns + first)
        return UnsafePointer(scratch.shadowColumns)
    }

    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        ShadowKernels.shadowRow(
            band.shadow, y: y, x0: lower, count: upper - lower, columns: band.columns,
            corrections: band.grid?.corrections(row: y, lower: lower, upper: upper), into: row.scratch.coverage + lower)
        row.blendColor(band.color, y, lower, upper)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        (shadow.referenceValue(x: x, y: y), color)
    }
}
