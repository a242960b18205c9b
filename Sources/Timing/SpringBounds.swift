import Foundation

/// Where a spring turns, how far from the target it can still be, and when it
/// settles. All of it rests on one fact: between two turning points of x
/// (x'(t) = 0) the motion is monotone, and after the last one it is monotone
/// towards 1. The turning points are known in closed form (every pi/w for an
/// under-damped spring, at most one otherwise), so the extremes of x are exact
/// and no excursion can fall between samples.
extension Spring {
    /// Whether x never decreases. Not for an under-damped spring (it
    /// overshoots), nor for a negative initial velocity (it first moves away),
    /// nor for one so fast it overshoots once: critically damped,
    /// x'(t) = e^(-lambda t) (v0 + lambda (lambda - v0) t) turns negative once
    /// v0 > lambda; over-damped, x' is led in the end by the slow root's term,
    /// whose coefficient a turns negative once v0 > -r2.
    public var isMonotone: Bool {
        guard isValid, initialVelocity >= 0 else { return false }
        switch regime {
        case .under: return false
        case .critical: return initialVelocity <= decayRate
        case .over(_, let r2): return initialVelocity <= -r2
        }
    }

    /// The first turning point of x at or after `t` (> 0), and the time to the
    /// next one (pi/w under-damped, infinite otherwise); nil when there is none.
    func turningPoint(atOrAfter t: Double) -> (time: Double, spacing: Double)? {
        let lambda = decayRate
        let v0 = initialVelocity
        switch regime {
        case .under(let w):
            let phase = firstTurningPhase(w)
            let n = max(0, ((w * t - phase) / Double.pi).rounded(.up))
            return ((phase + n * Double.pi) / w, Double.pi / w)
        case .critical:
            guard v0 < 0 || v0 > lambda else { return nil }
            let turn = -v0 / (lambda * (lambda - v0))
            return turn >= t ? (turn, .infinity) : nil
        case .over(let r1, let r2):
            guard v0 < 0 || v0 > -r2 else { return nil }
            // a r1 e^(r1 t) + (1 - a) r2 e^(r2 t) = 0.
            let a = (-v0 - r2) / (r1 - r2)
            let turn = log(-(1 - a) * r2 / (a * r1)) / (r1 - r2)
            return turn >= t ? (turn, .infinity) : nil
        }
    }

    /// wt at the first turning point of an under-damped spring after 0, in (0, pi]: x'(t) =
    /// e^(-lambda t) (v0 cos wt + K sin wt) with K = (w0^2 - lambda v0) / w, zero where
    /// wt = atan2(K, v0) + pi/2 (mod pi).
    private func firstTurningPhase(_ w: Double) -> Double {
        var phase = atan2((stiffness / mass - decayRate * initialVelocity) / w, initialVelocity) + Double.pi / 2
        if phase <= 0 { phase += Double.pi }
        if phase > Double.pi { phase -= Double.pi }
        return phase
    }

    /// The largest |1 - x| from `t` seconds on (t >= 0): the larger of its value
    /// at `t` and at the first turning point after it, since later turning
    /// points are closer to 1 (under-damped, by e^(-lambda pi/w) each).
    /// It never increases with `t`.
    public func envelope(at t: Double) -> Double {
        let here = abs(displacement(at: t))
        guard let turn = turningPoint(atOrAfter: t) else { return here }
        return max(here, abs(displacement(at: turn.time)))
    }

    /// The lowest and highest x over `t0...t1` seconds: the ends and the first
    /// two turning points inside (turning points alternate above and below 1,
    /// each closer to 1 than the one before).
    public func range(from t0: Double, to t1: Double) -> ClosedRange<Double> {
        let (a, b) = (min(t0, t1), max(t0, t1))
        var lower = min(value(at: a), value(at: b))
        var upper = max(value(at: a), value(at: b))
        if let turn = turningPoint(atOrAfter: a) {
            for t in [turn.time, turn.time + turn.spacing] where t <= b {
                lower = min(lower, value(at: t))
                upper = max(upper, value(at: t))
            }
        }
        return lower ... upper
    }

    /// The first time after which |1 - x| stays below `settlingTolerance`;
    /// nil when the spring does not come to rest (not `isValid`) or takes
    /// longer than `limit` seconds.
    public func settlingTime(limit: Double = 600) -> Double? {
        guard isValid else { return nil }
        let epsilon = Self.settlingTolerance
        let outside = { (t: Double) in abs(self.displacement(at: t)) >= epsilon }
        // The last moment outside the band lies between the last turning point outside it (or 0)
        // and the next turning point, where |1 - x| falls and stays below the band's edge.
        var low = 0.0
        var high: Double?
        if case .under(let w) = regime, let first = turningPoint(atOrAfter: 0) {
            let peak = abs(displacement(at: first.time))
            if peak < epsilon {
                high = first.time
            } else {
                // |1 - x| at the n-th turning point is peak e^(-lambda n pi/w): below epsilon after `peaksInside`.
                let peaksInside = first.time + log(peak / epsilon) / decayRate
                if peaksInside - first.spacing > limit { return nil }
                var n = ((peaksInside - first.time) / first.spacing).rounded(.down)
                // Turning points closer than a part in 2^50 of the time: the answer is within one of them.
                guard n < 0x1p50 else { return peaksInside <= limit ? peaksInside : nil }
                let phase = firstTurningPhase(w)
                let turn = { (n: Double) in (phase + n * Double.pi) / w }
                while n > 0, !outside(turn(n)) { n -= 1 }
                while outside(turn(n + 1)) { n += 1 }
                low = turn(n)
                high = turn(n + 1)
            }
        } else if let turn = turningPoint(atOrAfter: 0) {
            if outside(turn.time) { low = turn.time } else { high = turn.time }
        }
        var end = high ?? max(2 * low, 1 / decayRate)
        if high == nil {
            // Past the last turning point |1 - x| only falls.
            while outside(end) {
                if end >= limit { return nil }
                end = min(2 * end, limit)
            }
        }
        while true {
            let mid = (low + end) / 2
            if mid <= low || mid >= end { break }
            if outside(mid) { low = mid } else { end = mid }
        }
        return end <= limit ? end : nil
    }
}
