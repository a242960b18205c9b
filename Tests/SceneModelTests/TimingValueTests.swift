import Primitives
import SceneModel
import Testing

/// The timing rules hold for scenes built in Swift exactly as for files:
/// each bad value at the place a file would name, including what only
/// Swift can build (a value of another kind, a property's track twice).
@Suite struct TimingValueTests {
    func problems(_ view: View, transition: (Scene) -> Scene = { $0 }) -> [String] {
        let scene = transition(Scene(canvas: CanvasSpec(width: 100, height: 100), from: View(), to: View { view }))
        return SceneValidator.problems(in: scene).map { "\($0.place): \($0.message)" }
    }

    let card = View(frame: Rect(x: 0, y: 0, width: 50, height: 20))
    let at = "to.subviews[0].shift"

    @Test func soundTimingHasNoProblems() {
        let view = card.duration(0.5).delay(0.1).spring(response: 0.4, dampingFraction: 0.7).cascade().arc()
            .keyframes(.alpha([0: 1, 0.5: 0, 0.5: 1, 1: 1]), .scale([0: 1, 1: 2]), .backgroundColor([0: .white, 1: .black]))
        #expect(problems(view) == [])
        for curve in NamedCurve.allCases { #expect(problems(card.curve(curve)) == []) }
        for spring in [SpringSpec.swiftUIDefault, .heroDefault, .durationBounce(duration: 0.5, bounce: 0.3), .dampingRatio(0.8)] {
            #expect(problems(card.curve(.spring(spring))) == [])
        }
    }

    @Test func numbersOutOfRangeAreNamedAtTheirPlaces() {
        let view = card.duration(.nan).delay(-1).curve(.cubicBezier(0, .infinity, 1.01, -101)).cascade(delta: 700).arc(-0.5)
        #expect(
            problems(view) == [
                "\(at).duration: not a number (NaN)",
                "\(at).delay: -1 is out of range: must be at least 0 and at most 600",
                "\(at).curve.cubicBezier[1]: inf is not a finite number",
                "\(at).curve.cubicBezier[2]: 1.01 is out of range 0...1",
                "\(at).curve.cubicBezier[3]: -101 is out of range -100...100",
                "\(at).cascade.delta: 700 is out of range: must be at least 0 and at most 600",
                "\(at).arc: -0.5 is out of range: must be at least 0 and at most 1",
            ])
    }

    @Test func springsAreCheckedBySpellingThenBySettling() {
        let spring = "\(at).curve.spring"
        let cases: [(View, [String])] = [
            (
                card.spring(response: -1, dampingFraction: .nan),
                [
                    "\(spring).response: -1 is out of range: must be greater than 0", "\(spring).dampingFraction: not a number (NaN)",
                ]
            ),
            (
                card.spring(duration: 0, bounce: -1),
                [
                    "\(spring).duration: 0 is out of range: must be greater than 0",
                    "\(spring).bounce: -1 is out of range: must be greater than -1 and less than 1",
                ]
            ),
            (
                card.spring(stiffness: -1, damping: -0.5, mass: -2, initialVelocity: .infinity),
                [
                    "\(spring).stiffness: -1 is out of range: must be greater than 0",
                    "\(spring).damping: -0.5 is negative damping: the spring would gain energy; give 0 or more",
                    "\(spring).mass: -2 is out of range: must be greater than 0",
                    "\(spring).initialVelocity: inf is not a finite number",
                ]
            ),
            // Sound numbers, but the spring rings (or creeps) past the longest clip.
            (
                card.spring(stiffness: 100, damping: 0.01),
                [
                    "\(spring): this spring does not settle (|1 - x| < 0.001) within 600 s; give it more damping"
                ]
            ),
            (card.spring(stiffness: 100, damping: 0.5, mass: 1, initialVelocity: 0), []),
            (card.spring(dampingRatio: .nan), ["\(spring).dampingRatio: not a number (NaN)"]),
            (
                card.spring(dampingRatio: -1),
                [
                    "\(spring).dampingRatio: -1 is out of range: must be at least 0.01 "
                        + "(below it the spring rings over a hundred times before it settles)"
                ]
            ),
            (card.spring(dampingRatio: SceneLimits.minimumDampingRatio), []),
            (card.spring(dampingRatio: SceneLimits.maximumDampingRatio), []),
        ]
        for (view, expected) in cases {
            #expect(problems(view) == expected, "\(String(describing: view.shift.timing.curve))")
        }
    }

