import Primitives
import FramePlan

/// `.shadow`: the item's shape blurred (`ShadowShape`, evaluated per pixel by
/// `ShadowKernels`) in one premultiplied colour. The item covers the blur's
/// extent (`DrawItem.paintRect`, the plan's one definition of how far a paint
/// reaches), not its shape. Axis-aligned shadows tabulate their horizontal
/// factor per band (`ShadowKernels.prepareColumns`), so most pixels cost one
/// multiply.
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
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard shadow.isAxisAligned else { return Band(color: color, shadow: shadow, columns: nil) }
        ShadowKernels.prepareColumns(
            shadow, x0: columns.lowerBound, count: columns.count,
            into: scratch.shadowColumns + columns.lowerBound)
        return Band(color: color, shadow: shadow, columns: UnsafePointer(scratch.shadowColumns))
    }

    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        ShadowKernels.shadowRow(
            band.shadow, y: y, x0: lower, count: upper - lower, columns: band.columns,
            into: row.scratch.coverage + lower)
        row.blendColor(band.color, y, lower, upper)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        (shadow.referenceValue(x: x, y: y), color)
    }
}
