import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Navigations as root motions, with numbers worked by hand on a 400 x 800
/// canvas (roots' positions at their centre, (200, 400)).
@Suite struct NavigationEngineTests {
    static func timeline(_ navigation: NavigationSpec, direction: TransitionDirection = .present) -> TransitionTimeline {
        var s = scene(from: root("from", subviews: []), to: root("to", subviews: []), direction: direction)
        s.transition.navigation = navigation
        return TransitionTimeline(scene: s)
    }

    static func rootView(_ screen: Screen, in t: TransitionTimeline) throws -> TransientView {
        try #require(t.segments[0].views.first { $0.isRoot && $0.screen == screen })
    }

    /// Whether the `to` root draws above the `from` root.
    static func toOnTop(_ t: TransitionTimeline) -> Bool {
        let views = t.segments[0].views
        return views.firstIndex { $0.screen == .to }! > views.firstIndex { $0.screen == .from }!
    }

    @Test func heroPushLeftSlidesTheArrivingRootInFromTheRightOverAParallaxUnderAnOverlay() throws {
        let t = Self.timeline(.hero(.push(.left)))
        let to = try Self.rootView(.to, in: t)
        let from = try Self.rootView(.from, in: t)
        // shift(left, appearing: true) = +400: the arriving root starts at x 600.
        #expect(to.initial.position == Point(x: 600, y: 400) && to.final.position == Point(x: 200, y: 400))
        // The leaving root ends a third of the width to the left, under black at 0.1.
        #expect(abs(from.final.position.x - (200 - 400.0 / 3)) < 1e-12)
        #expect(from.final.overlay == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.1) && from.initial.overlay == .clear)
        #expect(to.duration == 0.35 && to.easing.curve == .named(.deceleration))
        #expect(Self.toOnTop(t))
        // Halfway through in time, deceleration (0, 0, 0.2, 1) has gone p of the way.
        let p = NamedCurve.deceleration.bezier!.value(at: 0.5)
        #expect(abs(to.state(at: to.progress(at: 0.175)).position.x - (600 - 400 * p)) < 1e-9)
    }

    @Test func theDefaultPushAndItsPopMirror() throws {
        let push = Self.timeline(.default)
        let pushTo = try Self.rootView(.to, in: push)
        let pushFrom = try Self.rootView(.from, in: push)
        #expect(pushTo.initial.position.x == 600 && abs(pushFrom.final.position.x - (200 - 400.0 / 3)) < 1e-12)
        #expect(pushTo.easing.curve == .named(.easeInOut) && pushTo.duration == 0.35 && Self.toOnTop(push))
        let pop = Self.timeline(.default, direction: .dismiss)
        let popTo = try Self.rootView(.to, in: pop)
        let popFrom = try Self.rootView(.from, in: pop)
        // The screen shown again comes back from the parallax, out from under the overlay, below the leaving one.
        #expect(abs(popTo.initial.position.x - (200 - 400.0 / 3)) < 1e-12 && popTo.initial.overlay.alpha == 0.1)
        #expect(popTo.final.overlay.alpha == 0)
        #expect(popFrom.final.position.x == 600)
        #expect(!Self.toOnTop(pop))
    }

    @Test func seed004SlideMovesByTheCanvasAndPopMirrors() throws {
        let push = Self.timeline(.slide(.vertical))
        #expect(try Self.rootView(.to, in: push).initial.position == Point(x: 200, y: 1200))
        #expect(try Self.rootView(.from, in: push).final.position == Point(x: 200, y: -400))
        let pop = Self.timeline(.slide(.horizontal), direction: .dismiss)
        #expect(try Self.rootView(.to, in: pop).initial.position == Point(x: -200, y: 400))
        #expect(try Self.rootView(.from, in: pop).final.position == Point(x: 600, y: 400))
        #expect(Self.toOnTop(push) && !Self.toOnTop(pop))
    }

