import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// `TransitionTimeline` with a finger on the first segment: the drag's and the
/// completion's frames, the time and the view positions each frame shows,
/// worked by hand on the 400 x 800 canvas of `SceneBuilding` (extent 400 on x).
///
/// The worked example: a 100 x 100 card arriving from 100 pt to its left,
/// linear over 0.5 s (T = 0.5, the roots' 0.265 s end first), so the card's
/// top-left x is 200 s at segment time s. The finger: 0 pt at 0 s, 60 pt at
/// 0.25 s, 160 pt at 0.5 s (p = 0.4, v = 100 / 0.25 = 400 pt/s): easyTransitions
/// finishes (v > 100), in D = (1 - 0.4) x 0.5 = 0.3 s, so the interactive part is 0.8 s.
@Suite struct InteractionTimelineTests {
    static let forward: [(time: Double, translation: Double)] = [(0, 0), (0.25, 60), (0.5, 160)]
    /// Back to 40 pt at 0.5 s: p = 0.1, v = -80 pt/s, so easyTransitions cancels, in D = 0.1 x 0.5 = 0.05 s.
    static let backward: [(time: Double, translation: Double)] = [(0, 0), (0.25, 60), (0.5, 40)]

    static func linearCard(duration: Double = 0.5, delay: Double? = nil) -> View {
        TimingEngineTests.movingCard(TimingOptions(duration: duration, delay: delay, curve: .named(.linear)))
    }

    static func scene(
        _ card: View = linearCard(), gesture: [(time: Double, translation: Double)]?, rule: InteractionRule = .easyTransitions,
        direction: TransitionDirection = .present, fps: Double = 30
    ) -> Scene {
        var s = TransitionEngineTests.scene(
            from: root("from", subviews: []), to: root("to", subviews: [card]), direction: direction, fps: fps)
        s.transition.interaction = gesture.map { InteractionSpec(points: $0, rule: rule) }
        #expect(SceneValidator.problems(in: s).filter { $0.severity == .error }.isEmpty)
        return s
    }

    static func item(_ t: TransitionTimeline, frame: Int, _ label: String) throws -> DrawItem {
        try #require(t.arrangement(frame: frame).items.first { $0.label == label }, "no \(label) at frame \(frame)")
    }

    static func cardX(_ t: TransitionTimeline, frame: Int) throws -> Double { try item(t, frame: frame, "card").transform.tx }

