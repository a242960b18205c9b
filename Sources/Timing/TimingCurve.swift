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

    /// Shift's `CAMediaTimingFunction.normal`: cubic-bezier(0.4, 0.0, 0.2, 1.0).
    public static let shift = TimingCurve(0.4, 0.0, 0.2, 1.0)
    public static let linear = TimingCurve(0, 0, 1, 1)

    /// Progress in curve time for linear time `t` in 0...1 (clamped).
    public func value(at t: Double) -> Double {
        if !(t > 0) { return 0 }
        if t >= 1 { return 1 }
        return sampleY(solveX(t))
    }

    private func sampleX(_ s: Double) -> Double {
        // Bernstein form with P0 = 0, P3 = 1.
        let u = 1 - s
        return 3 * u * u * s * x1 + 3 * u * s * s * x2 + s * s * s
    }

    private func sampleY(_ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * y1 + 3 * u * s * s * y2 + s * s * s
    }

    /// Bisection in s to 2^-60. Newton's method stopped at |x(s) - t| < 1e-12, which where x'(s) = 0
    /// left y off by 7.5e-5 (easeInOutExpo, 1, 0, 0, 1, at t = 0.5 + 5e-13) and let y step back as t
    /// grew. Bisection walks the same tree of midpoints for every t, so a later t never gets an earlier
    /// s: `range` relies on it.
    func solveX(_ t: Double) -> Double {
        var low = 0.0
        var high = 1.0
        for _ in 0 ..< 60 {
            let mid = (low + high) / 2
            if sampleX(mid) < t { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The lowest and highest progress over unit times `lo...hi` (0 <= lo <= hi <= 1): y at the ends
    /// and where y'(s) = 0 between them. Exact even when x is not monotone (control x outside
    /// 0...1), because `solveX` maps later times to later s.
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
