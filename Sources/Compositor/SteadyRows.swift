/// The rows of an item where nothing the row driver computes depends on the
/// row: its span, its interior and the alpha of its edge pixels are those of
/// every other such row, so they are worked out once per item (and the edge
/// alpha once per band) instead of once per row.
///
/// Which rows: the shape and every clip are axis-aligned (rows of target
/// pixels are rows of constant `v`), and the row is away from each one's top
/// and bottom edges and out of its corner zones. There `span` and `fullSpan`
/// reduce to their horizontal slab (the `v` test passes), `coverageRow`'s
/// vertical factor is exactly 1 and no corner pixel is visited, so each
/// pixel's coverage is its column's alone. Same bytes as the per-row path:
/// `isSteady` repeats the tests those functions make, and the values kept are
/// computed by those functions on one of the rows (tests draw both ways).
///
/// Why: a card, a screen or a snapshot is an axis-aligned rounded rectangle
/// whose rows are nearly all steady, and on the benchmark plan the per-row
/// span, interior and edge coverage of every item and clip were about a sixth
/// of the instructions (benchmarks/RESULTS.md): each row paid two divides per
/// shape for its spans and a coverage pass over its anti-aliased edges.
struct SteadyRows: Sendable {
    /// Fewer steady rows than this and the item keeps the per-row path.
    static let minimumRows = 2

    /// Target rows (within the item's bounds) where the values below hold.
    let rows: Range<Int>
    /// The row span (shape, clips and bounds: what `RowPainter.drawRow` draws).
    let lower: Int, upper: Int
    /// Pixels where shape and every clip cover exactly 1 (`ItemRow.interior`), within the span, non-empty.
    let interiorLower: Int, interiorUpper: Int

    /// No steady rows: what an item without them draws with.
    static let none = SteadyRows(rows: 0 ..< 0, lower: 0, upper: 0, interiorLower: 0, interiorUpper: 0)

    private init(rows: Range<Int>, lower: Int, upper: Int, interiorLower: Int, interiorUpper: Int) {
        self.rows = rows
        (self.lower, self.upper) = (lower, upper)
        (self.interiorLower, self.interiorUpper) = (interiorLower, interiorUpper)
    }

    /// True when `y` is a steady row.
    @inline(__always)
    func contains(_ y: Int) -> Bool { rows.contains(y) }

    /// Nil when fewer than `minimumRows` rows are steady, or the span or the
    /// interior is empty there (such rows keep the per-row path).
    init?(shape: CoverageShape, clips: [CoverageShape], bounds: PixelBox) {
        var rows = shape.steadyRows(within: bounds.y0 ..< bounds.y1)
        for clip in clips where rows.count >= Self.minimumRows { rows = clip.steadyRows(within: rows) }
        guard rows.count >= Self.minimumRows else { return nil }
        let y = rows.lowerBound
        // The per-row functions themselves, on one of the rows: the kept values are theirs by construction.
        let (x0, x1) = CoverageShape.span(row: y, of: shape, clips: clips, within: bounds)
        var (f0, f1) = CoverageShape.fullSpan(row: y, of: shape, clips: clips)
        f0 = max(f0, x0)
        f1 = min(f1, x1)
        guard x0 < x1, f0 < f1 else { return nil }
        self.init(rows: rows, lower: x0, upper: x1, interiorLower: f0, interiorUpper: f1)
    }

    /// `ItemRow.interior` of the run `lower ..< upper` on a steady row.
    @inline(__always)
    func interior(_ lower: Int, _ upper: Int) -> (Int, Int) {
        let f0 = max(interiorLower, lower)
        let f1 = min(interiorUpper, upper)
        return f0 < f1 ? (f0, f1) : (upper, upper)
    }
}

extension CoverageShape {
    /// An item's pixels on row `y` whose coverage can be non-zero: `shape`'s span within `bounds`, cut by
    /// every clip's span (empty when `lower >= upper`). What `RowPainter` draws on a row.
    @inline(__always)
    static func span(row y: Int, of shape: CoverageShape, clips: [CoverageShape], within bounds: PixelBox) -> (Int, Int) {
        var (x0, x1) = shape.span(row: y)
        x0 = max(x0, bounds.x0)
        x1 = min(x1, bounds.x1)
        for clip in clips where x0 < x1 {
            let s = clip.span(row: y)
            x0 = max(x0, s.lower)
            x1 = min(x1, s.upper)
        }
        return (x0, x1)
    }

    /// An item's pixels on row `y` that `shape` and every clip cover exactly 1 (empty when `lower >= upper`).
    @inline(__always)
    static func fullSpan(row y: Int, of shape: CoverageShape, clips: [CoverageShape]) -> (Int, Int) {
        var (f0, f1) = shape.fullSpan(row: y)
        for clip in clips where f0 < f1 {
            let s = clip.fullSpan(row: y)
            f0 = max(f0, s.lower)
            f1 = min(f1, s.upper)
        }
        return (f0, f1)
    }

    /// True when row `y`'s span, full span and coverage (`span`, `fullSpan`,
    /// `CoverageKernels.coverageRow`) are those of every other steady row:
    /// axis-aligned, the row's `|v|` inside the vertical slab's full part and
    /// (rounded) out of the corner zones, and the vertical coverage factor 1
    /// with a thousandth to spare, so Float rounding cannot make it 0.9999.
    func isSteady(row y: Int) -> Bool {
        guard isAxisAligned, fullU > 0, fullV > 0, heightInPixels >= 1 else { return false }
        let offset = inverse.d * Double(y) + inverse.ty
        let av = abs(offset)
        guard av <= reachV, av <= fullV, radius == 0 || av <= Double(innerHalfHeight) else { return false }
        return 0.5 + (halfHeight - abs(Float(offset))) * pixelsPerV >= 1.001
    }

    /// The steady rows within `rows`. They form one interval: `|v|` falls then
    /// rises along the rows and every test of `isSteady` holds below a bound on
    /// it, so the interval holds the row nearest `v = 0` and its ends are
    /// found by bisection (a few dozen tests, not one per row).
    func steadyRows(within rows: Range<Int>) -> Range<Int> {
        guard isAxisAligned, !rows.isEmpty else { return rows.lowerBound ..< rows.lowerBound }
        let centre = -inverse.ty / inverse.d
        guard centre.isFinite else { return rows.lowerBound ..< rows.lowerBound }
        let nearest = Int(min(max(centre.rounded(), Double(rows.lowerBound)), Double(rows.upperBound - 1)))
        var seed = nearest
        if !isSteady(row: seed) {
            if rows.contains(nearest - 1) && isSteady(row: nearest - 1) {
                seed = nearest - 1
            } else if rows.contains(nearest + 1) && isSteady(row: nearest + 1) {
                seed = nearest + 1
            } else {
                return rows.lowerBound ..< rows.lowerBound
            }
        }
        // The first steady row in rows.lowerBound ... seed, then the last in seed ..< rows.upperBound.
        var lo = rows.lowerBound
        var hi = seed
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if isSteady(row: mid) { hi = mid } else { lo = mid + 1 }
        }
        let first = lo
        lo = seed
        hi = rows.upperBound - 1
        while lo < hi {
            let mid = hi - (hi - lo) / 2
            if isSteady(row: mid) { lo = mid } else { hi = mid - 1 }
        }
        return first ..< lo + 1
    }
}
