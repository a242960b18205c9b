import SceneModel
import Testing
@testable import TransitionEngine

/// `InteractionPlan` with numbers worked by hand: each rule on each side of its
/// thresholds, in progress and in velocity, the completion's speed and length,
/// the release velocity, the axis, and the finger's progress between points.
/// Unless a test says otherwise the extent is 400 pt and T = 0.5 s.
@Suite struct InteractionPlanTests {
    static func plan(
        _ rule: InteractionRule, _ points: [(time: Double, translation: Double)], velocity: Double? = nil,
        axis: InteractionSpec.Axis = .x, extent: Double = 400, duration: Double = 0.5
    ) -> InteractionPlan {
        let spec = InteractionSpec(axis: axis, points: points, releaseVelocity: velocity, rule: rule)
        return InteractionPlan(spec, extent: extent, transitionDuration: duration)
    }

    /// A finger that reaches `translation` at 0.5 s and lets go there.
    static func release(_ rule: InteractionRule, at translation: Double, velocity: Double, duration: Double = 0.5) -> InteractionPlan {
        plan(rule, [(0, 0), (0.5, translation)], velocity: velocity, duration: duration)
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance }

    // MARK: easyTransitions: finish iff (p > 0.5 or v > 100) and v > -5; p kept in 0...0.99

    @Test func easyTransitionsFinishesPastHalfwayWhenTheFingerIsSlow() {
        // The last segment (0.5 s, 196 pt) -> (1 s, 202 pt): v = 6 / 0.5 = 12 pt/s, slow; p = 202 / 400 = 0.505.
        let past = Self.plan(.easyTransitions, [(0, 0), (0.5, 196), (1, 202)])
        #expect(past.releaseProgress == 0.505 && past.releaseVelocity == 12 && past.velocityFromGesture)
        #expect(past.outcome == .finish && past.completionSpeed == 1)
        // D = (1 - 0.505) x 0.5 / 1 = 0.2475 s.
        #expect(Self.close(past.completionDuration, 0.2475))
        // 200 pt is p = 0.5 exactly, not past it; 198 pt is 0.495. Both cancel, taking p x T back: 0.25 s, 0.2475 s.
        let half = Self.plan(.easyTransitions, [(0, 0), (0.5, 194), (1, 200)])
        #expect(half.releaseProgress == 0.5 && half.outcome == .cancel && Self.close(half.completionDuration, 0.25))
        let short = Self.plan(.easyTransitions, [(0, 0), (0.5, 192), (1, 198)])
        #expect(short.releaseProgress == 0.495 && short.outcome == .cancel && Self.close(short.completionDuration, 0.2475))
    }

    @Test func easyTransitionsFinishesAFlickFasterThan100PointsASecond() {
        // p = 40 / 400 = 0.1, far short of half: only v > 100 can finish it.
        #expect(Self.release(.easyTransitions, at: 40, velocity: 100.5).outcome == .finish)
        #expect(Self.release(.easyTransitions, at: 40, velocity: 100).outcome == .cancel)
        #expect(Self.release(.easyTransitions, at: 40, velocity: 99.5).outcome == .cancel)
        // The flick finishes the other 0.9 at speed 1: 0.9 x 0.5 = 0.45 s.
        #expect(Self.close(Self.release(.easyTransitions, at: 40, velocity: 100.5).completionDuration, 0.45))
    }

    @Test func easyTransitionsCancelsAFarDragWhoseFingerMovesBackAtFivePointsASecond() {
        // p = 320 / 400 = 0.8, past half: v > -5 alone decides.
        #expect(Self.release(.easyTransitions, at: 320, velocity: -4.9).outcome == .finish)
        #expect(Self.release(.easyTransitions, at: 320, velocity: -5).outcome == .cancel)
        #expect(Self.release(.easyTransitions, at: 320, velocity: -5.1).outcome == .cancel)
        // Cancelling runs p x T = 0.8 x 0.5 = 0.4 s back.
        #expect(Self.close(Self.release(.easyTransitions, at: 320, velocity: -5).completionDuration, 0.4))
    }

