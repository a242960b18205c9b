import Primitives
import SceneModel
import Testing
import TransitionEngine

/// `Scene.reversed()` and how holds become whole frames: the rules the README
/// and docs/scene-format.md state, worked by hand.
@Suite struct DirectionAndHoldTests {
    func twoScreens(_ direction: TransitionDirection) -> Scene {
        let list = root("list", color: .white, subviews: [view("list.card", [20, 100, 360, 120], id: "card")])
        let detail = root("detail", color: .black, subviews: [view("detail.card", [0, 0, 400, 300], id: "card")])
        return scene(from: list, to: detail, direction: direction).hold(before: 0.2, after: 0.7)
    }

    @Test func reversingAPresentSwapsTheScreensTheDirectionAndTheHolds() {
        let present = twoScreens(.present)
        let back = present.reversed()
        #expect(back.from == present.to)
        #expect(back.to == present.from)
        #expect(back.transition.direction == .dismiss)
        #expect(back.transition.holdBefore == 0.7)
        #expect(back.transition.holdAfter == 0.2)
        #expect(present.reversed().reversed() == present)
        #expect(twoScreens(.dismiss).reversed().transition.direction == .present)
        #expect(twoScreens(.dismiss).reversed().reversed() == twoScreens(.dismiss))
    }

    @Test func aRoundtripKeepsItsScreensAndSwapsItsHolds() {
        let roundtrip = twoScreens(.roundtrip)
        let reversed = roundtrip.reversed()
        #expect(reversed.from == roundtrip.from)
        #expect(reversed.to == roundtrip.to)
        #expect(reversed.transition.direction == .roundtrip)
        #expect(reversed.transition.holdBefore == 0.7)
        #expect(reversed.reversed() == roundtrip)
    }

    @Test func holdsRoundToTheNearestWholeFrameHalvesUp() {
        func stills(_ before: Double, _ after: Double, fps: Double) -> [Int] {
            let s = twoScreens(.present).hold(before: before, after: after).fps(fps)
            let phases = TransitionTimeline(scene: s).phases
            return [TransitionTimeline.Phase.Kind.holdBefore, .holdAfter].map { kind in
                phases.first { $0.kind == kind }?.frameCount ?? 0
            }
        }
        // 0.1 s x 24 fps = 2.4 frames -> 2; 0.125 s x 24 = 3 exactly -> 3.
        #expect(stills(0.1, 0.125, fps: 24) == [2, 3])
        // A half rounds up (away from zero): 0.5 s x 25 fps = 12.5 -> 13, 0.02 s x 25 = 0.5 -> 1.
        #expect(stills(0.5, 0.02, fps: 25) == [13, 1])
        // 0.02 s x 24 fps = 0.48 -> 0: no hold at all.
        #expect(stills(0.02, 0, fps: 24) == [0, 0])
        // The motion is not a still: 0.265 s x 24 = 6.36 -> ceil 7, plus the last frame = 8 frames.
        let motion = TransitionTimeline(scene: scene(from: root("a", subviews: []), to: root("b", subviews: []), fps: 24))
        #expect(motion.frameCount == 8)
    }

    @Test func theSummaryListsEveryPhaseEndToEnd() {
        var s = twoScreens(.roundtrip).hold(before: 0.1, after: 0.125).fps(24)
        s.transition.roundtripPause = 0.1
        let timeline = TransitionTimeline(scene: s)
        let summary = TransitionSummary(timeline, scene: s)
        #expect(summary.phases.map(\.name) == ["holdBefore", "present", "pause", "dismiss", "holdAfter"])
        #expect(summary.phases.map(\.frameCount).reduce(0, +) == summary.frameCount)
        #expect(summary.phases.first?.firstFrame == 0)
        #expect(summary.phases.last?.lastFrame == summary.frameCount - 1)
        for (a, b) in zip(summary.phases, summary.phases.dropFirst()) { #expect(b.firstFrame == a.lastFrame + 1) }
        #expect(summary.phases.map(\.requestedSeconds) == [0.1, nil, 0.1, nil, 0.125])
        #expect(summary.phases[0].frameCount == 2)
        #expect(summary.phases[2].frameCount == 2)
        #expect(summary.phases[4].frameCount == 3)
    }
}
