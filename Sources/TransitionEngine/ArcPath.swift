import Primitives

/// Hero's arc: a view's position follows a quadratic Bézier from where it
/// starts to where it ends instead of a straight line, evaluated at the view's
/// curved progress (not paced by arc length, as Hero does it with a keyframe
/// animation on the view's curve).
///
/// The control point is `mid + (c - mid) * intensity`, with c the corner of
/// the box the move spans that the view reaches last along y: `(to.x, from.y)`
/// when the view moves up, else `(from.x, to.y)`. A move under 1 pt along
/// either axis stays straight (Hero: a Bézier through nearly collinear points
/// would only wobble).
struct ArcPath: Sendable, Equatable {
    let start: Point
    let control: Point
    let end: Point
    let intensity: Double

    /// Nil when the move is straight (intensity 0 or under 1 pt along an axis).
    init?(from start: Point, to end: Point, intensity: Double) {
        guard intensity > 0, abs(end.x - start.x) >= 1, abs(end.y - start.y) >= 1 else { return nil }
        let corner = start.y > end.y ? Point(x: end.x, y: start.y) : Point(x: start.x, y: end.y)
        let mid = Point(x: (start.x + end.x) / 2, y: (start.y + end.y) / 2)
        self.start = start
        self.end = end
        self.intensity = intensity
        control = Point(x: mid.x + (corner.x - mid.x) * intensity, y: mid.y + (corner.y - mid.y) * intensity)
    }

    /// The position at progress `p`; past 0...1 (a spring's overshoot) the parabola goes on.
    func point(at p: Double) -> Point {
        if p == 1 { return end }
        let u = 1 - p
        return Point(
            x: u * u * start.x + 2 * u * p * control.x + p * p * end.x,
            y: u * u * start.y + 2 * u * p * control.y + p * p * end.y)
    }

    /// Where the position can be for progress in `p`: the piece of the
    /// parabola over `p` is itself a quadratic Bézier whose control points
    /// are the ends and the blossom B(lo, hi), and lies inside their hull.
    func range(over p: Interval) -> IntervalPoint {
        let (a, b) = (p.lo, p.hi)
        let blossomWeights = ((1 - a) * (1 - b), (1 - a) * b + a * (1 - b), a * b)
        let middle = Point(
            x: blossomWeights.0 * start.x + blossomWeights.1 * control.x + blossomWeights.2 * end.x,
            y: blossomWeights.0 * start.y + blossomWeights.1 * control.y + blossomWeights.2 * end.y)
        let ends = [point(at: a), middle, point(at: b)]
        return IntervalPoint(
            x: Interval(ends.map(\.x).min()!, ends.map(\.x).max()!),
            y: Interval(ends.map(\.y).min()!, ends.map(\.y).max()!))
    }
}
