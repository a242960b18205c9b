import Foundation
import SceneModel
import Timing

/// What a scripted finger does to a transition (`transition.interaction`):
/// where it holds the transition while it moves, what the rule decides on
/// release, and how the transition then completes. Times are seconds of the
/// clip's interactive part ("wall" time, the finger's clock) or of the
/// transition ("segment" time, 0...T); the timeline maps frames to wall time.
///
/// While the finger moves, the transition is seeked, not played: every view
/// shows its state at p x T, with its own delay and curve, as Hero's
/// `update(progress)` and UIKit's UIPercentDrivenInteractiveTransition
/// (which sets the container layer's timeOffset) do. On release the
/// transition runs again from p x T to T (finish) or back to 0 (cancel), at
/// the rule's completion speed, still on the views' own curves; only
/// LiquidTransition eases its remaining progress once more, with its
/// animator's default timing, because its PercentAnimator does.
///
/// Every rule is one case of `InteractionRule`, decided in `decide` alone.
public struct InteractionPlan: Sendable, Equatable {
    public enum Outcome: String, Sendable, Codable { case finish, cancel }

    public let rule: InteractionRule
    /// Points of finger travel that make progress 1: the canvas width or height.
    public let extent: Double
    /// The transition's duration T: progress p shows every view at p x T.
    public let transitionDuration: Double
    /// When the finger lets go: the last gesture point's time.
    public let releaseTime: Double
    /// Progress at release, as the rule sees it (kept in 0...1, or 0...0.99 for EasyTransitions).
    public let releaseProgress: Double
    /// Points per second along the driving direction at release (positive drives forward).
    public let releaseVelocity: Double
    /// Whether `releaseVelocity` is the last gesture segment's slope (no velocity given).
    public let velocityFromGesture: Bool
    public let outcome: Outcome
    /// The remaining motion plays this many times faster than the transition (UIKit's completionSpeed).
    public let completionSpeed: Double
    /// Seconds from release until the transition rests at its end (T) or start (0).
    public let completionDuration: Double
    /// The rule's test with the numbers that decided it, for `info`.
    public let reason: String

    private let gesture: [InteractionSpec.GesturePoint]
    private let sign: Double
    private let progressLimit: Double
    private let easing: TimingCurve

    /// Hero's progress runner finishes at once what would take no longer than this (HeroTransition+Complete).
    static let heroSnap = 1.0 / 120

    /// `interaction` should be valid (`SceneValidator`): a gesture of at least one point, times increasing.
    public init(_ interaction: InteractionSpec, extent: Double, transitionDuration: Double) {
        rule = interaction.rule
        self.extent = extent
        self.transitionDuration = transitionDuration
        gesture = interaction.gesture
        sign = interaction.axis.sign
        progressLimit = interaction.rule == .easyTransitions ? 0.99 : 1
        let last = interaction.gesture.last ?? InteractionSpec.GesturePoint(time: 0, translation: 0)
        releaseTime = last.time
        if let given = interaction.releaseVelocity {
            releaseVelocity = sign * given
            velocityFromGesture = false
        } else {
            velocityFromGesture = true
            let n = interaction.gesture.count
            if n >= 2 {
                let (a, b) = (interaction.gesture[n - 2], interaction.gesture[n - 1])
                releaseVelocity = sign * (b.translation - a.translation) / (b.time - a.time)
            } else {
                releaseVelocity = 0
            }
        }
        let p = Self.clamp(sign * last.translation / extent, to: progressLimit)
        releaseProgress = p
        let decision = Self.decide(interaction.rule, progress: p, velocity: releaseVelocity, extent: extent)
        outcome = decision.finish ? .finish : .cancel
        completionSpeed = decision.speed
        reason = decision.reason
        easing = decision.easesCompletion ? NamedCurve.default.bezier! : .linear
        let remaining = (decision.finish ? 1 - p : p) * transitionDuration / decision.speed
        if case .threshold = interaction.rule, remaining <= Self.heroSnap {
            completionDuration = 0
        } else {
            completionDuration = remaining
        }
    }

    /// How long the interactive part lasts: the drag, then the completion.
    public var length: Double { releaseTime + completionDuration }

