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
        var isMonotone: Bool {
            switch self {
            case .bezier(let b): return (0 ... 1).contains(b.y1) && (0 ... 1).contains(b.y2)
            case .closedForm: return false
            case .spring(let s, _): return s.isMonotone
            }
        }

        case bezier(TimingCurve)
        case closedForm(NamedCurve)
        case spring(Spring, settlingTime: Double)
    }

    /// `isMonotone`, kept: `value(at:)` asks it on every call.
    private let staysInUnitRange: Bool

    /// Shift's curve.
    public static let standard = Easing(.standard)!

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
            // A dampingRatio spring's own seconds are arbitrary (w0 = 1; the view's duration scales them):
            // ratio 0.01 settles after 688 of them. The scene's limit is on the ratio, not on these.
            let limit: Double = if case .dampingRatio = spec { 1e9 } else { 600 }
            guard let settling = spring.settlingTime(limit: limit), settling > 0 else { return nil }
            kind = .spring(spring, settlingTime: settling)
        }
        staysInUnitRange = kind.isMonotone
    }

    /// Progress at `unitTime`, clamped to 0...1 (NaN counts as 0): exactly 0 at 0 and 1 at 1.
    public func value(at unitTime: Double) -> Double {
        if !(unitTime > 0) { return 0 }
        if unitTime >= 1 { return 1 }
        let v: Double
        switch kind {
        case .bezier(let bezier): v = bezier.value(at: unitTime)
        case .closedForm(let name): v = name.closedFormValue(at: unitTime) ?? unitTime
        case .spring(let spring, let settling): v = spring.value(at: unitTime * settling)
        }
        // A monotone curve never leaves 0...1; rounding in its evaluation may by an ulp, and `range`
        // promises its ends.
        return staysInUnitRange ? min(max(v, 0), 1) : v
    }

    /// Whether progress never decreases as time goes on. A Bézier whose control
    /// y lie in 0...1 never does (its y'(s) is a quadratic Bézier through 3 y1,
    /// 3 (y2 - y1), 3 (1 - y2), never negative since (y1 - y2)^2 <= y1 (1 - y2)),
    /// and nor does a spring that never overshoots (`Spring.isMonotone`).
    public var isMonotone: Bool { staysInUnitRange }

    /// Bounds that hold every value `value(at:)` takes at unit times between `a`
    /// and `b` (in either order, clamped to 0...1, NaN counting as 0 as in
    /// `value(at:)`). Exact for Béziers and springs (the ends and the turning
    /// points between them), the decaying envelope for Elastic, 0...1 for
    /// Bounce; widened by a billionth so rounding in the evaluation cannot
    /// step outside.
    public func range(from a: Double, to b: Double) -> ClosedRange<Double> {
        let lo = min(Self.unit(a), Self.unit(b))
        let hi = max(Self.unit(a), Self.unit(b))
        var lower = min(value(at: lo), value(at: hi))
        var upper = max(value(at: lo), value(at: hi))
        // A monotone curve between two times lies between its values there, up to the rounding of its
        // evaluation (the slack below); it never leaves 0...1, so a range reaching 0 or 1 stops there
        // exactly, and a large snapshot's density at the end of Shift's curve stays what v1 computed.
        if isMonotone {
            let slack = 1e-9
            return max(lower - slack, 0) ... min(upper + slack, 1)
        }
        let inner: ClosedRange<Double>
        switch kind {
        case .bezier(let c):
            inner = c.range(from: lo, to: hi)
        case .spring(let spring, let settling):
            // Includes x at the settling time, within 0.001 of the 1 that unit time 1 shows.
            inner = spring.range(from: lo * settling, to: hi * settling)
        case .closedForm(let name):
            inner = Self.closedFormRange(name, lo, hi)
        }
        lower = min(lower, inner.lowerBound)
        upper = max(upper, inner.upperBound)
        let slack = 1e-9 * max(1, abs(lower), abs(upper))
        return (lower - slack) ... (upper + slack)
    }

    /// A unit time in 0...1, NaN as 0.
    private static func unit(_ u: Double) -> Double { u > 0 ? min(u, 1) : 0 }

    /// easings.net's Elastic curves are 2^(...) times a sine: that power bounds
    /// how far they stray (from 0 on the way in, from 1 on the way out).
    private static func closedFormRange(_ name: NamedCurve, _ lo: Double, _ hi: Double) -> ClosedRange<Double> {
        switch name {
        case .easeInElastic:
            let e = pow(2, 10 * hi - 10)
            return -e ... e
        case .easeOutElastic:
            let e = pow(2, -10 * lo)
            return (1 - e) ... (1 + e)
        case .easeInOutElastic:
            // The first half strays at most `first` from 0, the second `second` from 1.
            let first = pow(2, 20 * min(hi, 0.5) - 10) / 2
            let second = pow(2, -20 * max(lo, 0.5) + 10) / 2
            if hi < 0.5 { return -first ... first }
            if lo >= 0.5 { return (1 - second) ... (1 + second) }
            return min(-first, 1 - second) ... max(first, 1 + second)
        default:
            return 0 ... 1
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
