#if canImport(Glibc)
import Glibc
#endif
import Testing
import Primitives
import FramePlan
@testable import Compositor

/// Per-kernel timings (ns per pixel over 1920-px rows); skipped unless `SHIFTRENDER_BENCH` is set.
@Suite("KernelBenchmark", .enabled(if: getenv("SHIFTRENDER_BENCH") != nil), .serialized)
struct KernelBenchmark {
    static func nsPerPixel(_ label: String, pixels: Int, _ body: () -> Void) {
        var best = Double.infinity
        for _ in 0 ..< 5 {
            let start = ContinuousClock.now
            body()
            let d = ContinuousClock.now - start
            best = min(best, (Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) * 1e-9) / Double(pixels))
        }
        print("kernel \(label): \(Double(Int(best * 100)) / 100) ns/px")
    }

    @Test func kernels() {
        let w = 1920
        let rows = 1080
        let scratch = RowScratch(width: w)
        var dst = [UInt8](repeating: 7, count: w * 4)
        var rng = SeededGenerator(seed: 2)
        let screen = RoundedRect(rect: Rect(x: 0, y: 0, width: 1920, height: 1080), cornerRadius: 40)
        let aligned = CoverageShape(transform: .identity, shape: screen)!
        let rotated = CoverageShape(transform: rotation(degrees: 5, about: 960, 540), shape: screen)!
        Self.nsPerPixel("coverage axis-aligned", pixels: w * rows) {
            for y in 0 ..< rows { CoverageKernels.coverageRow(aligned, y: y, x0: 0, count: w, into: scratch.coverage) }
        }
        Self.nsPerPixel("coverage rotated", pixels: w * rows) {
            for y in 0 ..< rows { CoverageKernels.coverageRow(rotated, y: y, x0: 0, count: w, into: scratch.coverage) }
        }
        Self.nsPerPixel("quantize", pixels: w * rows) {
            for _ in 0 ..< rows { _ = CoverageKernels.quantize(scratch.coverage, opacity: 0.9, count: w, into: scratch.alpha) }
        }
        scratch.alpha.initialize(repeating: 200, count: w)
        let src = randomBitmap(width: w, height: 1, using: &rng).pixels
        let opaqueSrc = randomOpaqueBitmap(width: w, height: 1, using: &rng).pixels
        let color = SIMD4<UInt8>(200, 100, 50, 255)
        Self.nsPerPixel("blend solid, per-pixel alpha, SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverSolid(dst: &dst, color: color, alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend solid, per-pixel alpha, scalar", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverSolidReference(dst: &dst, color: color, alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend solid, constant alpha 200, SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverSolidConstant(dst: &dst, color: color, alpha: 200, count: w) }
        }
        Self.nsPerPixel("blend row, per-pixel alpha, SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOver(dst: &dst, src: src, alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend row, per-pixel alpha, scalar", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverReference(dst: &dst, src: src, alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend row, constant alpha 200, SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverConstant(dst: &dst, src: src, alpha: 200, count: w) }
        }
        Self.nsPerPixel("blend row, alpha 255, opaque source, SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverConstant(dst: &dst, src: opaqueSrc, alpha: 255, count: w) }
        }
        let image = MipChain(randomBitmap(width: 1170, height: 2532, using: &rng))
        let small = MipChain(randomBitmap(width: 1170, height: 500, using: &rng))
        let full = Rect(x: 0, y: 0, width: 1920, height: 1080)
        func sample(_ label: String, _ chain: MipChain, _ t: AffineTransform2D) {
            let (m, texture) = TexelMapping.forChain(chain, transform: t, rect: full)!
            var sampler = BitmapSampler(mapping: m, texture: texture, scratch: scratch, columns: 0 ..< w)
            Self.nsPerPixel(label, pixels: w * rows) {
                for y in 0 ..< rows {
                    sampler.beginRow(y, lower: 0, upper: w)
                    _ = sampler.sample(y: y, x: 0, count: w)
                }
            }
        }
        sample("sample 1170x2532 stretched to 1920x1080 (mip level 0,1)", image, .identity)
        sample("sample 1170x500 magnified to 1920x1080", small, .identity)
        sample("sample 1170x2532 rotated 5deg", image, rotation(degrees: 5, about: 960, 540))
        let shadow = ShadowShape(
            transform: .identity,
            shape: RoundedRect(
                rect: Rect(x: 300, y: 300, width: 1300, height: 500),
                cornerRadius: 40), sigma: 20)!
        ShadowKernels.prepareColumns(shadow, x0: 0, count: w, into: scratch.shadowColumns)
        Self.nsPerPixel("shadow axis-aligned, outside corner zones", pixels: w * 100) {
            for y in 500 ..< 600 {
                ShadowKernels.shadowRow(shadow, y: y, x0: 0, count: w, columns: scratch.shadowColumns, into: scratch.coverage)
            }
        }
        Self.nsPerPixel("shadow axis-aligned, corner rows", pixels: w * 100) {
            for y in 230 ..< 330 {
                ShadowKernels.shadowRow(shadow, y: y, x0: 0, count: w, columns: scratch.shadowColumns, into: scratch.coverage)
            }
        }
        let tilted = ShadowShape(
            transform: rotation(degrees: 5, about: 960, 540),
            shape: RoundedRect(rect: Rect(x: 300, y: 300, width: 1300, height: 500), cornerRadius: 40), sigma: 20)!
        Self.nsPerPixel("shadow rotated, corner rows", pixels: w * 100) {
            for y in 230 ..< 330 { ShadowKernels.shadowRow(tilted, y: y, x0: 0, count: w, columns: nil, into: scratch.coverage) }
        }
        // Backdrop blur of a whole 1920 x 1080 frame (both phases, one thread), ns per output pixel:
        // constant in sigma up to the margin's extra reads.
        let backdrop = randomOpaqueBitmap(width: w, height: rows, using: &rng)
        for sigma in [4.0, 30] {
            let all = PixelBox(x0: 0, y0: 0, x1: w, y1: rows)
            let region = BackdropRegion(bounds: all, target: all, sigma: sigma)
            let buffer = LayerBuffer(capacity: region.byteCount)
            region.attach(buffer)
            Self.nsPerPixel("backdrop blur sigma \(Int(sigma)) px, both axes", pixels: w * rows) {
                backdrop.pixels.withUnsafeBufferPointer { t in
                    for g in 0 ..< region.rowGroups { region.blurRows(group: g, target: t.baseAddress!, width: w, scratch: scratch) }
                }
                for g in 0 ..< region.columnGroups { region.blurColumns(group: g, scratch: scratch) }
            }
            region.attach(nil)
        }
        let frame = randomBitmap(width: w, height: rows, using: &rng)
        var out: [UInt8] = []
        Self.nsPerPixel("unpremultiply SIMD", pixels: w * rows) { frame.unpremultiply(into: &out) }
        Self.nsPerPixel("unpremultiply scalar reference", pixels: w * rows) {
            frame.pixels.withUnsafeBytes { s in
                out.withUnsafeMutableBytes { d in Unpremultiply.referenceRow(s.baseAddress!, into: d.baseAddress!, count: w * rows) }
            }
        }
    }

    /// The gradient kernel (premultiplied colours of 1920-px rows, before any
    /// blend) per kind and stop count, against its scalar reference.
    @Test func gradients() {
        let w = 1920
        let rows = 270
        let scratch = RowScratch(width: w)
        let full = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let colours = [
            RGBAColor(red: 1, green: 0.37, blue: 0.43), RGBAColor(red: 1, green: 0.76, blue: 0.44),
            RGBAColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.5), .white, .black,
        ]
        for kind in GradientPaint.Kind.allCases {
            for stops in [2, 5] {
                let paint = GradientPaint(
                    kind: kind, colors: Array(colours.prefix(stops)),
                    locations: (0 ..< stops).map { Double($0) / Double(stops - 1) },
                    start: Point(x: 700, y: 400), end: Point(x: 1900, y: 1000))
                let g = GradientGeometry(paint, transform: rotation(degrees: 5, about: 960, 540), rect: full)!
                let ramp = GradientRamp(paint)!
                Self.nsPerPixel("gradient \(kind) \(stops) stops, SIMD", pixels: w * rows) {
                    for y in 0 ..< rows {
                        GradientKernels.shadeRow(
                            g, stops: ramp.table, segments: ramp.segmentCount, y: y, x0: 0, count: w, into: scratch.source)
                    }
                }
                Self.nsPerPixel("gradient \(kind) \(stops) stops, scalar reference", pixels: w * rows) {
                    for y in 0 ..< rows {
                        for x in 0 ..< w {
                            let p = GradientKernels.referencePixel(g, ramp, x: x, y: y)
                            scratch.source[4 * x] = p.x &+ p.w
                        }
                    }
                }
            }
        }
    }
}