    @Test func easyTransitionsKeepsProgressBelow99Percent() {
        // 600 pt is p = 1.5: kept at 0.99, so finishing still has 0.01 x 0.5 = 0.005 s to play.
        let far = Self.plan(.easyTransitions, [(0, 0), (0.5, 600)])
        #expect(far.releaseProgress == 0.99 && far.outcome == .finish)
        #expect(Self.close(far.completionDuration, 0.005))
        #expect(far.progress(at: 0.5) == 0.99 && far.progress(at: 2) == 0.99)
        // At 0.34 s the finger is at 408 pt (p 1.02, kept at 0.99); at 0.25 s at 300 pt, p = 0.75, under the limit.
        #expect(far.progress(at: 0.34) == 0.99 && far.progress(at: 0.25) == 0.75)
        // The other rules keep progress in 0...1.
        #expect(Self.plan(.navigationTransitions, [(0, 0), (0.5, 600)]).releaseProgress == 1)
    }

    // MARK: navigationTransitions: finish iff v > 675 or (p >= 0.2 and v > -200); speed min(max(0.99, v / 800), 2.25)

    @Test func navigationTransitionsFinishesAFlickFasterThan675PointsASecond() {
        // p = 40 / 400 = 0.1 < 0.2: only the flick can finish it.
        #expect(Self.release(.navigationTransitions, at: 40, velocity: 676).outcome == .finish)
        #expect(Self.release(.navigationTransitions, at: 40, velocity: 675).outcome == .cancel)
        #expect(Self.release(.navigationTransitions, at: 40, velocity: 674).outcome == .cancel)
    }

    @Test func navigationTransitionsFinishesAFifthOfTheWayUnlessTheFingerGoesBackFast() {
        // 80 pt is p = 0.2 exactly, which is enough (>=); 79 pt (0.1975) is not.
        #expect(Self.release(.navigationTransitions, at: 80, velocity: 0).outcome == .finish)
        #expect(Self.release(.navigationTransitions, at: 79, velocity: 0).outcome == .cancel)
        // At p = 0.2 the finger may move back, but slower than 200 pt/s.
        #expect(Self.release(.navigationTransitions, at: 80, velocity: -199).outcome == .finish)
        #expect(Self.release(.navigationTransitions, at: 80, velocity: -200).outcome == .cancel)
        #expect(Self.release(.navigationTransitions, at: 80, velocity: -201).outcome == .cancel)
    }

    @Test func navigationTransitionsCompletesFasterTheFasterTheFinger() {
        // p = 200 / 400 = 0.5 finishes for every v below; half of T = 0.5 s is left: 0.25 s at speed 1.
        let slow = Self.release(.navigationTransitions, at: 200, velocity: 400)
        let quick = Self.release(.navigationTransitions, at: 200, velocity: 1000)
        let fastest = Self.release(.navigationTransitions, at: 200, velocity: 4000)
        #expect(slow.outcome == .finish && quick.outcome == .finish && fastest.outcome == .finish)
        // 400 / 800 = 0.5, raised to 0.99: 0.25 / 0.99 = 0.252525... s.
        #expect(slow.completionSpeed == 0.99 && Self.close(slow.completionDuration, 0.25 / 0.99))
        #expect(Self.close(slow.completionDuration, 0.2525252525252525))
        // 1000 / 800 = 1.25: 0.25 / 1.25 = 0.2 s.
        #expect(quick.completionSpeed == 1.25 && Self.close(quick.completionDuration, 0.2))
        // 4000 / 800 = 5, capped at 2.25: 0.25 / 2.25 = 0.111... s.
        #expect(fastest.completionSpeed == 2.25 && Self.close(fastest.completionDuration, 1.0 / 9))
        // A cancel moving back at 400 pt/s: -0.5 raised to 0.99, p x T / 0.99 = 0.25 / 0.99 s.
        let back = Self.release(.navigationTransitions, at: 200, velocity: -400)
        #expect(back.outcome == .cancel && back.completionSpeed == 0.99 && Self.close(back.completionDuration, 0.25 / 0.99))
    }

    // MARK: liquid: finish iff (finger stopped ? p > 0.4 : last speed > 0); the rest eased by (0.25, 0.1, 0.25, 1)

