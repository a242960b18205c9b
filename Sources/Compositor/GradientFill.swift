import Primitives
import FramePlan

/// `.gradient`: CAGradientLayer's axial, radial or conic gradient inside the
/// shape. Each run's colours are evaluated into the band's scratch source row
/// (`GradientKernels.shadeRow`, eight pixels a step), then blended like a
/// bitmap's samples: constant alpha over the interior (a store where the
/// gradient is opaque at opacity 1), per-pixel coverage on the edges.
struct GradientFill: CoverageFill {
    let geometry: GradientGeometry
    let ramp: GradientRamp

    /// Nil when no colour is visible or the geometry draws nothing.
    static func prepare(_ item: DrawItem, _ paint: GradientPaint, target: PixelBox) -> PreparedItem? {
        guard let ramp = GradientRamp(paint),
            let geometry = GradientGeometry(paint, transform: item.transform, rect: item.shape.rect)
        else { return nil }
        return PreparedItem(item, GradientFill(geometry: geometry, ramp: ramp), target: target)
    }

    var prepared: PreparedFill { .gradient(self) }
    var paintsOpaque: Bool { ramp.isOpaque }

    struct Band {
        let geometry: GradientGeometry
        let stops: UnsafePointer<Float>
        let segments: Int
        let source: UnsafeMutablePointer<UInt8>
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        Band(geometry: geometry, stops: ramp.table, segments: ramp.segmentCount, source: scratch.source)
    }

    @inline(__always)
    private static func shade(_ band: Band, y: Int, x: Int, count: Int) -> UnsafePointer<UInt8> {
        GradientKernels.shadeRow(
            band.geometry, stops: band.stops, segments: band.segments, y: y, x0: x, count: count, into: band.source)
        return UnsafePointer(band.source)
    }

    @inline(__always)
    static func blendInterior(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, ahead _: RowAhead
    ) {
        BlendKernels.sourceOverConstant(dst: dst, src: shade(band, y: y, x: x, count: count), alpha: alpha, count: count)
    }

    @inline(__always)
    static func blend(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>
    ) {
        BlendKernels.sourceOver(dst: dst, src: shade(band, y: y, x: x, count: count), alpha: alpha, count: count)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        (CoverageKernels.referenceCoverage(item.shape, x: x, y: y), GradientKernels.referencePixel(geometry, ramp, x: x, y: y))
    }
}