    @Test func composedTransitionsCombineAndMirrorAndBringToFront() throws {
        let push = RootTransitions(insertion: [.move(.trailing), .scale(0.5)], removal: [.opacity, .offset(x: -20, y: 10)])
        let t = Self.timeline(.composed(ComposedNavigation(push: push, mirror: true)), direction: .dismiss)
        let to = try Self.rootView(.to, in: t)
        let from = try Self.rootView(.from, in: t)
        // Mirrored for the pop: in from the leading edge at half size; out with the offset turned round.
        #expect(to.initial.position == Point(x: -200, y: 400) && to.initial.transform.scale == Size(width: 0.5, height: 0.5))
        #expect(from.final.alpha == 0 && from.final.position == Point(x: 220, y: 390))
        #expect(!Self.toOnTop(t))
        let front = RootTransitions(insertion: [.bringToFront, .opacity])
        #expect(Self.toOnTop(Self.timeline(.composed(ComposedNavigation(push: front)), direction: .dismiss)))
    }

    @Test func fadeInPutsTheArrivingRootOnTopEvenOnAPop() throws {
        let t = Self.timeline(.fade(.in), direction: .dismiss)
        #expect(try Self.rootView(.to, in: t).initial.alpha == 0 && Self.toOnTop(t))
        let out = Self.timeline(.fade(.out))
        #expect(try Self.rootView(.from, in: out).final.alpha == 0 && !Self.toOnTop(out))
    }
}

/// Presentations: a presented `to` root at [0, 300, 400, 500] on the 400 x 800 canvas (centre (200, 550)).
@Suite struct PresentationEngineTests {
    static func timeline(_ presentation: PresentationSpec, direction: TransitionDirection = .present) -> TransitionTimeline {
        var presented = root("to", subviews: [])
        presented.frame = Rect(x: 0, y: 300, width: 400, height: 500)
        presented.cornerRadius = 16
        var s = direction == .present
            ? scene(from: root("from", subviews: []), to: presented)
            : scene(from: presented, to: root("to", subviews: []), direction: .dismiss)
        s.transition.presentation = presentation
        return TransitionTimeline(scene: s)
    }

    static func dimming(_ t: TransitionTimeline, at time: Double) -> Double? {
        t.motionDisplayList(segment: 0, time: time).items.first { $0.label == "dimming" }?.opacity
    }

    @Test func aCardRisesFromBelowTheCanvasOverDimmingThatFadesIn() throws {
        let t = Self.timeline(PresentationSpec(style: .card, dimming: DimmingSpec()))
        let card = try NavigationEngineTests.rootView(.to, in: t)
        // Its top edge starts at the canvas's bottom: 550 + (800 - 300).
        #expect(card.initial.position == Point(x: 200, y: 1050) && card.final.position == Point(x: 200, y: 550))
        #expect(card.duration == 1 && card.easing.curve == .spring(.dampingRatio(0.8)))
        #expect(card.final.cornerRadius == 16)
        #expect(Self.dimming(t, at: 0) == nil)  // opacity 0: not drawn
        let p = min(max(card.progress(at: 0.3), 0), 1)
        #expect(abs(try #require(Self.dimming(t, at: 0.3)) - 0.5 * p) < 1e-12)
        #expect(Self.dimming(t, at: 1) == 0.5)
        // Drawn under the card, over the presenting root.
        let labels = t.motionDisplayList(segment: 0, time: 0.5).items.map(\.label)
        #expect(labels.firstIndex(of: "dimming")! < labels.firstIndex(of: "to")!)
        #expect(labels.firstIndex(of: "dimming")! > labels.firstIndex(of: "from")!)
    }

    @Test func aSheetShrinksAndRoundsTheScreenBehindAndADismissPlaysItBack() throws {
        let present = Self.timeline(PresentationSpec(style: .sheet))
        let behind = try NavigationEngineTests.rootView(.from, in: present)
        #expect(behind.final.transform.scale == Size(width: 0.92, height: 0.92) && behind.final.cornerRadius == 10)
        let dismiss = Self.timeline(PresentationSpec(style: .sheet, dimming: DimmingSpec(opacity: 0.4)), direction: .dismiss)
        let sheet = try NavigationEngineTests.rootView(.from, in: dismiss)
        let back = try NavigationEngineTests.rootView(.to, in: dismiss)
        #expect(sheet.final.position == Point(x: 200, y: 1050))
        #expect(back.initial.transform.scale == Size(width: 0.92, height: 0.92) && back.final.transform.scale == Size(width: 1, height: 1))
        #expect(Self.dimming(dismiss, at: 0) == 0.4 && Self.dimming(dismiss, at: dismiss.segments[0].duration) == nil)
    }
}