    @Test func liquidDecidesAStoppedFingerOnFortyPercent() {
        // The last segment is flat: the finger stopped, v = 0.
        func stopped(at translation: Double) -> InteractionPlan {
            Self.plan(.liquid, [(0, 0), (0.5, translation), (0.75, translation)])
        }
        #expect(stopped(at: 164).releaseVelocity == 0)
        #expect(stopped(at: 164).outcome == .finish)  // p = 0.41
        #expect(stopped(at: 160).outcome == .cancel)  // p = 0.4, not past it
        #expect(stopped(at: 156).outcome == .cancel)  // p = 0.39
    }

    @Test func liquidDecidesAMovingFingerByItsDirectionAlone() {
        // p = 0.1 moving forward at 1 pt/s finishes; p = 0.9 moving back at 1 pt/s cancels.
        #expect(Self.release(.liquid, at: 40, velocity: 1).outcome == .finish)
        #expect(Self.release(.liquid, at: 360, velocity: -1).outcome == .cancel)
        // From the gesture: 370 -> 360 pt in 0.1 s is -100 pt/s, so p = 0.9 cancels.
        let back = Self.plan(.liquid, [(0, 0), (0.5, 370), (0.6, 360)])
        #expect(back.releaseProgress == 0.9 && back.outcome == .cancel)
        // Speed 1 whatever the finger did: p x T = 0.9 x 0.5 = 0.45 s back.
        #expect(back.completionSpeed == 1 && Self.close(back.completionDuration, 0.45))
    }

    @Test func liquidEasesTheRemainingProgressByCoreAnimationsDefaultCurve() {
        // p = 100 / 400 = 0.25 moving forward, T = 0.4 s: D = 0.75 x 0.4 = 0.3 s after the release at 0.5 s.
        let liquid = Self.release(.liquid, at: 100, velocity: 50, duration: 0.4)
        #expect(liquid.outcome == .finish && Self.close(liquid.completionDuration, 0.3))
        // Half the completion's time, 0.65 s: the curve (0.25, 0.1, 0.25, 1) at x = 0.5. x(s) = 0.75 s - 0.75 s^2
        // + s^3 = 0.5 at s = 0.5859..., and y(s) = 0.3 s (1 - s)^2 + 3 s^2 (1 - s) + s^3 = 0.8024033875848569
        // (bisected in Python). Segment time (0.25 + 0.75 x 0.80240339) x 0.4 = 0.34072102 s.
        let eased = 0.8024033875848569
        #expect(Self.close(liquid.segmentTime(at: 0.65), (0.25 + 0.75 * eased) * 0.4, 1e-9))
        #expect(Self.close(liquid.segmentTime(at: 0.65), 0.3407210162754571, 1e-9))
        // A rule that does not ease is half-way there in time as well: (0.25 + 0.75 x 0.5) x 0.4 = 0.25 s.
        let linear = Self.release(.easyTransitions, at: 100, velocity: 150, duration: 0.4)
        #expect(linear.outcome == .finish && Self.close(linear.segmentTime(at: 0.65), 0.25))
        // Both end exactly at T once the completion is over (0.8 s; later, held there).
        #expect(liquid.segmentTime(at: 1) == 0.4 && linear.segmentTime(at: 1) == 0.4)
    }

    // MARK: threshold(t, velocity: w): finish iff p + w v / extent > t; a completion of 1/120 s or less is instant

    @Test func aThresholdWeighsTheReleaseVelocityIntoTheProgress() {
        // p = 100 / 400 = 0.25, w = 1: v = 100 pt/s projects 0.25 + 100 / 400 = 0.5, not past 0.5.
        let rule = InteractionRule.threshold(0.5, velocity: 1)
        #expect(Self.release(rule, at: 100, velocity: 101).outcome == .finish)  // 0.5025
        #expect(Self.release(rule, at: 100, velocity: 100).outcome == .cancel)  // 0.5
        #expect(Self.release(rule, at: 100, velocity: 99).outcome == .cancel)  // 0.4975
        // w = 2 doubles the velocity's part: 0.25 + 2 x 50 / 400 = 0.5; 51 pt/s gives 0.505.
        let doubled = InteractionRule.threshold(0.5, velocity: 2)
        #expect(Self.release(doubled, at: 100, velocity: 51).outcome == .finish)
        #expect(Self.release(doubled, at: 100, velocity: 50).outcome == .cancel)
        #expect(Self.release(rule, at: 100, velocity: 101).completionSpeed == 1)
    }

