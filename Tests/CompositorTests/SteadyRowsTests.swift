import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Steady rows: span, interior and edge alpha computed once")
struct SteadyRowsTests {
    /// An axis-aligned rounded rectangle at a random scale and fractional
    /// offset, sometimes thin, sometimes with its rectangle far from the
    /// origin and the transform bringing it back (large translations).
    static func randomShape(using rng: inout SeededGenerator) -> CoverageShape? {
        let (sx, sy) = (Double.random(in: 0.2 ... 3, using: &rng), Double.random(in: 0.2 ... 3, using: &rng))
        let far = Int.random(in: 0 ..< 5, using: &rng) == 0 ? 1e5 : 0
        let t = AffineTransform2D.scale(sx, sy).concatenating(
            .translation(.random(in: -20 ... 120, using: &rng) - far * sx, .random(in: -20 ... 100, using: &rng) - far * sy))
        let w = Double.random(in: 0.3 ... 90, using: &rng)
        let h = [Double.random(in: 0.3 ... 3, using: &rng), .random(in: 3 ... 90, using: &rng)][Int.random(in: 0 ..< 2, using: &rng)]
        let radius = [0, Double.random(in: 0 ... 30, using: &rng), 1000][Int.random(in: 0 ..< 3, using: &rng)]
        let origin = (Double.random(in: -5 ... 5, using: &rng) + far, Double.random(in: -5 ... 5, using: &rng) + far)
        return CoverageShape(transform: t, shape: rect(origin.0, origin.1, w, h, radius: radius))
    }

    @Test("The steady rows of a shape are exactly the rows isSteady accepts, and on them span, full span and coverage never change")
    func steadyRowsAreSteady() {
        var rng = SeededGenerator(seed: 0x57EA_D1)
        var shapesWithSteadyRows = 0
        var coverage = [Float](repeating: 0, count: 400)
        var first = [Float](repeating: 0, count: 400)
        for _ in 0 ..< 400 {
            guard let shape = Self.randomShape(using: &rng) else { continue }
            let box = shape.bounds.intersection(PixelBox(x0: -50, y0: -50, x1: 350, y1: 350))
            guard !box.isEmpty else { continue }
            let rows = box.y0 ..< box.y1
            let accepted = rows.filter { shape.isSteady(row: $0) }
            let found = shape.steadyRows(within: rows)
            #expect(Array(found) == accepted, "bisection \(found) against \(accepted.first ?? 0)...\(accepted.last ?? 0)")
            guard let y0 = accepted.first else { continue }
            shapesWithSteadyRows += 1
            let (x0, n) = (box.x0, box.x1 - box.x0)
            CoverageKernels.coverageRow(shape, y: y0, x0: x0, count: n, into: &first)
            for y in accepted {
                #expect(shape.span(row: y) == shape.span(row: y0))
                #expect(shape.fullSpan(row: y) == shape.fullSpan(row: y0))
                CoverageKernels.coverageRow(shape, y: y, x0: x0, count: n, into: &coverage)
                #expect(coverage[0 ..< n] == first[0 ..< n], "row \(y) of \(rows)")
            }
        }
        // Not a vacuous pass: most random shapes are tall enough to have steady rows.
        #expect(shapesWithSteadyRows > 150)
    }

    /// Draws `prepared` with `threads` bands onto a fixed backdrop.
    static func render(_ prepared: Rasterizer.PreparedList, width: Int, height: Int, threads: Int) -> Bitmap {
        let backdrop = RGBAColor(red: 0.2, green: 0.1, blue: 0.3, alpha: 0.9)
        return drawBanded(prepared, width: width, height: height, threads: threads, backdrop: backdrop)
    }

    @Test("Busy random lists: drawing steady rows from the kept values gives the per-row bytes", arguments: [1 as UInt64, 2, 3, 4, 5])
    func sameBytesAsPerRow(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 700)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), randomOpaqueBitmap(width: 40, height: 30, using: &rng)]
        let (w, h) = (150, 120)
        for list in [
            PipelineTests.busyList(seed: seed, width: w, height: h, images: images.count),
            GroupTests.groupedList(seed: seed, width: w, height: h, images: images.count),
        ] {
            let sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: list)
            let kept = Rasterizer.prepare(list, width: w, height: h, sources: sources)
            #expect(kept.items.contains { $0.steady != nil })
            var perRow = kept
            for i in perRow.items.indices {
                // Some runs cut by a hidden box too, so interior and edges meet runs that start anywhere.
                if perRow.items[i].hiddenBy.isEmpty && i % 4 == 1 {
                    perRow.items[i].hiddenBy = [PixelBox(x0: 40 + i, y0: 0, x1: 70 + i, y1: 80)]
                }
                perRow.items[i].steady = nil
            }
            var keptHidden = kept
            for i in keptHidden.items.indices { keptHidden.items[i].hiddenBy = perRow.items[i].hiddenBy }
            for threads in [1, 3] {
                let a = Self.render(keptHidden, width: w, height: h, threads: threads)
                let b = Self.render(perRow, width: w, height: h, threads: threads)
                #expect(a == b, "\(threads) threads: max difference \(maxDifference(a.pixels, b.pixels))")
            }
        }
    }
}
