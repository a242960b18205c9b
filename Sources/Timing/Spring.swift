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
/// Turning points, the envelope, ranges of values and the settling time are
/// in SpringBounds.swift.
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
        // NaN for a response that is not positive: squared, a negative one would make a valid
        // stiffness, and with a negative fraction a valid spring.
        let w0 = response > 0 ? 2 * Double.pi / response : .nan
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

    enum Regime {
        case under(w: Double)
        case critical
        case over(r1: Double, r2: Double)
    }

    var regime: Regime {
        let w0 = naturalFrequency
        let lambda = decayRate
        // Within a part in 10^9 of critical the under- and over-damped forms
        // divide by almost 0; the critical form is exact to that precision.
        if abs(lambda - w0) <= 1e-9 * w0 { return .critical }
        if lambda < w0 { return .under(w: (w0 * w0 - lambda * lambda).squareRoot()) }
        let r2 = -lambda - (lambda * lambda - w0 * w0).squareRoot()
        // r1 r2 = w0^2, while -lambda + sqrt(lambda^2 - w0^2) cancels for heavy damping (at zeta = 40000
        // the slow root, which sets the settling time, put it off by 2.4e-7 of itself).
        return .over(r1: stiffness / mass / r2, r2: r2)
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
}