    @Test func aThresholdWithoutVelocityWeightDecidesOnPositionAlone() {
        let rule = InteractionRule.threshold(0.5, velocity: 0)
        // p = 0.5025 finishes even moving back fast; p = 0.5 cancels even flicked forward.
        #expect(Self.release(rule, at: 201, velocity: -1000).outcome == .finish)
        #expect(Self.release(rule, at: 200, velocity: 1000).outcome == .cancel)
        // Another threshold: p = 0.3 passes 0.25 and fails 0.3.
        #expect(Self.release(.threshold(0.25, velocity: 0), at: 120, velocity: 0).outcome == .finish)
        #expect(Self.release(.threshold(0.3, velocity: 0), at: 120, velocity: 0).outcome == .cancel)
    }

    @Test func aThresholdSnapsACompletionOfAHundredTwentiethOfASecondOrLess() {
        let rule = InteractionRule.threshold(0.5, velocity: 0)
        // T = 1 s. p = 398 / 400 = 0.995: 0.005 s left <= 1/120 s, so the transition ends at once.
        let snap = Self.release(rule, at: 398, velocity: 0, duration: 1)
        #expect(snap.outcome == .finish && snap.completionDuration == 0)
        #expect(snap.segmentTime(at: 0.5) == 0.995 && snap.segmentTime(at: 0.5001) == 1)
        // p = 0.98: 0.02 s left, more than 1/120 (0.00833) s, so it plays.
        let plays = Self.release(rule, at: 392, velocity: 0, duration: 1)
        #expect(Self.close(plays.completionDuration, 0.02))
        // Cancelling from p = 0.005 (2 pt): 0.005 s back, snapped too.
        let back = Self.release(rule, at: 2, velocity: 0, duration: 1)
        #expect(back.outcome == .cancel && back.completionDuration == 0 && back.segmentTime(at: 0.6) == 0)
        // Only Hero snaps: EasyTransitions at p = 0.99 (its limit) plays its 0.01 s.
        #expect(Self.close(Self.release(.easyTransitions, at: 398, velocity: 0, duration: 1).completionDuration, 0.01))
    }

    // MARK: The release velocity, the axis, and the finger's progress over time

    @Test func theReleaseVelocityIsTheLastSegmentsSlopeUnlessGiven() {
        // 40 -> 70 pt between 0.25 and 0.5 s: 30 / 0.25 = 120 pt/s; the first segment (160 pt/s) does not count.
        let measured = Self.plan(.easyTransitions, [(0, 0), (0.25, 40), (0.5, 70)])
        #expect(measured.releaseVelocity == 120 && measured.velocityFromGesture && measured.releaseTime == 0.5)
        let given = Self.plan(.easyTransitions, [(0, 0), (0.25, 40), (0.5, 70)], velocity: 50)
        #expect(given.releaseVelocity == 50 && !given.velocityFromGesture)
        // One point has no segment: v = 0, released at its time.
        let tap = Self.plan(.easyTransitions, [(0.2, 240)])
        #expect(tap.releaseVelocity == 0 && tap.velocityFromGesture && tap.releaseTime == 0.2)
        // p = 0.6 > 0.5 and 0 > -5: it finishes.
        #expect(tap.releaseProgress == 0.6 && tap.outcome == .finish)
    }

    @Test func aNegativeAxisTurnsTheFingerRoundAndYMeasuresTheHeight() {
        let canvas = CanvasSpec(width: 400, height: 800, scale: 1)
        #expect(InteractionSpec(axis: .x, gesture: []).extent(of: canvas) == 400)
        #expect(InteractionSpec(axis: .negativeX, gesture: []).extent(of: canvas) == 400)
        #expect(InteractionSpec(axis: .y, gesture: []).extent(of: canvas) == 800)
        #expect(InteractionSpec(axis: .negativeY, gesture: []).extent(of: canvas) == 800)
        // -x: a finger 100 pt to the left is p = 0.25, moving left at 200 pt/s drives forward (+200).
        let left = Self.plan(.easyTransitions, [(0, 0), (0.5, -100)], axis: .negativeX)
        #expect(left.releaseProgress == 0.25 && left.releaseVelocity == 200)
        // A given velocity is turned round too: -300 pt/s on -x is +300 forward.
        #expect(Self.plan(.easyTransitions, [(0, 0), (0.5, -100)], velocity: -300, axis: .negativeX).releaseVelocity == 300)
        // y over an 800 pt extent: 200 pt down is p = 0.25.
        #expect(Self.plan(.easyTransitions, [(0, 0), (0.5, 200)], axis: .y, extent: 800).releaseProgress == 0.25)
        // -y: moving down (+100) is backwards: p = -0.125, kept at 0, and v = -200 cancels.
        let down = Self.plan(.easyTransitions, [(0, 0), (0.5, 100)], axis: .negativeY, extent: 800)
        #expect(down.releaseProgress == 0 && down.releaseVelocity == -200 && down.outcome == .cancel)
        #expect(down.completionDuration == 0)  // nothing to take back from p = 0
    }