/// Matched views keep flying on top of what the roots do.
@Suite struct NavigationWithMatchesTests {
    @Test func aMatchedViewFliesAcrossADefaultPushAboveBothRoots() throws {
        let from = root("from", subviews: [view("thumb", [20, 600, 80, 80], id: "photo")])
        let to = root("to", subviews: [view("hero", [0, 0, 400, 300], id: "photo")])
        var s = scene(from: from, to: to)
        s.transition.navigation = .default
        let t = TransitionTimeline(scene: s)
        let pair = try #require(t.segments[0].views.first { $0.isMatched })
        // The pair keeps Shift's own timing (its travel: from (60, 640) to (200, 150)); the roots take 0.35 s.
        let distance = Point(x: 60, y: 640).distance(to: Point(x: 200, y: 150))
        #expect(abs(pair.duration - (0.265 + 0.175 * min(distance, 500) / 500)) < 1e-12)
        #expect(try NavigationEngineTests.rootView(.to, in: t).duration == 0.35)
        let labels = t.motionDisplayList(segment: 0, time: 0.2).items.map(\.label)
        let pairIndex = try #require(labels.lastIndex(of: "hero"))
        #expect(pairIndex > (labels.lastIndex(of: "to") ?? -1) && pairIndex > (labels.lastIndex(of: "from") ?? -1))
    }
}

@Suite struct NavigationShadowAndOrderTests {
    @Test func theSlidingRootCarriesHerosEdgeShadowFadingInOnAPushAndOutOnAPull() throws {
        let push = NavigationEngineTests.timeline(.hero(.push(.left)))
        let arriving = try NavigationEngineTests.rootView(.to, in: push)
        #expect(arriving.initial.shadowOpacity == 0 && arriving.final.shadowOpacity == 0.5)
        #expect(arriving.final.shadowRadius == 5 && arriving.final.shadowOffset == .zero && arriving.final.shadowColor == .black)
        let pull = NavigationEngineTests.timeline(.hero(.pull(.right)))
        let leaving = try NavigationEngineTests.rootView(.from, in: pull)
        #expect(leaving.initial.shadowOpacity == 0.5 && leaving.final.shadowOpacity == 0)
        #expect(try NavigationEngineTests.rootView(.from, in: push).final.shadowOpacity == 0)  // the other root has none
    }

    @Test func matchedViewsStayAboveWhenANavigationPutsTheSourceScreenUnderneath() throws {
        // Hero's pull inserts the arriving root below: the pair (in the arriving list) is lifted over both.
        let from = root("from", subviews: [view("thumb", [20, 600, 80, 80], id: "photo")])
        let to = root("to", subviews: [view("hero", [0, 0, 400, 300], id: "photo")])
        var s = scene(from: from, to: to)
        s.transition.navigation = .hero(.pull(.right))
        let t = TransitionTimeline(scene: s)
        #expect(!NavigationEngineTests.toOnTop(t))
        let labels = t.motionDisplayList(segment: 0, time: 0.2).items.map(\.label)
        #expect(labels.lastIndex(of: "hero")! > labels.lastIndex(of: "from")!)
    }
}

/// Every built-in and every atomic transition, both directions, on the 400 x 800 canvas: where each root
/// starts (arriving) or ends (leaving), its alpha and scale there, and which root is on top.
@Suite struct EveryNavigationTests {
    struct End: Equatable, CustomStringConvertible {
        var x: Double, y: Double, alpha: Double = 1, scale: Double = 1
        var description: String { "(\(x), \(y), alpha \(alpha), scale \(scale))" }
    }

    static func ends(_ navigation: NavigationSpec, push: Bool) throws -> (arriving: End, leaving: End, arrivingOnTop: Bool) {
        let t = NavigationEngineTests.timeline(navigation, direction: push ? .present : .dismiss)
        let a = try NavigationEngineTests.rootView(.to, in: t).initial
        let l = try NavigationEngineTests.rootView(.from, in: t).final
        func round(_ v: Double) -> Double { (v * 1e9).rounded() / 1e9 }
        return (
            End(x: round(a.position.x), y: round(a.position.y), alpha: a.alpha, scale: a.transform.scale.width),
            End(x: round(l.position.x), y: round(l.position.y), alpha: l.alpha, scale: l.transform.scale.width),
            NavigationEngineTests.toOnTop(t))
    }