    /// The settling rule is `Spring.settlingTime` at the clip limit: a spring
    /// just inside it is accepted, one just outside refused.
    @Test func theSettlingLimitIsTheLongestClip() throws {
        // Under-damped with m = 1, k = 1: settling time is close to ln(1000) / lambda.
        func spring(_ damping: Double) -> SpringSpec { .physical(stiffness: 1, damping: damping, mass: 1, initialVelocity: 0) }
        var low = 0.001
        var high = 0.1
        for _ in 0 ..< 60 {
            let mid = (low + high) / 2
            if Spring(spring(mid)).settlingTime(limit: SceneLimits.maximumSeconds) == nil { low = mid } else { high = mid }
        }
        #expect(Spring(spring(high)).settlingTime(limit: SceneLimits.maximumSeconds).map { $0 > 590 } == true)
        #expect(problems(card.curve(.spring(spring(high * 1.01)))) == [])
        #expect(problems(card.curve(.spring(spring(low * 0.99)))).count == 1)
    }

    @Test func keyframesAreCheckedAgainstTheirProperty() {
        let k = "\(at).keyframes"
        let view = card.keyframes(
            .alpha([0.5: 1, 0: 0.5, 1: 2]),
            .opacity([0: 1]),
            KeyframeTrack(.cornerRadius, [KeyframeStop(at: 0, .pair(1, 2))]),
            KeyframeTrack(.translate, [KeyframeStop(at: .nan, .color(.white))]),
            KeyframeTrack(.backgroundColor, [KeyframeStop(at: 1, .number(1))]),
            .shadowOpacity([:]),
            .cornerRadius([0: 1]),
            .shadowOffset([0: Size(width: 2e6, height: 0)]),
            .shadowColor([0: RGBAColor(red: -1, green: 0, blue: 0)]))
        #expect(
            problems(view) == [
                "\(k).alpha[1][0]: 0 is less than the stop before it (0.5); stops must not decrease",
                "\(k).alpha[2][1]: 2 is out of range: must be at least 0 and at most 1",
                "\(k).opacity: alpha and opacity are one UIKit property (UIView.alpha is the layer's opacity); give keyframes for one",
                "\(k).cornerRadius[0][1]: cornerRadius keyframes take a number, not a pair",
                "\(k).translate[0][0]: not a number (NaN)",
                "\(k).translate[0][1]: translate keyframes take a pair, not a colour",
                "\(k).backgroundColor[0][1]: backgroundColor keyframes take a colour, not a number",
                "\(k).shadowOpacity: no keyframes; give at least one [stop, value] pair",
                "\(k).cornerRadius: cornerRadius has keyframes twice; give each property one track",
                "\(k).shadowOffset[0][1][0]: 2000000 is out of range -1000000...1000000",
                "\(k).shadowColor[0][1][0]: -1 is out of range 0...1",
            ])
        let limit = SceneLimits.maximumKeyframes
        let long = KeyframeTrack(.rotate, (0 ... limit).map { KeyframeStop(at: 1, .number(Double($0))) })
        #expect(problems(card.keyframes(long)) == ["\(k).rotate: \(limit + 1) keyframes; the limit is \(limit)"])
        #expect(problems(card.keyframes(KeyframeTrack(.rotate, Array(long.stops.dropLast())))) == [])
    }

    /// A scale keyframe may be one factor for both axes, in Swift as in a file (`"scale": [[0, 2]]`).
    @Test func aScaleKeyframeTakesOneFactorOrAPair() {
        let k = "\(at).keyframes"
        let one = KeyframeTrack(.scale, [KeyframeStop(at: 0, .number(2)), KeyframeStop(at: 1, .pair(1, 3))])
        #expect(problems(card.keyframes(one)) == [])
        let huge = KeyframeTrack(.scale, [KeyframeStop(at: 0, .number(2000))])
        #expect(problems(card.keyframes(huge)) == ["\(k).scale[0][1]: 2000 is out of range: must be at least -1000 and at most 1000"])
    }

    @Test func theTransitionsTimingIsCheckedAtTransition() {
        let found = problems(card) { scene in
            scene.duration(-1).spring(dampingRatio: 20).cascade(delta: .infinity).keyframes(.position([2: Point(x: 0, y: 0)]))
        }
        #expect(
            found == [
                "transition.duration: -1 is out of range: must be at least 0 and at most 600",
                "transition.curve.spring.dampingRatio: 20 is out of range: must be at least 0.01 and at most 10",
                "transition.cascade.delta: inf is not a finite number",
                "transition.keyframes.position[0][0]: 2 is out of range: must be at least 0 and at most 1",
            ])
    }
}
