/// A view's timing curve as a scene spells it: a named curve, a cubic Bézier
/// through two control points, or a spring.
public enum CurveSpec: Sendable, Hashable {
    case named(NamedCurve)
    case cubicBezier(TimingCurve)
    case spring(SpringSpec)

    /// Shift's curve, the default for every view (`NamedCurve.standard`).
    public static let standard = CurveSpec.named(.standard)

    /// How `info` and messages name the curve: `standard`, `cubicBezier(0.4, 0, 0.2, 1)`,
    /// `spring(response: 0.5, dampingFraction: 0.825)`.
    public var description: String {
        let n = { (v: Double) in v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        switch self {
        case .named(let name): return name.rawValue
        case .cubicBezier(let c): return "cubicBezier(\(n(c.x1)), \(n(c.y1)), \(n(c.x2)), \(n(c.y2)))"
        case .spring(let s):
            switch s {
            case .response(let r, let f): return "spring(response: \(n(r)), dampingFraction: \(n(f)))"
            case .durationBounce(let d, let b): return "spring(duration: \(n(d)), bounce: \(n(b)))"
            case .physical(let k, let c, let m, let v):
                return "spring(stiffness: \(n(k)), damping: \(n(c)), mass: \(n(m)), initialVelocity: \(n(v)))"
            case .dampingRatio(let z): return "spring(dampingRatio: \(n(z)))"
            }
        }
    }
}

/// A damped spring in one of the four ways the systems our users come from
/// spell it. All but `dampingRatio` fix the spring's own length (its settling
/// time); `dampingRatio` takes the view's duration (UIViewPropertyAnimator).
public enum SpringSpec: Sendable, Hashable {
    /// SwiftUI's `spring(response:dampingFraction:)`: k = (2 pi / response)^2 m,
    /// c = 4 pi dampingFraction m / response, with m = 1.
    case response(response: Double, dampingFraction: Double)
    /// SwiftUI's `spring(duration:bounce:)`: dampingFraction = 1 - bounce for
    /// bounce >= 0, 1 / (1 + bounce) below; response = duration.
    case durationBounce(duration: Double, bounce: Double)
    /// CASpringAnimation's (and Hero's `.spring(stiffness:damping:)`):
    /// initialVelocity in units of the whole distance per second.
    case physical(stiffness: Double, damping: Double, mass: Double, initialVelocity: Double)
    /// UIViewPropertyAnimator's `init(duration:dampingRatio:)`: a spring of
    /// this damping ratio that settles at the view's duration.
    case dampingRatio(Double)

    /// Apple's defaults: SwiftUI's `spring()` (0.5, 0.825); CASpringAnimation's
    /// stiffness 100, damping 10, mass 1; Hero's string form 250 / 30.
    public static let swiftUIDefault = SpringSpec.response(response: 0.5, dampingFraction: 0.825)
    public static let heroDefault = SpringSpec.physical(stiffness: 250, damping: 30, mass: 1, initialVelocity: 0)
}