    // Hero's shift(d, appearing): left/right: x = ((d == right) == appearing) ? -400 : +400; up/down with 800.
    // A third of it for the parallax root: 400 / 3 = 133.333333333.
    @Test(arguments: [
        (HeroNavigation.push(.left), End(x: 600, y: 400), End(x: 66.666666667, y: 400), true),
        (.push(.right), End(x: -200, y: 400), End(x: 333.333333333, y: 400), true),
        (.pull(.left), End(x: 333.333333333, y: 400), End(x: -200, y: 400), false),
        (.cover(.up), End(x: 200, y: 1200), End(x: 200, y: 400), true),
        (.uncover(.down), End(x: 200, y: 400), End(x: 200, y: 1200), false),
        (.slide(.down), End(x: 200, y: -400), End(x: 200, y: 1200), true),
        (.zoomSlide(.left), End(x: 600, y: 400, scale: 0.8), End(x: -200, y: 400, scale: 0.8), true),
        (.pageIn(.left), End(x: 600, y: 400), End(x: 200, y: 400, scale: 0.7), true),
        (.pageOut(.left), End(x: 200, y: 400, scale: 0.7), End(x: -200, y: 400), false),
        (.zoom, End(x: 200, y: 400, scale: 0.7), End(x: 200, y: 400, alpha: 0, scale: 1.3), false),
        (.zoomOut, End(x: 200, y: 400, alpha: 0, scale: 1.3), End(x: 200, y: 400, scale: 0.7), true),
    ])
    func heroTypesMoveTheRootsByHerosNumbers(type: HeroNavigation, arriving: End, leaving: End, onTop: Bool) throws {
        // Hero's types describe the arriving and leaving views, whichever the direction.
        for push in [true, false] {
            let ends = try Self.ends(.hero(type), push: push)
            #expect(ends.arriving == arriving && ends.leaving == leaving && ends.arrivingOnTop == onTop, "\(type) push \(push)")
        }
    }

    // Insertion on the arriving root, removal on the leaving one; a pop mirrors (mirror: true):
    // leading <-> trailing, top <-> bottom, offsets and turns negated. Push: arriving on top; pop: below.
    @Test(arguments: [
        (AtomicTransition.move(.leading), End(x: -200, y: 400), End(x: -200, y: 400), End(x: 600, y: 400)),
        (.move(.trailing), End(x: 600, y: 400), End(x: 600, y: 400), End(x: -200, y: 400)),
        (.move(.top), End(x: 200, y: -400), End(x: 200, y: -400), End(x: 200, y: 1200)),
        (.move(.bottom), End(x: 200, y: 1200), End(x: 200, y: 1200), End(x: 200, y: -400)),
        (.offset(x: 30, y: -50), End(x: 230, y: 350), End(x: 230, y: 350), End(x: 170, y: 450)),
        (.opacity, End(x: 200, y: 400, alpha: 0), End(x: 200, y: 400, alpha: 0), End(x: 200, y: 400, alpha: 0)),
        (.scale(0.5), End(x: 200, y: 400, scale: 0.5), End(x: 200, y: 400, scale: 0.5), End(x: 200, y: 400, scale: 0.5)),
        (.identity, End(x: 200, y: 400), End(x: 200, y: 400), End(x: 200, y: 400)),
    ])
    func atomicTransitionsOnBothRootsBothWays(atomic: AtomicTransition, pushEnd: End, removalEnd: End, popEnd: End) throws {
        let composed = NavigationSpec.composed(
            ComposedNavigation(push: RootTransitions(insertion: [atomic], removal: [atomic]), mirror: true))
        let push = try Self.ends(composed, push: true)
        #expect(push.arriving == pushEnd && push.leaving == removalEnd && push.arrivingOnTop)
        let pop = try Self.ends(composed, push: false)
        #expect(pop.arriving == popEnd && pop.leaving == popEnd && !pop.arrivingOnTop)
    }

