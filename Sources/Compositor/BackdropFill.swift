import Primitives
import FramePlan

/// `.backdropBlur` (UIVisualEffectView's blur): the target as every earlier
/// item left it, blurred (`GaussianKernels`), *replaces* the target inside the
/// shape and clips in proportion to coverage x opacity
/// (`dst = blurred * a + dst * (1 - a)`, `BlendKernels.replace`).
///
/// It reads pixels other bands draw, so it is a pass boundary
/// (`Rasterizer.drawBanded`): every earlier item is finished across all
/// bands, then its `BackdropRegion` is blurred horizontally (bands of eight
/// rows), then vertically (bands of eight columns), each phase behind a
/// barrier, and only then is the item composited (banded by rows, like any
/// item) before the items after it. Each output pixel depends only on the
/// target and its own coordinates, so every thread count gives the same bytes.
///
/// What it reads (documented in `docs/frame-plan.md`): the item's pixel
/// bounds grown by `ceil(3 sigma)` pixels on every side, within the target.
/// Beyond that region the blur sees the region's nearest edge pixel: at the
/// target's edges that is clamp-to-edge, as UIKit shows a blur at the
/// screen's edge (no dark fringe); inside the target the kernel's weight
/// beyond 3 sigma is below half a level of 8 bits. Sigma in pixels is the
/// local sigma over the local units per pixel (the geometric mean of the two
/// axes, as `ShadowBlur` has it), capped at `maxPixelSigma`.
/// Draws nothing: sigma not positive or not finite, a transform without a
/// usable scale, inside a group's layer (`PreparedItem.append`: there is no
/// backdrop to read there; UIKit's caveat for ancestors with alpha below 1).
/// Under a projection, or with projected clips, the blur is a
/// `ProjectedBackdropFill` (same region and pass, projected coverage).
struct BackdropFill: CoverageFill {
    let region: BackdropRegion

    /// Pixel sigmas above this are drawn at it: the cost in time is constant per
    /// pixel, but the region read grows by 3 sigma (and a blur this wide is flat).
    static let maxPixelSigma = 256.0

    /// Sigma in target pixels, or nil when the item blurs nothing.
    static func pixelSigma(_ sigma: Double, transform: AffineTransform2D) -> Double? {
        guard sigma > 0, sigma.isFinite, let inverse = transform.inverted else { return nil }
        let localPerPixel = abs(inverse.determinant).squareRoot()
        guard localPerPixel.isFinite, localPerPixel > 0 else { return nil }
        let pixels = min(sigma / localPerPixel, maxPixelSigma)
        return pixels > 0 ? pixels : nil
    }

    static func prepare(_ item: DrawItem, sigma: Double, target: PixelBox) -> PreparedItem? {
        guard let pixels = pixelSigma(sigma, transform: item.transform),
            let (shape, clips, bounds) = PreparedItem.geometry(item, target: target)
        else { return nil }
        let fill = BackdropFill(region: BackdropRegion(bounds: bounds, target: target, sigma: pixels))
        return PreparedItem(
            fill.prepared, shape: shape, clips: clips, opacity: PreparedItem.opacity(of: item), bounds: bounds,
            paintsOpaque: fill.paintsOpaque)
    }

    var prepared: PreparedFill { .backdrop(self) }
    /// Never an occluder: a blur of what is under it need not be opaque, and it is a pass boundary anyway.
    var paintsOpaque: Bool { false }

    /// The blurred region's pixels, in target coordinates.
    typealias Band = BufferRows

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard let pixels = region.pixels else { return nil }
        return Band(pixels: UnsafePointer(pixels), stride: region.stride, x0: region.bounds.x0, y0: region.read.y0)
    }

    @inline(__always)
    static func blendInterior(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, ahead _: RowAhead
    ) {
        BlendKernels.replaceConstant(dst: dst, src: band.pixel(x, y), alpha: alpha, count: count)
    }

    @inline(__always)
    static func blend(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>
    ) {
        BlendKernels.replace(dst: dst, src: band.pixel(x, y), alpha: alpha, count: count)
    }

    /// None alone: the blurred pixels exist only while a frame is drawn (the
    /// pipeline tests blur with `BackdropRegion.reference`).
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? { nil }
}

/// The blurred backdrop of one `BackdropFill`: rows `read.y0 ..< read.y1`,
/// columns `bounds.x0 ..< bounds.x0 + stride`, premultiplied RGBA8 in a
/// pooled buffer (`LayerPool`), in target coordinates. The horizontal phase
/// fills every row of it (the horizontally blurred target); the vertical
/// phase then overwrites rows `bounds.y0 ..< bounds.y1` in place with the
/// final blur, which the composite reads 1:1.
final class BackdropRegion: @unchecked Sendable {
    /// The pixels the item can draw (its `PreparedItem.bounds`).
    let bounds: PixelBox
    /// The target pixels the blur reads: `bounds` grown by `ceil(3 sigma)`, within the target.
    let read: PixelBox
    let box: GaussianKernels.Box
    /// Row length in pixels: the bounds' width rounded up to whole groups of
    /// eight columns (the vertical phase blurs eight columns at a time; the
    /// extra columns are blurred too and never read).
    let stride: Int
    /// Set by `LayerPool` lending before the blur phases, nil outside a draw.
    private(set) var pixels: UnsafeMutablePointer<UInt8>?