    /// Where the transition rests once complete: T when finished, 0 when cancelled.
    public var endTime: Double { outcome == .finish ? transitionDuration : 0 }

    /// The finger's progress `wall` seconds after it touched (before the first
    /// point, the first point's; after the last, the last's), in the rule's range.
    public func progress(at wall: Double) -> Double {
        Self.clamp(sign * translation(at: wall) / extent, to: progressLimit)
    }

    /// The transition's time `wall` seconds into the interactive part.
    public func segmentTime(at wall: Double) -> Double {
        guard wall > releaseTime else { return progress(at: wall) * transitionDuration }
        guard completionDuration > 0 else { return endTime }
        let fraction = easing.value(at: min((wall - releaseTime) / completionDuration, 1))
        let target = outcome == .finish ? 1.0 : 0.0
        return (releaseProgress + (target - releaseProgress) * fraction) * transitionDuration
    }

    /// The gesture's translation at `wall`, linear between points.
    func translation(at wall: Double) -> Double {
        guard let first = gesture.first, let last = gesture.last else { return 0 }
        if wall <= first.time { return first.translation }
        if wall >= last.time { return last.translation }
        // The first point after `wall`: a binary search, the gesture may hold thousands.
        var (low, high) = (1, gesture.count - 1)
        while low < high {
            let mid = (low + high) / 2
            if gesture[mid].time > wall { high = mid } else { low = mid + 1 }
        }
        let (a, b) = (gesture[low - 1], gesture[low])
        return a.translation + (b.translation - a.translation) * (wall - a.time) / (b.time - a.time)
    }

    static func clamp(_ p: Double, to limit: Double) -> Double { p.isFinite ? min(max(p, 0), limit) : 0 }

    struct Decision {
        var finish: Bool
        var speed = 1.0
        var easesCompletion = false
        var reason: String
    }

    /// The one place each rule's numbers live (research/ANCHORS.md, section 2).
    static func decide(_ rule: InteractionRule, progress p: Double, velocity v: Double, extent: Double) -> Decision {
        let ps = format(p, 3)
        let vs = format(v, 1)
        func said(_ test: Bool) -> String { test ? "yes" : "no" }
        switch rule {
        case .easyTransitions:
            let (farEnough, fast, notBack) = (p > 0.5, v > 100, v > -5)
            let finish = (farEnough || fast) && notBack
            return Decision(
                finish: finish,
                reason: "(p \(ps) > 0.5: \(said(farEnough)), or v \(vs) pt/s > 100: \(said(fast))) and v > -5: \(said(notBack))")
        case .navigationTransitions:
            let (flick, farEnough, notBack) = (v > 675, p >= 0.2, v > -200)
            let finish = flick || (farEnough && notBack)
            let speed = min(max(0.99, v / 800), 2.25)
            return Decision(
                finish: finish, speed: speed,
                reason: "v \(vs) pt/s > 675: \(said(flick)), or (p \(ps) >= 0.2: \(said(farEnough)) and v > -200: "
                    + "\(said(notBack))); completion speed min(max(0.99, v / 800), 2.25) = \(format(speed, 3))")
        case .liquid:
            // PercentAnimator clamps the last speed (progress per second) to magnitude 1 both ways, so
            // only its sign is left, and the completion runs at speed 1 whatever the finger did.
            let speed = v / extent
            let finish = speed == 0 ? p > 0.4 : speed > 0
            let test = speed == 0 ? "finger stopped, p \(ps) > 0.4: \(said(p > 0.4))" : "last speed \(format(speed, 3)) /s > 0: \(said(finish))"
            return Decision(finish: finish, easesCompletion: true, reason: test + "; remaining progress eased by Timing.default")
        case .threshold(let threshold, let weight):
            let projected = p + weight * v / extent
            return Decision(
                finish: projected > threshold,
                reason: "p \(ps) + \(format(weight, 3)) s x v \(vs) pt/s / \(format(extent, 1)) pt = \(format(projected, 3)) > "
                    + "\(format(threshold, 3)): \(said(projected > threshold))")
        }
    }

    static func format(_ value: Double, _ digits: Int) -> String {
        let text = String(format: "%.\(digits)f", value)
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }
}
