import Foundation

/// One view's curve, ready to sample: progress as a function of unit time
/// (0 when the view starts, 1 when its duration is up).
///
/// A spring is scaled so that its settling time falls at unit time 1: a
/// spring that lasts its own settling time plays at its natural speed, one
/// given a duration keeps its shape in that time. It is cut at 1, where it is
/// within `Spring.settlingTolerance` of the target.
public struct Easing: Sendable, Hashable {
    public let curve: CurveSpec
    private let kind: Kind

    private enum Kind: Sendable, Hashable {
        case bezier(TimingCurve)
        case closedForm(NamedCurve)
        case spring(Spring, settlingTime: Double)
    }

    /// Shift's curve.
    public static let standard = Easing(bezier: .shift)

    private init(bezier: TimingCurve) {
        curve = .cubicBezier(bezier)
        kind = .bezier(bezier)
    }

    /// Nil only for a spring that does not settle (`Spring.settlingTime`);
    /// `SceneValidator` refuses those before any work.
    public init?(_ curve: CurveSpec) {
        self.curve = curve
        switch curve {
        case .named(let name):
            if let bezier = name.bezier { kind = .bezier(bezier) } else { kind = .closedForm(name) }
        case .cubicBezier(let bezier):
            kind = .bezier(bezier)
        case .spring(let spec):
            let spring = Spring(spec)
            guard let settling = spring.settlingTime(), settling > 0 else { return nil }
            kind = .spring(spring, settlingTime: settling)
        }
    }

    /// Progress at `unitTime`, clamped to 0...1 (NaN counts as 0): exactly 0 at 0 and 1 at 1.
    public func value(at unitTime: Double) -> Double {
        if !(unitTime > 0) { return 0 }
        if unitTime >= 1 { return 1 }
        switch kind {
        case .bezier(let bezier): return bezier.value(at: unitTime)
        case .closedForm(let name): return name.closedFormValue(at: unitTime) ?? unitTime
        case .spring(let spring, let settling): return spring.value(at: unitTime * settling)
        }
    }

    /// Whether progress never decreases as time goes on.
    public var isMonotone: Bool {
        switch kind {
        case .bezier(let b): return (0 ... 1).contains(b.y1) && (0 ... 1).contains(b.y2)
        case .closedForm: return false
        case .spring(let s, _): return s.dampingRatio >= 1 && s.initialVelocity >= 0
        }
    }

    /// Bounds that hold every value the curve takes at unit times in `a...b`
    /// (clamped to 0...1): the end values for a monotone curve, otherwise
    /// what the curve's form allows (a Bézier stays inside its control
    /// points' hull; a spring and an elastic curve inside their decaying envelopes).
    public func range(from a: Double, to b: Double) -> ClosedRange<Double> {
        let lo = min(max(a, 0), 1)
        let hi = max(min(max(b, 0), 1), lo)
        if isMonotone { return value(at: lo) ... value(at: hi) }
        switch kind {
        case .bezier(let c):
            return min(0, c.y1, c.y2) ... max(1, c.y1, c.y2)
        case .spring(let spring, let settling):
            let e = spring.envelope(at: lo * settling)
            return (1 - e) ... (1 + e)
        case .closedForm(let name):
            switch name {
            case .easeInElastic:
                let e = pow(2, 10 * hi - 10)
                return -e ... e
            case .easeOutElastic:
                let e = pow(2, -10 * lo)
                return (1 - e) ... (1 + e)
            case .easeInOutElastic:
                return -0.5 ... 1.5
            default:
                return 0 ... 1
            }
        }
    }
}

extension CurveSpec {
    /// How long a view with this curve lasts when the scene gives it no
    /// duration: a spring's own settling time for the spellings that fix it;
    /// nil for Bézier and named curves and for `dampingRatio` springs, which
    /// take the view's duration (Shift's formula).
    public var naturalDuration: Double? {
        guard case .spring(let spec) = self else { return nil }
        if case .dampingRatio = spec { return nil }
        return Spring(spec).settlingTime()
    }
}
