import Primitives
import FramePlan

/// `.border`: the ring between the item's shape and `inner` (the shape inset
/// by the border width), in one premultiplied colour. Coverage is the outer
/// shape's minus the inner one's; rows skip the inner shape's interior
/// (`fullSpan`), where the ring is empty.
struct BorderFill: Fill {
    let color: SIMD4<UInt8>
    let inner: CoverageShape

    /// Nil for a transparent colour or a width that is not positive (NaN too).
    /// A border whose inset leaves nothing covers the whole shape: a `SolidFill`.
    static func prepare(_ item: DrawItem, width: Double, color: RGBAColor, target: PixelBox) -> PreparedItem? {
        let premultiplied = Compositor.premultipliedPixel(color)
        guard premultiplied.w > 0, width > 0 else { return nil }
        let r = item.shape.rect
        let insetRect = Rect(x: r.minX + width, y: r.minY + width, width: r.width - 2 * width, height: r.height - 2 * width)
        let insetRadius = max(0, (item.shape.cornerRadius.isNaN ? 0 : item.shape.cornerRadius) - width)
        guard let inner = CoverageShape(transform: item.transform, shape: RoundedRect(rect: insetRect, cornerRadius: insetRadius))
        else { return PreparedItem(item, SolidFill(color: premultiplied), target: target) }
        return PreparedItem(item, BorderFill(color: premultiplied, inner: inner), target: target)
    }

    var prepared: PreparedFill { .border(self) }
    var paintsOpaque: Bool { false }

    func band(columns: Range<Int>, scratch: RowScratch) -> BorderFill? { self }

    static func drawRun(_ border: inout BorderFill, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        let hole = border.inner.fullSpan(row: y)
        if hole.lower < hole.upper && hole.lower < upper && lower < hole.upper {
            drawRing(border, y, lower, min(upper, hole.lower), row)
            drawRing(border, y, max(lower, hole.upper), upper, row)
        } else {
            drawRing(border, y, lower, upper, row)
        }
    }

    /// Outer minus inner coverage over `lower ..< upper`, then the colour.
    @inline(__always)
    private static func drawRing(_ border: BorderFill, _ y: Int, _ lower: Int, _ upper: Int, _ row: ItemRow) {
        guard lower < upper else { return }
        let coverage = row.scratch.coverage
        let innerCoverage = row.scratch.clipCoverage
        row.shapeCoverage(y, lower, upper)
        let s = border.inner.span(row: y)
        let a = max(lower, s.lower)
        let b = min(upper, s.upper)
        if a < b {
            CoverageKernels.coverageRow(border.inner, y: y, x0: a, count: b - a, into: innerCoverage + a)
            for x in a ..< b { coverage[x] = max(0, coverage[x] - innerCoverage[x]) }
        }
        row.blendColor(border.color, y, lower, upper)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        (
            max(0, CoverageKernels.referenceCoverage(item.shape, x: x, y: y) - CoverageKernels.referenceCoverage(inner, x: x, y: y)),
            color
        )
    }
}