    @Test func rotateAndZPositionAndTheOrderingAtoms() throws {
        let turn = NavigationSpec.composed(ComposedNavigation(push: RootTransitions(insertion: [.rotate(30)]), mirror: true))
        let t = NavigationEngineTests.timeline(turn, direction: .dismiss)
        #expect(try NavigationEngineTests.rootView(.to, in: t).initial.transform.rotate == -30)
        let lift = NavigationSpec.composed(ComposedNavigation(push: RootTransitions(removal: [.zPosition(5), .bringToFront])))
        let lifted = NavigationEngineTests.timeline(lift)
        #expect(try NavigationEngineTests.rootView(.from, in: lifted).final.zPosition == 5)
        #expect(!NavigationEngineTests.toOnTop(lifted))
        let back = NavigationSpec.composed(ComposedNavigation(push: RootTransitions(insertion: [.sendToBack])))
        #expect(!NavigationEngineTests.toOnTop(NavigationEngineTests.timeline(back)))
    }
}

@Suite struct NavigationRoundtripAndSheetFrameTests {
    @Test func aRoundtripPushesThenPops() throws {
        var s = scene(from: root("list", subviews: []), to: root("detail", subviews: []), direction: .roundtrip)
        s.transition.navigation = .default
        let t = TransitionTimeline(scene: s)
        #expect(t.segments.count == 2)
        // The pop: the list (to in that half) comes back from the parallax, below the detail, which leaves to the right.
        let pop = t.segments[1]
        let list = try #require(pop.views.first { $0.isRoot && $0.screen == .to })
        let detail = try #require(pop.views.first { $0.isRoot && $0.screen == .from })
        #expect(list.name == "list" && abs(list.initial.position.x - (200 - 400.0 / 3)) < 1e-12 && detail.final.position.x == 600)
        #expect(pop.views.firstIndex { $0.name == "list" }! < pop.views.firstIndex { $0.name == "detail" }!)
        #expect(pop.rootMotion == "navigation default (pop)" && t.segments[0].rootMotion == "navigation default (push)")
    }

    @Test func aSheetWithoutAFrameLeavesTheTopStripOfTheScreenBehind() throws {
        var s = scene(from: root("behind", subviews: []), to: root("sheet", subviews: []))
        s.to.frame = nil
        s.transition.presentation = PresentationSpec(style: .sheet)
        let t = TransitionTimeline(scene: s)
        let sheet = try NavigationEngineTests.rootView(.to, in: t)
        // 7.5% of 800 = 60 pt: the sheet is 400 x 740 at y 60, its centre (200, 430); it rises from 430 + 740.
        #expect(sheet.final.size == Size(width: 400, height: 740) && sheet.final.position == Point(x: 200, y: 430))
        #expect(sheet.initial.position == Point(x: 200, y: 1170))
    }
}

@Suite struct AsymmetricNavigationTests {
    /// seed 004's `asymmetric(push:pop:)`: each operation its own composition, no mirroring.
    @Test func anExplicitPopIsPlayedAsGivenAndCrossFadeFadesBoth() throws {
        let push = RootTransitions(insertion: [.move(.trailing)], removal: [.offset(x: -100, y: 0)])
        let pop = RootTransitions(insertion: [.opacity, .scale(0.9)], removal: [.move(.bottom)])
        let spec = NavigationSpec.composed(ComposedNavigation(push: push, pop: pop))
        let pushed = try EveryNavigationTests.ends(spec, push: true)
        #expect(pushed.arriving == .init(x: 600, y: 400) && pushed.leaving == .init(x: 100, y: 400) && pushed.arrivingOnTop)
        let popped = try EveryNavigationTests.ends(spec, push: false)
        #expect(popped.arriving == .init(x: 200, y: 400, alpha: 0, scale: 0.9) && popped.leaving == .init(x: 200, y: 1200))
        #expect(!popped.arrivingOnTop)
        for push in [true, false] {
            let cross = try EveryNavigationTests.ends(.fade(.cross), push: push)
            #expect(cross.arriving.alpha == 0 && cross.leaving.alpha == 0 && cross.arrivingOnTop == push)
        }
        // Halfway through a cross fade (easeInOut is symmetric: 0.5 at half time) both roots are at 0.5.
        let t = NavigationEngineTests.timeline(.fade(.cross))
        let to = try NavigationEngineTests.rootView(.to, in: t)
        #expect(abs(to.state(at: to.progress(at: 0.175)).alpha - 0.5) < 1e-9)
    }
}
