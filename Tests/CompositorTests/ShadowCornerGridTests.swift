import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Shadow corner grid")
struct ShadowCornerGridTests {
    /// A random axis-aligned rounded shadow blurred enough for the grid, and its columns within `width`.
    static func shadow(_ rng: inout SeededGenerator, width: Int) -> (ShadowShape, Range<Int>)? {
        let t = AffineTransform2D.scale(Double.random(in: 0.7 ... 3, using: &rng), Double.random(in: 0.7 ... 3, using: &rng))
            .concatenating(.translation(Double.random(in: -30 ... 80, using: &rng), Double.random(in: -30 ... 80, using: &rng)))
        let shape = rect(
            0, 0, Double.random(in: 4 ... 90, using: &rng), Double.random(in: 4 ... 70, using: &rng),
            radius: Double.random(in: 1 ... 30, using: &rng))
        guard let s = ShadowShape(transform: t, shape: shape, sigma: Double.random(in: 2 ... 14, using: &rng)),
            ShadowCornerGrid.applies(to: s)
        else { return nil }
        let columns = max(0, s.extent.bounds.x0) ..< min(width, s.extent.bounds.x1)
        return columns.isEmpty ? nil : (s, columns)
    }

    /// Row `y` of `s` over `columns`, per pixel into `exact` and with `grid`'s corrections into `interpolated`.
    static func row(
        _ s: ShadowShape, y: Int, columns: Range<Int>, factors: UnsafePointer<Float>, grid: inout ShadowCornerGrid,
        exact: inout [Float], interpolated: inout [Float]
    ) {
        let (x0, count) = (columns.lowerBound, columns.count)
        exact.withUnsafeMutableBufferPointer {
            ShadowKernels.shadowRow(s, y: y, x0: x0, count: count, columns: factors, into: $0.baseAddress!)
        }
        let corrections = grid.corrections(row: y, lower: columns.lowerBound, upper: columns.upperBound)
        interpolated.withUnsafeMutableBufferPointer {
            ShadowKernels.shadowRow(s, y: y, x0: x0, count: count, columns: factors, corrections: corrections, into: $0.baseAddress!)
        }
    }

    @Test(
        "Interpolated corners: per-pixel bits at even columns of even rows, within 0.6/255 elsewhere, any runs the same",
        arguments: [1 as UInt64, 2, 3])
    func interpolatedCorners(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let width = 320
        let (scratchA, scratchB) = (RowScratch(width: width), RowScratch(width: width))
        var (perPixel, whole, parts) = ([Float](repeating: 0, count: width + 8), [Float](repeating: 0, count: width + 8),
                                        [Float](repeating: 0, count: width + 8))
        var (worst, gridPoints, shadows, rowsCut) = (0.0, 0, 0, 0)
        var failures: [String] = []
        for _ in 0 ..< 40 {
            guard let (s, columns) = Self.shadow(&rng, width: width) else { continue }
            shadows += 1
            let factorsA = ShadowFill.columnFactors(s, columns: columns, scratch: scratchA)
            let factorsB = ShadowFill.columnFactors(s, columns: columns, scratch: scratchB)
            var grid = ShadowCornerGrid(s, columns: columns, columnFactors: factorsA, scratch: scratchA)!
            let rows = max(0, s.extent.bounds.y0) ..< min(width, s.extent.bounds.y1)
            // A second band starts somewhere inside the shadow, with its own grid.
            let bandStart = Int.random(in: rows, using: &rng)
            var bandGrid = ShadowCornerGrid(s, columns: columns, columnFactors: factorsB, scratch: scratchB)!
            for y in rows {
                let x0 = columns.lowerBound
                Self.row(s, y: y, columns: columns, factors: factorsA, grid: &grid, exact: &perPixel, interpolated: &whole)
                for x in columns {
                    let (exact, interpolated) = (perPixel[x - x0], whole[x - x0])
                    worst = max(worst, Double(abs(exact - interpolated)))
                    if x & 1 == 0 && y & 1 == 0 {
                        gridPoints += 1
                        if exact.bitPattern != interpolated.bitPattern { failures.append("grid point x \(x) y \(y)") }
                    }
                }
                guard y >= bandStart else { continue }
                // The same row as a few runs, from the second band's grid.
                var cuts = (0 ..< Int.random(in: 0 ... 3, using: &rng)).map { _ in Int.random(in: columns, using: &rng) }
                cuts = ([columns.lowerBound, columns.upperBound] + cuts).sorted()
                rowsCut += 1
                for (a, b) in zip(cuts, cuts.dropFirst()) where a < b {
                    let runCorrections = bandGrid.corrections(row: y, lower: a, upper: b)
                    parts.withUnsafeMutableBufferPointer {
                        ShadowKernels.shadowRow(
                            s, y: y, x0: a, count: b - a, columns: factorsB, corrections: runCorrections,
                            into: $0.baseAddress! + (a - x0))
                    }
                }
                for x in columns where parts[x - x0].bitPattern != whole[x - x0].bitPattern {
                    failures.append("run bits x \(x) y \(y)")
                }
            }
        }
        #expect(shadows >= 10 && gridPoints > 1000 && rowsCut > 500, "\(shadows) shadows, \(gridPoints) grid points, \(rowsCut) rows cut")
        #expect(failures.isEmpty, "\(failures.count) differ: \(failures.prefix(5))")
        #expect(worst * 255 <= 0.6, "worst \(worst * 255)/255")
    }