    @Test func progressFollowsTheFingerLinearlyBetweenPointsAndHoldsOutside() {
        // From 0.25 s: 40 pt, 140 pt at 0.5 s, 120 pt at 0.75 s (extent 400, navigationTransitions: no 0.99 limit).
        let p = Self.plan(.navigationTransitions, [(0.25, 40), (0.5, 140), (0.75, 120)])
        #expect(p.progress(at: 0) == 0.1 && p.progress(at: 0.25) == 0.1)  // before the first point: its 40 pt
        #expect(p.progress(at: 0.375) == 0.225)  // half-way 40 -> 140: 90 pt
        #expect(p.progress(at: 0.5) == 0.35)  // 140 pt
        #expect(p.progress(at: 0.625) == 0.325)  // half-way 140 -> 120: 130 pt
        #expect(p.progress(at: 0.75) == 0.3 && p.progress(at: 5) == 0.3)  // after the last: its 120 pt
        // While the finger is down the transition is at p x T: 0.225 x 0.5 = 0.1125 s.
        #expect(p.segmentTime(at: 0.375) == 0.1125 && p.segmentTime(at: 0.75) == 0.15)
    }

    @Test func progressIsClampedToTheRulesRange() {
        // -80 pt, then 480 pt (p -0.2, then 1.2), over 1 s.
        let over = Self.plan(.navigationTransitions, [(0, -80), (1, 480)])
        #expect(over.progress(at: 0) == 0)
        #expect(over.progress(at: 0.125) == 0)  // -80 + 560 / 8 = -10 pt: still below 0
        #expect(over.progress(at: 0.5) == 0.5)  // -80 + 280 = 200 pt
        #expect(over.progress(at: 0.875) == 1)  // -80 + 490 = 410 pt: past 1
        let easy = Self.plan(.easyTransitions, [(0, -80), (1, 480)])
        #expect(easy.progress(at: 0.5) == 0.5 && easy.progress(at: 0.875) == 0.99)
    }

    @Test func theCompletionRunsLinearlyFromTheReleaseToTheEnd() {
        // easyTransitions, p = 0.6 at 0.5 s, v = 480 pt/s: finish, D = 0.4 x 0.5 = 0.2 s; T p = 0.3 s at release.
        let p = Self.plan(.easyTransitions, [(0, 0), (0.5, 240)])
        #expect(p.outcome == .finish && Self.close(p.completionDuration, 0.2) && p.endTime == 0.5)
        #expect(p.segmentTime(at: 0.5) == 0.3)
        // A quarter of D later (0.55 s): (0.6 + 0.4 x 0.25) x 0.5 = 0.35 s; from 0.7 s on: T.
        #expect(Self.close(p.segmentTime(at: 0.55), 0.35))
        #expect(p.segmentTime(at: 0.75) == 0.5 && p.segmentTime(at: 3) == 0.5)
        #expect(Self.close(p.length, 0.7))
        // Cancelled from p = 0.3 (120 pt moving back): D = 0.15 s, half of it (0.575 s) at 0.15 x 0.5 = 0.075 s.
        let back = Self.plan(.easyTransitions, [(0, 0), (0.25, 160), (0.5, 120)])
        #expect(back.outcome == .cancel && Self.close(back.completionDuration, 0.15) && back.endTime == 0)
        #expect(Self.close(back.segmentTime(at: 0.575), 0.075))
        #expect(back.segmentTime(at: 0.7) == 0)
    }
}
