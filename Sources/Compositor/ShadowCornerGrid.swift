/// The corner corrections of an axis-aligned shadow (`ShadowKernels.correction8`) worked out at every other
/// pixel of every other row (even target x and y) and bilinearly interpolated between: a quarter of the
/// corner integrals, which were the largest part of drawing a blurred card (each zone pixel costs four to
/// eight `erf` where the rest of the shadow costs one multiply).
///
/// The correction is the blurred corner's departure from the separable rectangle: at the blurs this is used
/// for (`minimumSigma`, in pixels) it changes slowly enough that the interpolation stays within a fraction
/// of a level of the per-pixel values (`ShadowCornerGridTests` bounds it against them), while at an even x of
/// an even row the value is the per-pixel one, bit for bit (the same lanes compute it). Below that blur the
/// corners bend too sharply between grid points, and the per-pixel integral stays.
///
/// Everything is indexed by absolute target column and row, so a pixel's bits do not depend on the band,
/// the run or the thread count. Per band and item: two grid rows kept (consecutive rows share them: each
/// grid point a run needs is worked out once per band), and the corrections of the run being drawn.
struct ShadowCornerGrid {
    /// The blur (pixels, the shadow's sigma along either axis) from which corners are interpolated. Over the
    /// tests' random shapes the largest difference from the per-pixel corrections was 0.56/255 of coverage
    /// at 8 to 9 px, 0.06/255 from 12 px, and 1.4/255 at 7.4 px (a corner's row widths bend sharply within a
    /// sigma there). A card's shadow in the benchmark scene is blurred 18 px, a chip's 9 px.
    static let minimumSigma: Float = 8

    /// Extra entries past a row's end: vector loops store whole vectors.
    static let slack = 32

    private let shadow: ShadowShape
    /// The zone columns of every row (left and right of `|u| <= zoneU`), within the band's columns; either
    /// may be empty. Not an array: a band's copy of it would be retained and released per run.
    private let spans: (Range<Int>, Range<Int>)
    /// Two grid rows, index x / 2, with the grid row each holds (`Int.min`: none) and, per span, the indices
    /// worked out so far (empty: none): runs ask for their own columns, so the columns a later opaque item
    /// hides are not worked out.
    private let gridRows: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    private var gridKeys = (Int.min, Int.min)
    /// Per kept row, for each span (at most two), the first and last index worked out (first > last: none).
    private var gridDone = (Self.noneDone, Self.noneDone)
    private static let noneDone = SIMD4<Int>(1, 0, 1, 0)
    /// An odd row's grid values, the mean of the grid rows above and below it.
    private let between: UnsafeMutablePointer<Float>
    /// Corrections, absolute x: those of the run asked for last.
    private let corrections: UnsafeMutablePointer<Float>
    /// Per kept row, its corner samples' rows and masses (`ShadowKernels.cornerRows`) and how many.
    private let samples: UnsafeMutablePointer<SIMD8<Float>>
    private var sampleCounts = (0, 0)
    /// The horizontal factor per absolute column (`ShadowKernels.prepareColumns`, two columns past the band's).
    private let columns: UnsafePointer<Float>

    /// Nil when `shadow` is not interpolated: turned, square-cornered, or blurred less than `minimumSigma`.
    /// `columns`: the band's, whose factors `columnFactors` holds.
    init?(_ shadow: ShadowShape, columns: Range<Int>, columnFactors: UnsafePointer<Float>, scratch: RowScratch) {
        guard Self.applies(to: shadow), !columns.isEmpty else { return nil }
        self.shadow = shadow
        var lo = -Double.infinity
        var hi = Double.infinity
        CoverageShape.constrain(slope: shadow.inverse.a, offset: shadow.inverse.tx, reach: Double(shadow.zoneU), &lo, &hi)
        if lo <= hi {
            // As `shadowRow` cuts its zone segments (a column wider on each side: zero there).
            let innerLower = clampedIndex(lo.rounded(.up)) + 1
            let innerUpper = clampedIndex(hi.rounded(.down))
            let left = columns.lowerBound ..< max(columns.lowerBound, min(columns.upperBound, innerLower))
            let right = min(columns.upperBound, max(columns.lowerBound, innerUpper)) ..< columns.upperBound
            spans = (left, right)
        } else {
            spans = (columns, columns.upperBound ..< columns.upperBound)
        }
        gridRows = (scratch.shadowGrid, scratch.shadowGrid + scratch.shadowGridStride)
        between = scratch.shadowGrid + 2 * scratch.shadowGridStride
        corrections = scratch.shadowCorrections
        samples = scratch.shadowGridSamples
        self.columns = columnFactors
    }

    static func applies(to s: ShadowShape) -> Bool {
        guard s.isAxisAligned, s.radius > 0 else { return false }
        let sigma = 1 / (2.squareRoot() * Double(s.k))
        let stepU = abs(s.inverse.a)
        let stepV = abs(s.inverse.d)
        return sigma >= Double(minimumSigma) * max(stepU, stepV)
    }