    @Test("Zones that meet in a narrow middle (one segment, as the per-pixel path cuts it): within 0.6/255 of it")
    func zonesMeetingInTheMiddle() {
        let width = 200
        let scratch = RowScratch(width: width)
        var (row, exact) = ([Float](repeating: 0, count: width + 8), [Float](repeating: 0, count: width + 8))
        let probe = ShadowShape(transform: .identity, shape: rect(0, 0, 100, 60, radius: 6), sigma: 10)!
        var (worst, narrow) = (0.0, 0)
        for middle in stride(from: -1.0, through: 3, by: 0.25) {
            // The zones start `reach` inside the corners' straight parts: this leaves `middle` px between them.
            let w = 2 * (6 + Double(probe.reach)) + middle
            let s = ShadowShape(transform: .translation(40.3, 30), shape: rect(0, 0, w, 60, radius: 6), sigma: 10)!
            #expect(ShadowCornerGrid.applies(to: s))
            if s.zoneU > 0 && s.zoneU < 1.5 { narrow += 1 }
            let columns = max(0, s.extent.bounds.x0) ..< min(width, s.extent.bounds.x1)
            let factors = ShadowFill.columnFactors(s, columns: columns, scratch: scratch)
            var grid = ShadowCornerGrid(s, columns: columns, columnFactors: factors, scratch: scratch)!
            for y in max(0, s.extent.bounds.y0) ..< s.extent.bounds.y1 {
                Self.row(s, y: y, columns: columns, factors: factors, grid: &grid, exact: &exact, interpolated: &row)
                for i in 0 ..< columns.count { worst = max(worst, Double(abs(row[i] - exact[i]))) }
            }
        }
        #expect(narrow >= 3, "\(narrow) shapes with a middle under 1.5 px")
        #expect(worst * 255 <= 0.6, "worst \(worst * 255)/255")
    }

    @Test("Shadows blurred less than the grid's minimum, turned or square-cornered keep the per-pixel corners")
    func perPixelWhereNotSmooth() {
        let corner = rect(0, 0, 60, 40, radius: 10)
        let sharp = ShadowShape(transform: .scale(2, 2), shape: corner, sigma: Double(ShadowCornerGrid.minimumSigma) / 2 * 0.99)!
        let smooth = ShadowShape(transform: .scale(2, 2), shape: corner, sigma: Double(ShadowCornerGrid.minimumSigma) / 2)!
        let turned = ShadowShape(transform: .rotation(0.3), shape: corner, sigma: 20)!
        let square = ShadowShape(transform: .identity, shape: rect(0, 0, 60, 40), sigma: 20)!
        #expect(!ShadowCornerGrid.applies(to: sharp) && ShadowCornerGrid.applies(to: smooth))
        #expect(!ShadowCornerGrid.applies(to: turned) && !ShadowCornerGrid.applies(to: square))
    }
}
