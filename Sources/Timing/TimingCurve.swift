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

    private func derivativeX(_ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * x1 + 6 * u * s * (x2 - x1) + 3 * s * s * (1 - x2)
    }

    /// Newton's method from s = t, falling back to bisection (x is monotonic
    /// because both control x values lie in 0...1).
    private func solveX(_ t: Double) -> Double {
        var s = t
        for _ in 0 ..< 8 {
            let error = sampleX(s) - t
            if abs(error) < 1e-12 { return s }
            let slope = derivativeX(s)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
        }
        var low = 0.0
        var high = 1.0
        s = t
        for _ in 0 ..< 64 {
            let x = sampleX(s)
            if abs(x - t) < 1e-12 { return s }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }
}
