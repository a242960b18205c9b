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
        let w = 1920, rows = 1080
        let scratch = RowScratch(width: w)
        var dst = [UInt8](repeating: 7, count: w * 4)
        var rng = SeededGenerator(seed: 2)
        let image = randomBitmap(width: 1170, height: 2532, using: &rng)
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
        Self.nsPerPixel("blend solid SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverSolid(dst: &dst, color: SIMD4(200, 100, 50, 255), alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend solid scalar", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverSolidReference(dst: &dst, color: SIMD4(200, 100, 50, 255), alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend row SIMD", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOver(dst: &dst, src: scratch.source, alpha: scratch.alpha, count: w) }
        }
        Self.nsPerPixel("blend row scalar", pixels: w * rows) {
            for _ in 0 ..< rows { BlendKernels.sourceOverReference(dst: &dst, src: scratch.source, alpha: scratch.alpha, count: w) }
        }
        let stretch = TexelMapping(transform: .identity, rect: screen.rect, sourceWidth: 1170, sourceHeight: 2532)!
        let table = scratch.columnTable(x0: 0)
        Sampling.prepareColumns(stretch, x0: 0, count: w, into: table)
        let small = randomBitmap(width: 1170, height: 500, using: &rng)
        let smallStretch = TexelMapping(transform: .identity, rect: screen.rect, sourceWidth: 1170, sourceHeight: 500)!
        let rotatedMap = TexelMapping(transform: rotation(degrees: 5, about: 960, 540), rect: screen.rect,
                                      sourceWidth: 1170, sourceHeight: 2532)!
        image.pixels.withUnsafeBufferPointer { src in
            Self.nsPerPixel("sample bilinear stretched, per pixel", pixels: w * rows) {
                for y in 0 ..< rows { Sampling.sampleRow(stretch, source: src.baseAddress!, y: y, x0: 0, count: w, into: scratch.source) }
            }
            Self.nsPerPixel("sample bilinear stretched, column table", pixels: w * rows) {
                for y in 0 ..< rows {
                    Sampling.sampleRow(stretch, source: src.baseAddress!, y: y, x0: 0, count: w, into: scratch.source, columns: table)
                }
            }
            Self.nsPerPixel("sample bilinear rotated 5deg", pixels: w * rows) {
                for y in 0 ..< rows {
                    Sampling.sampleRow(rotatedMap, source: src.baseAddress!, y: y, x0: 0, count: w, into: scratch.source,
                                       coordinates: scratch.texelCoordinates)
                }
            }
        }
        small.pixels.withUnsafeBufferPointer { src in
            Sampling.prepareColumns(smallStretch, x0: 0, count: w, into: table)
            Self.nsPerPixel("sample bilinear 1170x500 source (magnify), column table", pixels: w * rows) {
                for y in 0 ..< rows {
                    Sampling.sampleRow(smallStretch, source: src.baseAddress!, y: y, x0: 0, count: w, into: scratch.source, columns: table)
                }
            }
        }
    }
}