    /// The corrections of the zone columns of row `y` within `lower ..< upper` (a run), absolute x: what
    /// `ShadowKernels.shadowRow` subtracts there.
    mutating func corrections(row y: Int, lower: Int, upper: Int) -> UnsafePointer<Float> {
        correct(row: y, from: max(lower, spans.0.lowerBound), to: min(upper, spans.0.upperBound), span: 0)
        correct(row: y, from: max(lower, spans.1.lowerBound), to: min(upper, spans.1.upperBound), span: 1)
        return UnsafePointer(corrections)
    }

    /// The corrections of columns `a ..< b` (none when `a >= b`) of row `y`, within span `index`.
    private mutating func correct(row y: Int, from a: Int, to b: Int, span index: Int) {
        guard a < b else { return }
        let top = y & ~1
        // Grid points a / 2 ... (b - 1) / 2 + 1 bracket the run's columns.
        let needed = (a >> 1) ... ((b &- 1) >> 1) &+ 1
        var values = UnsafePointer(grid(row: top, span: index, needed))
        if y & 1 == 1 {
            let lowerRow = grid(row: top &+ 2, span: index, needed, keeping: top)
            var i = needed.lowerBound
            while i <= needed.upperBound {
                let p = UnsafeRawPointer(values + i).loadUnaligned(as: SIMD8<Float>.self)
                let q = UnsafeRawPointer(lowerRow + i).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(between + i).storeBytes(of: 0.5 * (p + q), as: SIMD8<Float>.self)
                i &+= 8
            }
            values = UnsafePointer(between)
        }
        // Even x: the grid value; odd x: the mean of its neighbours. `0.5 * (g + g)` is `g` exactly.
        var x = a & ~1
        while x < b {
            let g = UnsafeRawPointer(values + (x >> 1)).loadUnaligned(as: SIMD8<Float>.self)
            let left = SIMD8<Float>(g[0], g[0], g[1], g[1], g[2], g[2], g[3], g[3])
            let right = SIMD8<Float>(g[0], g[1], g[1], g[2], g[2], g[3], g[3], g[4])
            UnsafeMutableRawPointer(corrections + x).storeBytes(of: 0.5 * (left + right), as: SIMD8<Float>.self)
            x &+= 8
        }
    }

    /// Grid row `row` (even) with at least `needed` of span `span` worked out. A row not kept replaces the
    /// kept one that is not `keeping`.
    private mutating func grid(row: Int, span: Int, _ needed: ClosedRange<Int>, keeping: Int = Int.min) -> UnsafeMutablePointer<Float> {
        let first: Bool
        if gridKeys.0 == row {
            first = true
        } else if gridKeys.1 == row {
            first = false
        } else {
            first = gridKeys.0 != keeping
            if first {
                gridKeys.0 = row
                gridDone.0 = Self.noneDone
            } else {
                gridKeys.1 = row
                gridDone.1 = Self.noneDone
            }
            takeSamples(row: row, slot: first ? 0 : 1)
        }
        let into = first ? gridRows.0 : gridRows.1
        var done = first ? gridDone.0 : gridDone.1
        let (lo, hi) = (done[2 &* span], done[2 &* span &+ 1])
        if lo <= hi {
            // Worked out in whole stretches, so each index once: below and above what is done.
            if needed.lowerBound < lo { compute(row: row, needed.lowerBound ... lo &- 1, into: into) }
            if needed.upperBound > hi { compute(row: row, hi &+ 1 ... needed.upperBound, into: into) }
            done[2 &* span] = min(lo, needed.lowerBound)
            done[2 &* span &+ 1] = max(hi, needed.upperBound)
        } else {
            compute(row: row, needed, into: into)
            done[2 &* span] = needed.lowerBound
            done[2 &* span &+ 1] = needed.upperBound
        }
        if first { gridDone.0 = done } else { gridDone.1 = done }
        return into
    }

    private func compute(row: Int, _ indices: ClosedRange<Int>, into: UnsafeMutablePointer<Float>) {
        let slot = into == gridRows.0 ? 0 : 1
        let rows = samples + slot * 2 * ShadowKernels.maxCornerRows
        ShadowKernels.gridCorrections(
            shadow, y: row, from: indices.lowerBound, through: indices.upperBound, columns: columns,
            rows: rows, masses: rows + ShadowKernels.maxCornerRows, samples: slot == 0 ? sampleCounts.0 : sampleCounts.1,
            into: into)
    }

    /// The corner samples of grid row `row` (`ShadowKernels.cornerRows`) into slot `slot`: once per grid row.
    private mutating func takeSamples(row: Int, slot: Int) {
        let rows = samples + slot * 2 * ShadowKernels.maxCornerRows
        let av = abs(Float(shadow.inverse.d * Double(row) + shadow.inverse.ty))
        let count = av > shadow.zoneV ? ShadowKernels.cornerRows(shadow, av: av, rows: rows, masses: rows + ShadowKernels.maxCornerRows) : 0
        if slot == 0 { sampleCounts.0 = count } else { sampleCounts.1 = count }
    }
}