    static func phases(_ t: TransitionTimeline) -> [(TransitionTimeline.Phase.Kind, Int, Int)] {
        t.phases.map { ($0.kind, $0.firstFrame, $0.frameCount) }
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    // MARK: Frames and times

    @Test func theDragAndTheCompletionHaveTheirFramesOnTheFingersClock() throws {
        // 30 fps: the drag is w = 0 ... 0.5 s, floor(0.5 x 30) + 1 = 16 frames; the whole is ceil(0.8 x 30) + 1 = 25.
        let t30 = TransitionTimeline(scene: Self.scene(gesture: Self.forward))
        #expect(t30.segments[0].duration == 0.5)
        #expect(t30.interaction?.outcome == .finish)
        #expect(Self.close(try #require(t30.interaction).completionDuration, 0.3))
        #expect(t30.frameCount == 25)
        #expect(Self.phases(t30).map(\.0) == [.drag, .completion])
        #expect(Self.phases(t30).map(\.1) == [0, 16] && Self.phases(t30).map(\.2) == [16, 9])
        // 60 fps: floor(0.5 x 60) + 1 = 31 drag frames of ceil(0.8 x 60) + 1 = 49.
        let t60 = TransitionTimeline(scene: Self.scene(gesture: Self.forward, fps: 60))
        #expect(t60.frameCount == 49 && Self.phases(t60).map(\.2) == [31, 18])
        // The cancel: 0.55 s, ceil(0.55 x 30) + 1 = 18 frames, 16 of them the drag's.
        let back = TransitionTimeline(scene: Self.scene(gesture: Self.backward))
        #expect(back.interaction?.outcome == .cancel && back.frameCount == 18 && Self.phases(back).map(\.2) == [16, 2])
        // What info lists: the drag, then the decision.
        #expect(TransitionSummary(t30).phases.map(\.name) == ["drag", "finish"])
        #expect(TransitionSummary(back).phases.map(\.name) == ["drag", "cancel"])
        #expect(TransitionSummary(back).interaction?.reason.contains("v > -5: no") == true)
    }

    @Test func dragFramesShowTheTransitionAtProgressTimesT() throws {
        let t = TransitionTimeline(scene: Self.scene(gesture: Self.forward))
        // Up to 0.25 s the finger is at 240 w pt, p = 0.6 w, s = 0.3 w; then at 400 w - 40 pt, p = w - 0.1, s = 0.5 w - 0.05.
        // Frame 6 (w = 0.2): s = 0.06, card x = 200 x 0.06 = 12. Frame 12 (w = 0.4): p = 0.3, s = 0.15, x = 30.
        // Frame 15 (w = 0.5, the release): p = 0.4, s = 0.2, x = 40.
        for (frame, time, x) in [(0, 0.0, 0.0), (6, 0.06, 12), (12, 0.15, 30), (15, 0.2, 40)] {
            let shown = t.segmentTime(ofFrame: frame)
            #expect(shown.segment == 0 && Self.close(shown.time, time), "frame \(frame)")
            #expect(Self.close(try Self.cardX(t, frame: frame), x), "frame \(frame)")
            #expect(try Self.item(t, frame: frame, "card").transform.ty == 0)
        }
        // At 60 fps frame 24 is the same instant as frame 12 at 30 (w = 0.4): the same picture.
        let t60 = TransitionTimeline(scene: Self.scene(gesture: Self.forward, fps: 60))
        #expect(Self.close(t60.segmentTime(ofFrame: 24).time, 0.15))
        #expect(Self.close(try Self.cardX(t60, frame: 24), 30))
    }

    @Test func aFinishedCompletionRunsOnToTAndEndsThereExactly() throws {
        let t = TransitionTimeline(scene: Self.scene(gesture: Self.forward))
        // Frame 16 (w = 16/30): f = (1/30) / 0.3 = 1/9, s = (0.4 + 0.6 / 9) x 0.5 = 0.2333..., x = 46.67.
        #expect(Self.close(t.segmentTime(ofFrame: 16).time, 0.7 / 3))
        #expect(Self.close(try Self.cardX(t, frame: 16), 140.0 / 3))
        // Frame 20 (w = 2/3): f = (1/6) / 0.3 = 5/9, s = (0.4 + 0.6 x 5/9) x 0.5 = 0.3667, x = 73.33.
        #expect(Self.close(t.segmentTime(ofFrame: 20).time, 1.1 / 3))
        #expect(Self.close(try Self.cardX(t, frame: 20), 220.0 / 3))
        // The last frame (24, w = 0.8) is T itself: the card in its place.
        #expect(t.segmentTime(ofFrame: 24) == (0, 0.5))
        #expect(try Self.item(t, frame: 24, "card").transform == .translation(100, 0))
        #expect(t.displayList(frame: 24) == t.displayList(segment: 0, time: 0.5))
    }

    @Test func aCancelledCompletionRunsBackAndEndsOnTheFirstFramesPicture() throws {
        let t = TransitionTimeline(scene: Self.scene(gesture: Self.backward))
        // Frame 12 (w = 0.4): 60 - 80 x 0.15 = 48 pt, p = 0.12, s = 0.06, x = 12 -- as at frame 6 on the way out.
        #expect(Self.close(try Self.cardX(t, frame: 12), 12))
        #expect(Self.close(try Self.cardX(t, frame: 6), 12))
        // Frame 16 (w = 16/30): f = (1/30) / 0.05 = 2/3, s = 0.1 x (1 - 2/3) x 0.5 = 0.01667, x = 3.33.
        #expect(Self.close(t.segmentTime(ofFrame: 16).time, 0.05 / 3))
        #expect(Self.close(try Self.cardX(t, frame: 16), 10.0 / 3))
        // Frame 17, the last: time 0 exactly, the picture of frame 0.
        #expect(t.segmentTime(ofFrame: 17) == (0, 0))
        #expect(try Self.cardX(t, frame: 17) == 0)
        #expect(t.displayList(frame: 17) == t.displayList(frame: 0))
    }

    @Test func aSnappedCompletionKeepsOneFrameTheEnd() throws {
        // Hero's threshold on position alone: 398 pt is p = 0.995 > 0.5, and the 0.005 x 0.5 = 0.0025 s left is under
        // 1/120 s, so D = 0. ceil(0.5 x 30) + 1 = 16 frames: the release frame (15, w = 0.5) is the completion's
        // one frame and shows T, not 0.995 T.
        let t = TransitionTimeline(scene: Self.scene(gesture: [(0, 0), (0.5, 398)], rule: .threshold(0.5, velocity: 0)))
        #expect(t.interaction?.completionDuration == 0 && t.frameCount == 16)
        #expect(Self.phases(t).map(\.0) == [.drag, .completion] && Self.phases(t).map(\.2) == [15, 1])
        // Frame 14 (w = 14/30): 398 x 14/15 = 371.47 pt, p = 0.92867, s = 0.46433, x = 92.87.
        #expect(Self.close(try Self.cardX(t, frame: 14), 200 * 0.5 * 398 * 14 / 15 / 400))
        #expect(t.segmentTime(ofFrame: 15) == (0, 0.5))
        #expect(try Self.item(t, frame: 15, "card").transform == .translation(100, 0))
    }

    @Test func holdsShowTheStartAndWhereTheCompletionEnded() throws {
        // 0.1 s before (3 frames), 0.2 s after (6 frames), at 30 fps.
        let finished = TransitionTimeline(scene: Self.scene(gesture: Self.forward).hold(before: 0.1, after: 0.2))
        #expect(Self.phases(finished).map(\.0) == [.holdBefore, .drag, .completion, .holdAfter])
        #expect(Self.phases(finished).map(\.2) == [3, 16, 9, 6] && finished.frameCount == 34)
        #expect(finished.phases.last?.stillTime == 0.5 && finished.segmentTime(ofFrame: 33) == (0, 0.5))
        #expect(try Self.cardX(finished, frame: 33) == 100 && Self.cardX(finished, frame: 0) == 0)
        // The drag starts after the hold: frame 3 + 6 is w = 0.2, x = 12 as before.
        #expect(Self.close(try Self.cardX(finished, frame: 9), 12))
        let cancelled = TransitionTimeline(scene: Self.scene(gesture: Self.backward).hold(before: 0.1, after: 0.2))
        #expect(cancelled.phases.last?.stillTime == 0 && cancelled.frameCount == 3 + 18 + 6)
        #expect(cancelled.displayList(frame: cancelled.frameCount - 1) == cancelled.displayList(frame: 0))
    }

    @Test func aCancelledRoundtripNeverDismissesAndAFinishedOneDoes() throws {
        // roundtripPause defaults to 0.5 s: 15 frames at 30 fps.
        let cancelled = TransitionTimeline(scene: Self.scene(gesture: Self.backward, direction: .roundtrip).hold(after: 0.2))
        #expect(cancelled.segments.count == 1)
        #expect(Self.phases(cancelled).map(\.0) == [.drag, .completion, .holdAfter])
        #expect(cancelled.phases.last?.stillTime == 0)
        #expect(TransitionSummary(cancelled).phases.map(\.name) == ["drag", "cancel", "holdAfter"])
        let finished = TransitionTimeline(scene: Self.scene(gesture: Self.forward, direction: .roundtrip).hold(after: 0.2))
        #expect(finished.segments.count == 2)
        #expect(Self.phases(finished).map(\.0) == [.drag, .completion, .pause, .motion, .holdAfter])
        #expect(Self.phases(finished).map(\.2).prefix(3) == [16, 9, 15])
        #expect(finished.phases[2].stillTime == 0.5 && finished.phases[3].segment == 1)
        #expect(TransitionSummary(finished).phases.map(\.name) == ["drag", "finish", "pause", "dismiss", "holdAfter"])
        // The pause shows the present's end; the dismiss plays by itself from its first frame, the card in place.
        #expect(try Self.cardX(finished, frame: 25) == 100 && Self.cardX(finished, frame: 40) == 100)
        #expect(finished.segmentTime(ofFrame: 40) == (1, 0))
    }

    // MARK: Springs, delays

    @Test func aSpringSeekedByTheFingerIsTheSpringAtThatTime() throws {
        // TimingEngineTests' spring (response 0.5, damping 0.3): x(0.1) = 0.5497, x(0.2) = 1.2459, x(0.3) = 1.3345.
        let spring = TimingEngineTests.movingCard(TimingOptions(curve: .spring(.response(response: 0.5, dampingFraction: 0.3))))
        let plain = TransitionTimeline(scene: Self.scene(spring, gesture: nil))
        let duration = plain.segments[0].duration
        #expect(abs(duration - 1.681312) < 1e-4)
        // A finger at 400 w / T pt: p = w / T, so the drag shows s = w, the spring in real time.
        let t = TransitionTimeline(scene: Self.scene(spring, gesture: [(0, 0), (0.3, 120 / duration)]))
        #expect(t.segments[0].duration == duration)
        for (frame, x) in [(3, 0.5497001908075181), (6, 1.2459294467738307), (9, 1.334503629211305)] {
            let time = try #require(t.interaction).progress(at: Double(frame) / 30) * duration
            #expect(Self.close(time, Double(frame) / 30, 1e-12))
            #expect(abs(try Self.cardX(t, frame: frame) - 100 * x) < 1e-6, "frame \(frame)")
            // Exactly what the transition shows at that time when it plays by itself.
            #expect(t.displayList(frame: frame) == plain.displayList(segment: 0, time: time))
        }
    }

    @Test func aDelayedViewStaysPutUntilTheFingerPassesItsDelay() throws {
        // Delay 0.2 s, then 0.3 s linear: T = 0.5. The finger: 280 pt at 0.5 s, p = 1.4 w, s = 0.7 w.
        let t = TransitionTimeline(scene: Self.scene(Self.linearCard(duration: 0.3, delay: 0.2), gesture: [(0, 0), (0.5, 280)]))
        #expect(t.segments[0].duration == 0.5)
        // Frame 6 (w = 0.2): p = 0.28, s = 0.14 < 0.2: at its start although the finger has moved 112 pt.
        #expect(Self.close(t.segmentTime(ofFrame: 6).time, 0.14))
        #expect(try Self.cardX(t, frame: 6) == 0)
        // Frame 9 (w = 0.3): s = 0.21, 0.01 / 0.3 of its way: x = 3.33. Frame 15 (w = 0.5): s = 0.35, half: x = 50.
        #expect(Self.close(try Self.cardX(t, frame: 9), 10.0 / 3))
        #expect(Self.close(try Self.cardX(t, frame: 15), 50))
    }

    // MARK: Navigations and presentations

    @Test func anInteractivePopThatSnapsBack() throws {
        // The default pop: the leaving root slides from x 200 to 600 (centre) on easeInOut over 0.35 s.
        var s = TransitionEngineTests.scene(from: root("from", subviews: []), to: root("to", subviews: []), direction: .dismiss)
        s.transition.navigation = .default
        // navigationTransitions: p = 60 / 400 = 0.15 < 0.2 and v = 20 / 0.1 = 200 <= 675: cancel, speed
        // max(0.99, 200 / 800) = 0.99, D = 0.15 x 0.35 / 0.99 = 0.05303 s; 0.2530 s in all.
        s.transition.interaction = InteractionSpec(points: [(0, 0), (0.1, 40), (0.2, 60)], rule: .navigationTransitions)
        let t = TransitionTimeline(scene: s)
        let plan = try #require(t.interaction)
        #expect(t.segments[0].duration == 0.35)
        #expect(plan.outcome == .cancel && plan.completionSpeed == 0.99 && Self.close(plan.completionDuration, 0.0525 / 0.99))
        // 60 fps: floor(0.2 x 60) + 1 = 13 drag frames of ceil(0.2530 x 60) + 1 = 17.
        #expect(Self.phases(t).map(\.2) == [13, 4])
        // Frame 6 (w = 0.1): p = 0.1, s = 0.035, a tenth of the root's time: easeInOut (0.42, 0, 0.58, 1) at
        // x = 0.1 is y = 0.0197224535 (bisected in Python), so the root is 400 x 0.01972 = 7.889 pt right.
        let c = NamedCurve.easeInOut.bezier!.value(at: 0.1)
        #expect(abs(c - 0.0197224535483112) < 1e-9)
        #expect(Self.close(try Self.item(t, frame: 6, "from").transform.tx, 400 * c))
        #expect(abs(try Self.item(t, frame: 6, "from").transform.tx - 7.888981419) < 1e-6)
        // The root coming back starts a third of the width to the left and is that much less so.
        #expect(Self.close(try Self.item(t, frame: 6, "to").transform.tx, -400.0 / 3 * (1 - c)))
        // Snapped back: the last frame is the first.
        #expect(t.segmentTime(ofFrame: 16) == (0, 0) && t.displayList(frame: 16) == t.displayList(frame: 0))
        #expect(try Self.item(t, frame: 16, "from").transform.tx == 0)
    }

    @Test func aCardPresentedByAFingerMovingUp() throws {
        var presented = root("to", subviews: [])
        presented.frame = Rect(x: 0, y: 300, width: 400, height: 500)
        var s = TransitionEngineTests.scene(from: root("from", subviews: []), to: presented)
        s.transition.presentation = PresentationSpec(style: .card, dimming: DimmingSpec())
        let plain = TransitionTimeline(scene: s)
        // -y over the 800 pt height: -160 pt at 0.2 s is p = 0.2; -480 pt at 0.5 s is p = 0.6, v = 280 / 0.25 = 1120
        // forward: easyTransitions finishes, D = 0.4 x 1 = 0.4 s (the card's spring lasts T = 1 s).
        s.transition.interaction = InteractionSpec(axis: .negativeY, points: [(0, 0), (0.25, -200), (0.5, -480)])
        let t = TransitionTimeline(scene: s)
        #expect(t.segments[0].duration == 1 && t.interaction?.outcome == .finish)
        #expect(Self.close(try #require(t.interaction).completionDuration, 0.4))
        // 60 fps: floor(0.5 x 60) + 1 = 31 drag frames of ceil(0.9 x 60) + 1 = 55.
        #expect(Self.phases(t).map(\.2) == [31, 24])
        let card = try NavigationEngineTests.rootView(.to, in: t)
        // 60 fps: frame 12 (w = 0.2) shows s = 0.2; the card's top, 800 at the start and 300 at the end, is 500 x its spring's
        // progress up, and the dimming 0.5 x that progress.
        let x = card.progress(at: 0.2)
        #expect(x > 0 && x < 1)
        #expect(Self.close(try Self.item(t, frame: 12, "to").transform.ty, 800 - 500 * x))
        #expect(Self.close(try Self.item(t, frame: 12, "dimming").opacity, 0.5 * x))
        #expect(t.displayList(frame: 12) == plain.displayList(segment: 0, time: 0.2))
        // Finished: the last frame is the plain presentation's last.
        #expect(t.displayList(frame: t.frameCount - 1) == plain.displayList(frame: plain.frameCount - 1))
        #expect(try Self.item(t, frame: t.frameCount - 1, "to").transform.ty == 300)
    }
}
