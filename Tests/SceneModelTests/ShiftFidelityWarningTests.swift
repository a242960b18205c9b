import Primitives
import SceneModel
import Testing

/// What Shift ignores or draws otherwise is a warning at its place, never an
/// error: the scene still renders.
@Suite struct ShiftFidelityWarningTests {
    func warnings(_ scene: Scene) -> [String] {
        SceneValidator.problems(in: scene).filter { $0.severity == .warning }.map { "\($0.place): \($0.message)" }
    }

    func card(_ x: Double) -> View { View(frame: Rect(x: x, y: 0, width: 10, height: 10)) }

    func scene(_ direction: TransitionDirection = .present, from: [View], to: [View]) -> Scene {
        Scene(
            canvas: CanvasSpec(width: 100, height: 100), transition: TransitionSpec(direction: direction),
            from: View(frame: nil, subviews: from), to: View(frame: nil, subviews: to))
    }

    @Test func matchedViewsIgnoreAnimationsAndSuperview() {
        let warnings = warnings(
            scene(
                from: [card(0).shift(id: "c").shift(animations: [.fade])],
                to: [card(10).shift(id: "c", superview: .container, animations: [.move(.up(10))])]))
        #expect(
            warnings == [
                "from.subviews[0].shift.animations: ignored: this view is matched with to.subviews[0], and Shift animates "
                    + "only unmatched views' additional animations",
                "to.subviews[0].shift.animations: ignored: this view is matched with from.subviews[0], and Shift animates "
                    + "only unmatched views' additional animations",
                "to.subviews[0].shift.superview: ignored: a matched view always animates in the transition container",
            ])
    }

    @Test func aMatchedPairTakesTheSourceScreensOptions() {
        let from = [card(0).shift(id: "c", contentAnimation: .final, position: .front)]
        let to = [card(10).shift(id: "c")]
        #expect(
            warnings(scene(from: from, to: to)) == [
                "from.subviews[0].shift.contentAnimation: ignored: Shift takes a matched pair's options from the to screen's "
                    + "view (to.subviews[0]) when the scene plays present",
                "from.subviews[0].shift.position: ignored: Shift takes a matched pair's options from the to screen's "
                    + "view (to.subviews[0]) when the scene plays present",
            ])
        #expect(warnings(scene(.dismiss, from: from, to: to)).isEmpty, "dismissing, the from view's options are used")
        #expect(warnings(scene(.roundtrip, from: from, to: to)).isEmpty, "a roundtrip uses each in turn")
    }

    @Test func contentOptionsOfUnmatchedViewsAreIgnored() {
        let warnings = warnings(scene(from: [], to: [card(0).shift(id: "alone", contentAnimation: .final, contentSizing: .final)]))
        #expect(
            warnings == [
                "to.subviews[0].shift.contentAnimation: ignored: only a matched pair's content cross-fades, and this view has no match",
                "to.subviews[0].shift.contentSizing: ignored: only a matched pair's content is sized, and this view has no match",
            ])
    }

    @Test func discreteAndCoveredAnimationsAndConditionsThatNeverApply() {
        let warnings = warnings(
            scene(
                from: [card(0).shift(animations: [.zPosition(2)])],
                to: [card(0).shift(animations: [.masksToBounds(true), .backgroundColor(.black), .alpha(0.5, .onDisappear), .fade])]))
        #expect(
            warnings == [
                "from.subviews[0].shift.animations[0].zPosition: not animated: Shift sets zPosition to its final value when the "
                    + "transition starts, so on this leaving view it shows from the first frame",
                "to.subviews[0].shift.animations[0].masksToBounds: not animated: Shift sets masksToBounds to its final value "
                    + "when the transition starts, so on this arriving view it never shows",
                "to.subviews[0].shift.animations[1].backgroundColor: on a device this hardly shows: Shift's snapshot of the "
                    + "view holds its own background, which covers the animated one; shiftrender draws the animation "
                    + "(docs/scene-format.md)",
                "to.subviews[0].shift.animations[2].when: never applies: onDisappear is for a dismiss, and this scene plays "
                    + "present only",
            ])
    }

    @Test func aRoundtripPlaysBothConditionsAndHiddenViewsSayNothing() {
        let both = [card(0).shift(animations: [.alpha(0.5, .onAppear), .alpha(0.5, .onDisappear)])]
        #expect(warnings(scene(.roundtrip, from: [], to: both)) == [])
        #expect(warnings(scene(.dismiss, from: [], to: both)).count == 1)
        let hidden = card(0).shift(id: "c", isHidden: true, animations: [.fade])
        #expect(warnings(scene(from: [card(0).shift(id: "c")], to: [hidden])) == [])
    }

    /// Played reversed, a present is a dismiss with the screens swapped: the
    /// other condition applies, arriving views leave, and the source screen
    /// (the presented one) is the same; places stay those of the scene as written.
    @Test func reversedScenesAreWarnedAboutAsTheyPlay() {
        let s = scene(
            from: [card(0).shift(id: "c", contentAnimation: .final)],
            to: [card(10).shift(id: "c"), card(0).shift(animations: [.alpha(0.5, .onAppear), .alpha(0.5, .onDisappear), .zPosition(1)])])
        let problems = SceneValidator.problems(in: s, reversed: true).map { "\($0.place): \($0.message)" }
        #expect(
            problems == [
                "from.subviews[0].shift.contentAnimation: ignored: Shift takes a matched pair's options from the to screen's "
                    + "view (to.subviews[0]) when the scene plays dismiss (reversed)",
                "to.subviews[1].shift.animations[0].when: never applies: onAppear is for a present, and this scene plays "
                    + "dismiss (reversed) only",
                "to.subviews[1].shift.animations[2].zPosition: not animated: Shift sets zPosition to its final value when the "
                    + "transition starts, so on this leaving view it shows from the first frame",
            ])
        #expect(warnings(s).contains { $0.hasPrefix("to.subviews[1].shift.animations[1].when: never applies: onDisappear") })
    }

    @Test func warningsDoNotStopAScene() {
        let problems = SceneValidator.problems(in: scene(from: [], to: [card(0).shift(contentAnimation: .final)]))
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.severity == .warning })
    }
}
