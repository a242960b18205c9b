import Foundation

/// A damped harmonic oscillator pulled from 0 to 1: mass m on a spring of
/// stiffness k with damping c, starting at 0 with velocity v0 (whole
/// distances per second). With w0 = sqrt(k/m), lambda = c/(2m) and
/// zeta = c/(2 sqrt(km)):
/// - under-damped (zeta < 1), w = sqrt(w0^2 - lambda^2):
///   x(t) = 1 - e^(-lambda t) (cos wt + ((lambda - v0)/w) sin wt)
/// - critically damped (zeta = 1): x(t) = 1 - e^(-lambda t) (1 + (lambda - v0) t)
/// - over-damped (zeta > 1), roots r1,2 = -lambda +- sqrt(lambda^2 - w0^2):
///   x(t) = 1 - (a e^(r1 t) + (1 - a) e^(r2 t)), a = (-v0 - r2)/(r1 - r2).
///
/// Over-damped springs are the sum of two exponentials, not clamped to
/// critical damping as SwiftUI's `Spring(mass:stiffness:damping:)` does by
/// default: every spelling that reaches them (CASpringAnimation's damping,
/// SwiftUI's negative bounce, a `dampingRatio` above 1) is a physical spring
/// in its own system, and clamping would make any damping above critical
/// look the same.
public struct Spring: Sendable, Hashable {
    public let stiffness: Double
    public let damping: Double
    public let mass: Double
    public let initialVelocity: Double

    /// How close to 1 a spring must stay to count as settled (ours: Core
    /// Animation's cut-off is unpublished; SwiftUI's settling estimate uses the same 0.001).
    public static let settlingTolerance = 0.001

    public init(stiffness: Double, damping: Double, mass: Double = 1, initialVelocity: Double = 0) {
        self.stiffness = stiffness
        self.damping = damping
        self.mass = mass
        self.initialVelocity = initialVelocity
    }

    /// The spring a spelling names. `dampingRatio` gives the spring of that
    /// ratio with w0 = 1 (m = 1, k = 1): its shape, which `Easing` scales to the view's duration.
    public init(_ spec: SpringSpec) {
        switch spec {
        case .response(let response, let fraction):
            self.init(responseSeconds: response, dampingFraction: fraction)
        case .durationBounce(let duration, let bounce):
            self.init(responseSeconds: duration, dampingFraction: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
        case .physical(let k, let c, let m, let v):
            self.init(stiffness: k, damping: c, mass: m, initialVelocity: v)
        case .dampingRatio(let zeta):
            self.init(stiffness: 1, damping: 2 * zeta, mass: 1)
        }
    }

    private init(responseSeconds response: Double, dampingFraction fraction: Double) {
        let w0 = 2 * Double.pi / response
        self.init(stiffness: w0 * w0, damping: 4 * Double.pi * fraction / response, mass: 1)
    }

    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// lambda = c / 2m: how fast the motion decays.
    public var decayRate: Double { damping / (2 * mass) }
    /// zeta = c / (2 sqrt(km)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Whether the numbers make a spring that comes to rest: positive mass and
    /// stiffness, positive damping, all finite.
    public var isValid: Bool {
        [stiffness, damping, mass, initialVelocity].allSatisfy(\.isFinite) && stiffness > 0 && mass > 0 && damping > 0
    }

    private enum Regime { case under(w: Double), critical, over(r1: Double, r2: Double) }

    private var regime: Regime {
        let w0 = naturalFrequency
        let lambda = decayRate
        // Within a part in 10^9 of critical the under- and over-damped forms
        // divide by almost 0; the critical form is exact to that precision.
        if abs(lambda - w0) <= 1e-9 * w0 { return .critical }
        if lambda < w0 { return .under(w: (w0 * w0 - lambda * lambda).squareRoot()) }
        let root = (lambda * lambda - w0 * w0).squareRoot()
        return .over(r1: -lambda + root, r2: -lambda - root)
    }

    /// The displacement from the target, 1 - x(t), at `t` seconds.
    public func displacement(at t: Double) -> Double {
        let lambda = decayRate
        let v0 = initialVelocity
        switch regime {
        case .under(let w):
            return exp(-lambda * t) * (cos(w * t) + (lambda - v0) / w * sin(w * t))
        case .critical:
            return exp(-lambda * t) * (1 + (lambda - v0) * t)
        case .over(let r1, let r2):
            let a = (-v0 - r2) / (r1 - r2)
            return a * exp(r1 * t) + (1 - a) * exp(r2 * t)
        }
    }

    /// x(t): the spring's position at `t` seconds (0 at t = 0).
    public func value(at t: Double) -> Double { 1 - displacement(at: t) }

    /// A bound on |1 - x| from `t` on that never increases: the decaying
    /// envelope of the closed form.
    public func envelope(at t: Double) -> Double {
        let lambda = decayRate
        let v0 = initialVelocity
        switch regime {
        case .under(let w):
            return exp(-lambda * t) * (1 + ((lambda - v0) / w) * ((lambda - v0) / w)).squareRoot()
        case .critical:
            // e^(-lambda s)(1 + |lambda - v0| s) decreases once s > 1/lambda - 1/|lambda - v0|;
            // before that, its maximum over s >= t is at that turning point.
            let b = abs(lambda - v0)
            let turn = b > lambda ? 1 / lambda - 1 / b : 0
            let s = max(t, turn)
            return exp(-lambda * s) * (1 + b * s)
        case .over(let r1, let r2):
            let a = (-v0 - r2) / (r1 - r2)
            return abs(a) * exp(r1 * t) + abs(1 - a) * exp(r2 * t)
        }
    }

    /// The first time after which |1 - x| stays below `settlingTolerance`;
    /// nil when the spring does not come to rest (not `isValid`) or takes
    /// longer than `limit` seconds.
    public func settlingTime(limit: Double = 600) -> Double? {
        guard isValid else { return nil }
        let epsilon = Self.settlingTolerance
        // An upper bound: where the envelope drops below epsilon (doubling, then bisection).
        var high = 1 / max(decayRate, 1e-12)
        var steps = 0
        while envelope(at: high) >= epsilon {
            high *= 2
            steps += 1
            if high > 2 * limit || steps > 200 { return nil }
        }
        var low = 0.0
        for _ in 0 ..< 60 {
            let mid = (low + high) / 2
            if envelope(at: mid) >= epsilon { low = mid } else { high = mid }
        }
        // Walk back from the bound in steps far shorter than a period (and than
        // the decay time) to the last moment |1 - x| reaches epsilon, then bisect.
        var step = high / 4096
        if case .under(let w) = regime { step = min(step, 2 * Double.pi / w / 64) }
        var t = high
        while t > 0, abs(displacement(at: t)) < epsilon { t -= step }
        guard t > 0 else { return 0 }
        var inside = min(t + step, high)
        var outside = t
        for _ in 0 ..< 60 {
            let mid = (inside + outside) / 2
            if abs(displacement(at: mid)) < epsilon { inside = mid } else { outside = mid }
        }
        return inside <= limit ? inside : nil
    }
}
