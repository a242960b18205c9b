/// A CSS/Core Animation cubic Bézier timing curve from (0,0) to (1,1).
/// `value(at:)` solves x(s) = t for s, then returns y(s).
public struct TimingCurve: Sendable, Hashable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// x(s) = ((a s + b) s + c) s, the Bernstein form multiplied out: three multiplications and two
    /// additions a step of the solver instead of twelve operations. Made per call, not stored, so
    /// that the curve stays four numbers (views carry it, and are copied every frame).
    private struct Cubic {
        let a: Double, b: Double, c: Double

        init(_ p1: Double, _ p2: Double) {
            c = 3 * p1
            b = 3 * (p2 - p1) - c
            a = 1 - c - b
        }

        func at(_ s: Double) -> Double { ((a * s + b) * s + c) * s }
        func slope(_ s: Double) -> Double { (3 * a * s + 2 * b) * s + c }
    }

    /// Shift's `CAMediaTimingFunction.normal`: cubic-bezier(0.4, 0.0, 0.2, 1.0).
    public static let shift = TimingCurve(0.4, 0.0, 0.2, 1.0)
    public static let linear = TimingCurve(0, 0, 1, 1)

    /// Progress in curve time for linear time `t` in 0...1 (clamped).
    public func value(at t: Double) -> Double {
        if !(t > 0) { return 0 }
        if t >= 1 { return 1 }
        return sampleY(solveX(t))
    }

    private func sampleY(_ s: Double) -> Double { Cubic(y1, y2).at(s) }


    /// The s with x(s) = t: Newton's method inside a bracket that shrinks every step, bisecting
    /// whenever a step would leave it, and stopped on the size of the step in s, not on |x(s) - t|.
    /// Stopping on |x(s) - t| < 1e-12 left y off by 7.5e-5 where x'(s) = 0 (easeInOutExpo, 1, 0, 0,
    /// 1, at t = 0.5 + 5e-13). Bisection alone to 2^-60 is as exact but takes 60 steps, and the
    /// engine solves every view's curve every frame: it made planning the 1080p benchmark scene 1.6x
    /// slower. This takes 3 to 6 steps on ordinary curves; values may step back by 1e-13 as t grows,
    /// which `Easing.range` leaves 1e-9 for.
    func solveX(_ t: Double) -> Double {
        let x = Cubic(x1, x2)
        var low = 0.0
        var high = 1.0
        var s = t
        for _ in 0 ..< 100 {
            let error = x.at(s) - t
            if error == 0 { break }
            if error < 0 { low = s } else { high = s }
            var next = s - error / x.slope(s)
            if !(next > low && next < high) { next = (low + high) / 2 }
            if abs(next - s) <= 0x1p-52 || high - low <= 0x1p-60 {
                s = next
                break
            }
            s = next
        }
        // Where x'(s) is near 0 (a vertical tangent, as easeInOutExpo has at 0.5) the rounding of x
        // moves s by up to 1e-5, and Newton's answers may step back as t grows; bisection walks one
        // tree of midpoints for every t, so a later t never gets an earlier s. Elsewhere an ulp of x
        // moves s by under 1e-13.
        return abs(x.slope(s)) < 1e-3 ? bisected(t, x) : s
    }

    private func bisected(_ t: Double, _ x: Cubic) -> Double {
        var low = 0.0
        var high = 1.0
        for _ in 0 ..< 60 {
            let mid = (low + high) / 2
            if x.at(mid) < t { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The lowest and highest progress over unit times `lo...hi` (0 <= lo <= hi <= 1): y at the ends
    /// and where y'(s) = 0 between them: `solveX` maps later times to later s (to an ulp or two,
    /// which `Easing.range`'s slack covers).
    func range(from lo: Double, to hi: Double) -> ClosedRange<Double> {
        let ends = (value(at: lo), value(at: hi))
        var lower = min(ends.0, ends.1)
        var upper = max(ends.0, ends.1)
        let s0 = lo > 0 ? solveX(lo) : 0
        let s1 = hi < 1 ? solveX(hi) : 1
        // y'(s) / 3 = qa s^2 + qb s + qc.
        for s in Self.roots(3 * y1 - 3 * y2 + 1, 2 * y2 - 4 * y1, y1) where s > s0 && s < s1 {
            lower = min(lower, sampleY(s))
            upper = max(upper, sampleY(s))
        }
        return lower ... upper
    }

    /// Real roots of qa s^2 + qb s + qc, without the cancellation of the textbook formula.
    private static func roots(_ qa: Double, _ qb: Double, _ qc: Double) -> [Double] {
        if qa == 0 { return qb == 0 ? [] : [-qc / qb] }
        let disc = qb * qb - 4 * qa * qc
        guard disc >= 0 else { return [] }
        let q = -(qb + (qb < 0 ? -1 : 1) * disc.squareRoot()) / 2
        return q == 0 ? [0] : [q / qa, qc / q]
    }
}
