import Foundation

/// Every curve a scene may name. Most are cubic Béziers with published
/// control points (`bezier`); Elastic and Bounce cannot be drawn by one
/// Bézier and are easings.net's closed forms (`closedFormValue`).
///
/// Sources: Core Animation's named functions (`linear`, `easeIn`, `easeOut`,
/// `easeInOut`, `default`); Shift's curve (`standard`, shared with Hero);
/// Hero's `deceleration`, `acceleration`, `sharp`, `easeOutBack`
/// (`CAMediaTimingFunction+Hero.swift`); LiquidTransition's easings.net
/// Béziers for Sine to Back (`Liquid/Timing.swift`, the control points
/// easings.net published for CSS); easings.net's functions for Elastic and
/// Bounce (LiquidTransition ships Bounce In and Out; InOut and Elastic are
/// easings.net's own, the family the contract names).
public enum NamedCurve: String, Sendable, Hashable, CaseIterable {
    case standard, linear, easeIn, easeOut, easeInOut, `default`
    case deceleration, acceleration, sharp, easeOutBack
    case easeInSine, easeOutSine, easeInOutSine
    case easeInQuad, easeOutQuad, easeInOutQuad
    case easeInCubic, easeOutCubic, easeInOutCubic
    case easeInQuart, easeOutQuart, easeInOutQuart
    case easeInQuint, easeOutQuint, easeInOutQuint
    case easeInExpo, easeOutExpo, easeInOutExpo
    case easeInCirc, easeOutCirc, easeInOutCirc
    case easeInBack, easeInOutBack
    case easeInElastic, easeOutElastic, easeInOutElastic
    case easeInBounce, easeOutBounce, easeInOutBounce

    /// The control points of a Bézier curve; nil for Elastic and Bounce.
    public var bezier: TimingCurve? {
        switch self {
        case .standard: return .shift
        case .linear: return .linear
        case .easeIn: return TimingCurve(0.42, 0, 1, 1)
        case .easeOut: return TimingCurve(0, 0, 0.58, 1)
        case .easeInOut: return TimingCurve(0.42, 0, 0.58, 1)
        case .default: return TimingCurve(0.25, 0.1, 0.25, 1)
        case .deceleration: return TimingCurve(0, 0, 0.2, 1)
        case .acceleration: return TimingCurve(0.4, 0, 1, 1)
        case .sharp: return TimingCurve(0.4, 0, 0.6, 1)
        case .easeOutBack: return TimingCurve(0.175, 0.885, 0.32, 1.275)
        case .easeInSine: return TimingCurve(0.47, 0, 0.745, 0.715)
        case .easeOutSine: return TimingCurve(0.39, 0.575, 0.565, 1)
        case .easeInOutSine: return TimingCurve(0.445, 0.05, 0.55, 0.95)
        case .easeInQuad: return TimingCurve(0.55, 0.085, 0.68, 0.53)
        case .easeOutQuad: return TimingCurve(0.25, 0.46, 0.45, 0.94)
        case .easeInOutQuad: return TimingCurve(0.455, 0.03, 0.515, 0.955)
        case .easeInCubic: return TimingCurve(0.55, 0.055, 0.675, 0.19)
        case .easeOutCubic: return TimingCurve(0.215, 0.61, 0.355, 1)
        case .easeInOutCubic: return TimingCurve(0.645, 0.045, 0.355, 1)
        case .easeInQuart: return TimingCurve(0.895, 0.03, 0.685, 0.22)
        case .easeOutQuart: return TimingCurve(0.165, 0.84, 0.44, 1)
        case .easeInOutQuart: return TimingCurve(0.77, 0, 0.175, 1)
        case .easeInQuint: return TimingCurve(0.755, 0.05, 0.855, 0.06)
        case .easeOutQuint: return TimingCurve(0.23, 1, 0.32, 1)
        case .easeInOutQuint: return TimingCurve(0.86, 0, 0.07, 1)
        case .easeInExpo: return TimingCurve(0.95, 0.05, 0.795, 0.035)
        case .easeOutExpo: return TimingCurve(0.19, 1, 0.22, 1)
        case .easeInOutExpo: return TimingCurve(1, 0, 0, 1)
        case .easeInCirc: return TimingCurve(0.6, 0.04, 0.98, 0.335)
        case .easeOutCirc: return TimingCurve(0.075, 0.82, 0.165, 1)
        case .easeInOutCirc: return TimingCurve(0.785, 0.135, 0.15, 0.86)
        case .easeInBack: return TimingCurve(0.6, -0.28, 0.735, 0.045)
        case .easeInOutBack: return TimingCurve(0.68, -0.55, 0.265, 1.55)
        case .easeInElastic, .easeOutElastic, .easeInOutElastic, .easeInBounce, .easeOutBounce, .easeInOutBounce: return nil
        }
    }

    /// easings.net's function at unit time `x` (clamped to 0...1, NaN as 0,
    /// as `Easing` does; past 1 the Bounce parabolas climb without bound), for
    /// the curves without a Bézier; nil for the others.
    public func closedFormValue(at x: Double) -> Double? {
        guard bezier == nil else { return nil }
        if !(x > 0) { return 0 }
        if x >= 1 { return 1 }
        switch self {
        case .easeInElastic:
            return -pow(2, 10 * x - 10) * sin((10 * x - 10.75) * (2 * Double.pi / 3))
        case .easeOutElastic:
            return pow(2, -10 * x) * sin((10 * x - 0.75) * (2 * Double.pi / 3)) + 1
        case .easeInOutElastic:
            let c5 = 2 * Double.pi / 4.5
            if x < 0.5 { return -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2 }
            return pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5) / 2 + 1
        case .easeInBounce: return 1 - Self.bounceOut(1 - x)
        case .easeInOutBounce:
            return x < 0.5 ? (1 - Self.bounceOut(1 - 2 * x)) / 2 : (1 + Self.bounceOut(2 * x - 1)) / 2
        case .easeOutBounce: return Self.bounceOut(x)
        default: return nil
        }
    }

    /// Four parabolic arcs of decreasing height (easings.net's `easeOutBounce`).
    static func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625
        let d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 {
            let u = x - 1.5 / d1
            return n1 * u * u + 0.75
        }
        if x < 2.5 / d1 {
            let u = x - 2.25 / d1
            return n1 * u * u + 0.9375
        }
        let u = x - 2.625 / d1
        return n1 * u * u + 0.984375
    }
}
