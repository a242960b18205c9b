import Primitives

/// A convex polygon in target pixels (a projected layer's outline, from
/// `Homography.visiblePolygon`), with the two operations projected drawing
/// needs: cutting it to a box (so points wrapped far away by a plane grazing
/// the eye plane never reach pixel arithmetic) and the pixel run of a row.
///
/// Invariants: vertices are finite and in order (either winding); fewer than
/// three vertices means empty. Both operations are exact for convex input and
/// conservative (never too short) by design: callers mask pixels themselves.
struct ConvexPolygon: Sendable {
    let points: [Point]

    init(_ points: [Point]) {
        self.points = points.count >= 3 && points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? points : []
    }

    var isEmpty: Bool { points.count < 3 }

    /// The part inside `[minX, maxX] x [minY, maxY]` (Sutherland-Hodgman, one box side at a time).
    func clipped(minX: Double, minY: Double, maxX: Double, maxY: Double) -> ConvexPolygon {
        var current = points
        // Each side as "inside when sign * (coordinate - limit) >= 0", on x (true) or y.
        let sides: [(onX: Bool, limit: Double, sign: Double)] = [
            (true, minX, 1), (true, maxX, -1), (false, minY, 1), (false, maxY, -1),
        ]
        for side in sides {
            guard current.count >= 3 else { return ConvexPolygon([]) }
            func distance(_ p: Point) -> Double { side.sign * ((side.onX ? p.x : p.y) - side.limit) }
            var next: [Point] = []
            next.reserveCapacity(current.count + 1)
            for i in current.indices {
                let a = current[i]
                let b = current[(i + 1) % current.count]
                let da = distance(a)
                let db = distance(b)
                if da >= 0 { next.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    next.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
            }
            current = next
        }
        return ConvexPolygon(current)
    }

    /// Bounding box of the vertices, nil when empty.
    var bounds: Rect? {
        guard let first = points.first, !isEmpty else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in points.dropFirst() {
            x0 = min(x0, p.x)
            x1 = max(x1, p.x)
            y0 = min(y0, p.y)
            y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Pixels of row `y` whose centres lie within `grow` pixels (horizontally
    /// and vertically, a box neighbourhood) of the polygon, as `lower ..< upper`
    /// (empty when `lower >= upper`). The x extent of the polygon within the
    /// horizontal band `|py - (y + 0.5)| <= grow`: vertices inside the band and
    /// the edges' crossings of its two lines, then widened by `grow`.
    func rowSpan(_ y: Int, grow: Double) -> (lower: Int, upper: Int) {
        guard !isEmpty else { return (0, 0) }
        let yc = Double(y) + 0.5
        let top = yc - grow
        let bottom = yc + grow
        var lo = Double.infinity
        var hi = -Double.infinity
        for i in points.indices {
            let a = points[i]
            if a.y >= top && a.y <= bottom {
                lo = min(lo, a.x)
                hi = max(hi, a.x)
            }
            let b = points[(i + 1) % points.count]
            for line in [top, bottom] where (a.y - line) * (b.y - line) < 0 {
                let x = a.x + (b.x - a.x) * (line - a.y) / (b.y - a.y)
                lo = min(lo, x)
                hi = max(hi, x)
            }
        }
        guard lo <= hi else { return (0, 0) }
        // Centres x + 0.5 in [lo - grow, hi + grow].
        return (clampedIndex((lo - grow - 0.5).rounded(.up)), clampedIndex((hi + grow - 0.5).rounded(.down)) + 1)
    }
}
