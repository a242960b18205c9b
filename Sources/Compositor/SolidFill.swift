import Primitives
import FramePlan

/// `.solid`: one premultiplied colour inside the shape. The interior is a
/// constant-alpha fill of the colour (a store when it is opaque at opacity 1).
struct SolidFill: CoverageFill {
    /// Premultiplied RGBA8, alpha above 0.
    let color: SIMD4<UInt8>

    /// Nil when the colour is fully transparent (or the geometry draws nothing).
    static func prepare(_ item: DrawItem, color: RGBAColor, target: PixelBox) -> PreparedItem? {
        let premultiplied = Compositor.premultipliedPixel(color)
        guard premultiplied.w > 0 else { return nil }
        return PreparedItem(item, SolidFill(color: premultiplied), target: target)
    }

    var prepared: PreparedFill { .solid(self) }
    var paintsOpaque: Bool { color.w == 255 }

    func band(columns: Range<Int>, scratch: RowScratch) -> SIMD4<UInt8>? { color }

    /// The interior of a large solid (a screen's background, a card's in its layer) writes rows
    /// nothing has touched since the last frame: the row ahead is prefetched.
    @inline(__always)
    static func blendInterior(
        _ color: inout SIMD4<UInt8>, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UInt8, ahead: RowAhead
    ) {
        BlendKernels.sourceOverSolidConstant(
            dst: dst, color: color, alpha: alpha, count: count, prefetching: UnsafePointer(ahead.dst))
    }

    @inline(__always)
    static func blend(
        _ color: inout SIMD4<UInt8>, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>
    ) {
        BlendKernels.sourceOverSolid(dst: dst, color: color, alpha: alpha, count: count)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        (CoverageKernels.referenceCoverage(item.shape, x: x, y: y), color)
    }
}
