import Primitives
import SceneModel
import Testing

/// `transition.interaction` built in Swift, where any Double fits: the same
/// errors a file gets at the same places (a NaN velocity, times that do not
/// increase, an empty gesture), and a gesture that leaves 0...1 progress is a
/// warning naming the point, not an error: progress is clamped and it renders.
@Suite struct InteractionValueTests {
    /// 200 pt wide, 100 pt high: along x, progress is translation / 200; along y, / 100.
    let scene = Scene(canvas: CanvasSpec(width: 200, height: 100), from: View(), to: View())
    let at = "transition.interaction"

    func driven(_ interaction: InteractionSpec) -> Scene { scene.with { $0.transition.interaction = interaction } }

    func problems(_ scene: Scene, _ severity: SceneProblem.Severity) -> [String] {
        SceneValidator.problems(in: scene).filter { $0.severity == severity }.map { "\($0.place): \($0.message)" }
    }

    @Test func soundInteractionsHaveNoProblems() {
        let sound: [InteractionSpec] = [
            InteractionSpec(points: [(0, 0)]),
            // 0 and the full width are progress 0 and 1 exactly: inside, no warning.
            InteractionSpec(points: [(0, 0), (0.1, 200)], releaseVelocity: -1_000_000, rule: .navigationTransitions),
            InteractionSpec(axis: .negativeX, points: [(0, 0), (0.2, -200)], releaseVelocity: 1_000_000, rule: .liquid),
            InteractionSpec(axis: .y, points: [(0, 100), (600, 0)], rule: .threshold(0, velocity: 0)),
            InteractionSpec(axis: .negativeY, points: [(0, -100)], rule: .threshold(1, velocity: 10)),
        ]
        for interaction in sound {
            #expect(SceneValidator.problems(in: driven(interaction)) == [], "\(interaction)")
        }
    }

    @Test func badNumbersAreNamedAtThePlacesAFileWouldName() {
        #expect(
            problems(driven(InteractionSpec(gesture: [])), .error) == [
                "\(at).gesture: an empty gesture: give the finger's "
                    + "[time, translation] points, at least one"
            ])
        #expect(
            problems(driven(InteractionSpec(points: [(0, 0), (0.25, 50)], releaseVelocity: .nan)), .error) == [
                "\(at).releaseVelocity: not a number (NaN)"
            ])
        #expect(
            problems(driven(InteractionSpec(points: [(0, 0)], releaseVelocity: -.infinity)), .error) == [
                "\(at).releaseVelocity: -inf is not a finite number"
            ])
        #expect(
            problems(driven(InteractionSpec(points: [(0, 0), (0.3, 10), (0.2, 20), (0.2, 30), (0.5, 40)])), .error) == [
                "\(at).gesture[2][0]: 0.2 s is not after the point before it (0.3 s); gesture times must increase",
                "\(at).gesture[3][0]: 0.2 s is not after the point before it (0.2 s); gesture times must increase",
            ])
        // A point that is not a number is named, and the order is checked around it (0.1 after 0.2 at [3]).
        #expect(
            problems(driven(InteractionSpec(points: [(0, 0), (.nan, 10), (0.2, .infinity), (0.1, 30)])), .error) == [
                "\(at).gesture[1][0]: not a number (NaN)",
                "\(at).gesture[2][1]: inf is not a finite number",
                "\(at).gesture[3][0]: 0.1 s is not after the point before it (0.2 s); gesture times must increase",
            ])
        #expect(
            problems(driven(InteractionSpec(points: [(-1, 0), (601, 2e6)], rule: .threshold(.nan, velocity: 10.5))), .error) == [
                "\(at).gesture[0][0]: -1 is out of range 0...600",
                "\(at).gesture[1][0]: 601 is out of range 0...600",
                "\(at).gesture[1][1]: 2000000 is out of range -1000000...1000000",
                "\(at).rule.threshold: not a number (NaN)",
                "\(at).rule.velocity: 10.5 is out of range: must be at least 0 and at most 10",
            ])
    }

    @Test func aGestureOverTheLimitIsNamedOnce() {
        let count = SceneLimits.maximumGesturePoints + 1
        let points = (0 ..< count).map { InteractionSpec.GesturePoint(time: Double($0) / 100, translation: 0) }
        #expect(problems(driven(InteractionSpec(gesture: points)), .error) == ["\(at).gesture: \(count) points; the limit is \(count - 1)"])
    }

    /// Progress = sign x translation / extent leaves 0...1: the first point below 0 and the first above 1
    /// are named at their translation, each with how many more points do the same; they are warnings only.
    @Test func aGestureLeavingZeroToOneProgressWarnsAtThePoint() {
        // Along x over 200 pt: -20 is progress -0.1 (at [1]; [2] too); 250 is 1.25 (at [4]).
        let wide = driven(InteractionSpec(points: [(0, 0), (0.1, -20), (0.2, -5), (0.3, 100), (0.4, 250)]))
        #expect(problems(wide, .error) == [])
        #expect(
            problems(wide, .warning) == [
                "\(at).gesture[1][1]: translation -20 pt is progress -0.1 of the 200-pt canvas width (axis x): the transition "
                    + "holds at 0 there (and at 1 more point)",
                "\(at).gesture[4][1]: translation 250 pt is progress 1.25 of the 200-pt canvas width (axis x): the transition "
                    + "holds at 1 there",
            ])
        // Along -y over 100 pt a finger moving down (positive) goes backwards: 30 is progress -0.3;
        // -100.5 is 1.005, past the end.
        let upward = driven(InteractionSpec(axis: .negativeY, points: [(0, 30), (0.1, 0), (0.2, -100.5), (0.3, -101), (0.4, -150)]))
        #expect(
            problems(upward, .warning) == [
                "\(at).gesture[0][1]: translation 30 pt is progress -0.3 of the 100-pt canvas height (axis -y): the transition "
                    + "holds at 0 there",
                "\(at).gesture[2][1]: translation -100.5 pt is progress 1.005 of the 100-pt canvas height (axis -y): the "
                    + "transition holds at 1 there (and at 2 more points)",
            ])
    }
}
