import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// The way back plays keyframes backward: `Scene.reversed()` and a roundtrip's
/// dismiss evaluate every track at 1 - progress (LiquidTransition hands
/// `addCustomAnimation` 1 - p when dismissing), so with a linear curve the
/// way back at time t shows the way there at D - t. Values worked by hand.
@Suite struct KeyframesBackwardTests {
    typealias T = TimingEngineTests

    /// Alpha 0 -> 1 by a quarter of the way, then held; a step in y at the half.
    static let alpha = KeyframeTrack(.alpha, [KeyframeStop(at: 0, .number(0)), KeyframeStop(at: 0.25, .number(1)), KeyframeStop(at: 1, .number(1))])
    static let step = KeyframeTrack(
        .translate, [KeyframeStop(at: 0.5, .pair(0, 0)), KeyframeStop(at: 0.5, .pair(0, -40))])

    static func present(direction: TransitionDirection = .present) -> Scene {
        var k = view("k", [0, 0, 100, 100])
        k.shift.timing = TimingOptions(duration: 1, curve: .named(.linear), keyframes: [alpha, step])
        var s = scene(from: root("from", subviews: []), to: root("to", subviews: [k]), direction: direction)
        s.transition.timing.keyframes = [step]
        return s
    }

    @Test func reversedPlaysEachTrackAtOneMinusProgress() throws {
        let back = Self.present().reversed()
        // The transition's default tracks turn too (k has its own, which replace them).
        #expect(back.transition.timing.keyframes.map(\.playsBackward) == [true])
        let k = try T.named("k", in: TransitionTimeline(scene: back))
        // Forward, alpha at p is 4p up to 0.25, then 1. Backward at t it is the forward value at 1 - t:
        // t 0 -> p 1 -> 1; t 0.875 -> p 0.125 -> 0.5; t 0.9375 -> p 0.0625 -> 0.25; t 1 -> p 0 -> 0.
        for (time, expected) in [(0.0, 1.0), (0.5, 1.0), (0.875, 0.5), (0.9375, 0.25), (1.0, 0.0)] {
            #expect(abs(T.state(k, at: time).alpha - expected) < 1e-12, "t \(time)")
        }
        // The step: forward y is 0 before p 0.5 and -40 from it on; backward it is -40 until t 0.5
        // (p 0.5 itself is still -40, the step's instant mirrored exactly) and 0 after.
        #expect(T.state(k, at: 0.49).transform.translate.y == -40)
        #expect(T.state(k, at: 0.5).transform.translate.y == -40)
        #expect(T.state(k, at: 0.51).transform.translate.y == 0)
    }

    @Test func aKeyframedPresentAndItsReverseAreMirrorImages() throws {
        let there = try T.named("k", in: TransitionTimeline(scene: Self.present()))
        let back = try T.named("k", in: TransitionTimeline(scene: Self.present().reversed()))
        for i in 0 ... 20 {
            let t = Double(i) / 20
            #expect(abs(T.state(back, at: t).alpha - T.state(there, at: 1 - t).alpha) < 1e-12, "t \(t)")
        }
    }

    @Test func reversingTwiceGivesTheScenesKeyframesBackExactly() {
        let s = Self.present()
        #expect(s.reversed().reversed() == s)
        #expect(Self.present(direction: .dismiss).reversed().reversed() == Self.present(direction: .dismiss))
        // The tracks as played on the way back: stops mirrored, last first.
        let played = s.reversed().transition.timing.keyframes[0].stopsAsPlayed
        #expect(played.map(\.at) == [0.5, 0.5])
        #expect(played.map(\.value) == [.pair(0, -40), .pair(0, 0)])
    }

    @Test func aRoundtripsDismissPlaysTheKeyframesBackward() throws {
        let t = TransitionTimeline(scene: Self.present(direction: .roundtrip))
        let there = try T.named("k", in: t, segment: 0)
        let back = try T.named("k", in: t, segment: 1)
        // Dismissing, k leaves: at t 0.875 its alpha is the present's at 0.125, 0.5.
        #expect(abs(T.state(back, at: 0.875).alpha - 0.5) < 1e-12)
        for i in 0 ... 20 {
            let time = Double(i) / 20
            #expect(abs(T.state(back, at: time).alpha - T.state(there, at: 1 - time).alpha) < 1e-12, "t \(time)")
        }
    }
}