    init(bounds: PixelBox, target: PixelBox, sigma: Double) {
        self.bounds = bounds
        let grow = Int((ShadowBlur.cutoff * sigma).rounded(.up))
        read = PixelBox(x0: bounds.x0 - grow, y0: bounds.y0 - grow, x1: bounds.x1 + grow, y1: bounds.y1 + grow)
            .intersection(target)
        box = GaussianKernels.Box(sigma: sigma)
        stride = (bounds.x1 - bounds.x0 + 7) / 8 * 8
    }

    var byteCount: Int { stride * (read.y1 - read.y0) * 4 }
    var rowGroups: Int { (read.y1 - read.y0 + 7) / 8 }
    var columnGroups: Int { stride / 8 }

    func attach(_ buffer: LayerBuffer?) { pixels = buffer?.base }

    /// Positions a line of either phase needs in the scratch (`RowScratch.reserveBlurLines`).
    var linePositions: Int { max(stride, bounds.y1 - bounds.y0) + 2 * box.margin }

    /// Horizontal phase, rows `read.y0 + 8 group ..< + 8` (the last row repeated
    /// in spare lanes, not stored): reads `target`, writes this region.
    func blurRows(group: Int, target: UnsafePointer<UInt8>, width: Int, scratch: RowScratch) {
        guard let pixels else { return }
        let rows = read.y1 - read.y0
        let first = group * 8
        let lanes = min(8, rows - first)
        guard lanes > 0 else { return }
        var offsets = SIMD8<Int>(repeating: 0)
        for k in 0 ..< 8 { offsets[k] = (read.y0 + first + min(k, lanes - 1)) * width }
        let source = GaussianKernels.LineSource(
            pixels: UnsafeRawPointer(target).assumingMemoryBound(to: UInt32.self), offsets: offsets, step: 1,
            start: bounds.x0 - box.margin, lower: read.x0, upper: read.x1)
        scratch.reserveBlurLines(linePositions)
        GaussianKernels.blurLines(box, source, count: stride, scratch.blurLineA, scratch.blurLineB)
        var out = SIMD8<Int>(repeating: 0)
        for k in 0 ..< 8 { out[k] = (first + k) * stride }
        GaussianKernels.store(
            scratch.blurLineB, first: box.margin, count: stride, lanes: lanes,
            to: UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self), offsets: out, step: 1)
    }

    /// Vertical phase, columns `8 group ..< + 8` of the region: reads rows
    /// `read`, writes rows `bounds.y0 ..< bounds.y1` (after reading all it needs).
    func blurColumns(group: Int, scratch: RowScratch) {
        guard let pixels, bounds.y0 < bounds.y1 else { return }
        let words = UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self)
        var offsets = SIMD8<Int>(repeating: 0)
        for k in 0 ..< 8 { offsets[k] = group * 8 + k }
        let source = GaussianKernels.LineSource(
            pixels: UnsafePointer(words), offsets: offsets, step: stride,
            start: bounds.y0 - box.margin - read.y0, lower: 0, upper: read.y1 - read.y0)
        let count = bounds.y1 - bounds.y0
        scratch.reserveBlurLines(linePositions)
        GaussianKernels.blurLines(box, source, count: count, scratch.blurLineA, scratch.blurLineB)
        GaussianKernels.store(
            scratch.blurLineB, first: box.margin, count: count, lanes: 8,
            to: words + (bounds.y0 - read.y0) * stride, offsets: offsets, step: stride)
    }

    /// Scalar reference of both phases (for tests): the blurred backdrop of
    /// `target` (`width x height` RGBA8) at pixels `bounds`, row-major, each
    /// line through `GaussianKernels.referenceLine`.
    func reference(_ target: [UInt8], width: Int) -> [UInt32] {
        func word(_ x: Int, _ y: Int) -> UInt32 {
            let i = (y * width + x) * 4
            return UInt32(target[i]) | UInt32(target[i + 1]) << 8 | UInt32(target[i + 2]) << 16 | UInt32(target[i + 3]) << 24
        }
        let margin = box.margin
        let w = bounds.x1 - bounds.x0
        let h = bounds.y1 - bounds.y0
        guard w > 0, h > 0 else { return [] }
        func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), hi - 1) }
        // Horizontal: every read row, the bounds' columns.
        var horizontal: [[UInt32]] = []
        for y in read.y0 ..< read.y1 {
            let line = (0 ..< w + 2 * margin).map { p in word(clamp(bounds.x0 - margin + p, read.x0, read.x1), y) }
            horizontal.append(GaussianKernels.referenceLine(box, line, count: w))
        }
        var out = [UInt32](repeating: 0, count: w * h)
        for x in 0 ..< w {
            let line = (0 ..< h + 2 * margin).map { p in
                horizontal[clamp(bounds.y0 - margin + p - read.y0, 0, read.y1 - read.y0)][x]
            }
            let column = GaussianKernels.referenceLine(box, line, count: h)
            for y in 0 ..< h { out[y * w + x] = column[y] }
        }
        return out
    }
}
