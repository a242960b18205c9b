import Primitives
import SceneModel
import Testing

/// The navigation and presentation rules hold for scenes built in Swift
/// exactly as for files, including what only Swift can build (mirror with an
/// explicit pop, more atomic transitions than the limit, non-finite numbers).
@Suite struct NavigationValueTests {
    let scene = Scene(canvas: CanvasSpec(width: 100, height: 200), from: View(), to: View())
    let at = "transition.navigation"

    func problems(_ scene: Scene) -> [String] { SceneValidator.problems(in: scene).map { "\($0.place): \($0.message)" } }

    @Test func soundNavigationsAndPresentationsHaveNoProblems() {
        let sound: [Scene] = [
            scene.navigation(.default), scene.navigation(.slide(.vertical)), scene.navigation(.fade(.cross)),
            scene.navigation(.push(.left)), scene.navigation(.zoom),
            scene.navigation(
                insertion: [.move(.trailing), .offset(x: -1_000_000, y: 1_000_000), .rotate(-36000), .scale(0), .zPosition(3)],
                removal: [.rotate3D(36000, axis: AtomicTransition.Axis3D(x: 0, y: 0.5, z: -2), perspective: 1e-9)], mirror: true),
            scene.navigation(
                push: RootTransitions(insertion: Array(repeating: .opacity, count: SceneLimits.maximumAtomicTransitions)),
                pop: RootTransitions()),
            scene.presentation(.card, dimming: DimmingSpec(color: .white, opacity: 0)),
        ]
        for s in sound { #expect(problems(s) == [], "\(String(describing: s.transition))") }
    }

    @Test func badNumbersAreNamedAtThePlacesAFileWouldName() {
        let built = scene.navigation(
            push: RootTransitions(insertion: [.offset(x: .nan, y: 2e6), .rotate(.infinity), .scale(1001), .zPosition(-2e6)]),
            pop: RootTransitions(removal: [
                .identity, .rotate3D(.nan, axis: AtomicTransition.Axis3D(x: .infinity, y: 0, z: 0), perspective: -1),
            ]))
        #expect(
            problems(built) == [
                "\(at).push.insertion[0].offset[0]: not a number (NaN)",
                "\(at).push.insertion[0].offset[1]: 2000000 is out of range -1000000...1000000",
                "\(at).push.insertion[1].rotate: inf is not a finite number",
                "\(at).push.insertion[2].scale: 1001 is out of range: must be at least -1000 and at most 1000",
                "\(at).push.insertion[3].zPosition: -2000000 is out of range: must be at least -1000000 and at most 1000000",
                "\(at).pop.removal[1].rotate3D.angle: not a number (NaN)",
                "\(at).pop.removal[1].rotate3D.axis[0]: inf is not a finite number",
                "\(at).pop.removal[1].rotate3D.perspective: -1 is out of range: must be greater than 0 "
                    + "(m34 = perspective / max(width, height); 0 gives a turn without depth, a flat squash, "
                    + "and below 0 the vanishing point is behind the viewer)",
            ])
        #expect(
            problems(scene.navigation(removal: [.rotate3D(10, axis: AtomicTransition.Axis3D(x: 0, y: 0, z: 0), perspective: .nan)])) == [
                "\(at).removal[0].rotate3D.axis: [0, 0, 0] is no axis: give the direction to turn about, e.g. [0, 1, 0] for the vertical",
                "\(at).removal[0].rotate3D.perspective: not a number (NaN)",
            ])
    }

    @Test func contradictionsAndLimitsAreNamed() {
        let mirrored = scene.navigation(.composed(ComposedNavigation(push: RootTransitions(), pop: RootTransitions(), mirror: true)))
        #expect(problems(mirrored) == ["\(at).mirror: \(ComposedNavigation.mirrorWithPop)"])
        let both = scene.navigation(.slide(.horizontal)).presentation(.sheet)
        #expect(
            problems(both) == [
                "transition.presentation: a transition is a push/pop or a presentation, not both; give navigation or presentation"
            ])
        let limit = SceneLimits.maximumAtomicTransitions
        // Past the limit only the count is reported, not each transition after it.
        let long = scene.navigation(insertion: Array(repeating: .scale(2000), count: limit + 1))
        let found = problems(long)
        #expect(found.count == limit + 1)
        #expect(found.first == "\(at).insertion: \(limit + 1) atomic transitions; the limit is \(limit)")
        #expect(found.last == "\(at).insertion[\(limit - 1)].scale: 2000 is out of range: must be at least -1000 and at most 1000")
        let dimming = scene.presentation(dimming: DimmingSpec(color: RGBAColor(red: -0.1, green: 0, blue: 0, alpha: 1), opacity: .infinity))
        #expect(
            problems(dimming) == [
                "transition.presentation.dimming.color[0]: -0.1 is out of range 0...1",
                "transition.presentation.dimming.opacity: inf is not a finite number",
            ])
    }

    @Test func thePresentedRootIsWarnedAboutOutsideTheCanvas() {
        let outside = View(frame: Rect(x: -10, y: 0, width: 100, height: 200))
        let presented = Scene(canvas: CanvasSpec(width: 100, height: 200), from: View(), to: outside).presentation(.card)
        let warning = SceneProblem(
            .warning, at: ScenePlace([.key("to"), .key("frame")]),
            "the presented root [-10, 0, 100, 200] reaches outside the 100 x 200 canvas: what lies outside is cut off")
        #expect(SceneValidator.problems(in: presented) == [warning])
        // Played reversed, the same root is presented (screens and direction swap together).
        #expect(SceneValidator.problems(in: presented, reversed: true) == [warning])
        #expect(SceneValidator.problems(in: presented.direction(.dismiss)) == [])
        #expect(SceneValidator.problems(in: presented.presentation(nil)) == [])
    }

    @Test func swiftSpellingBuildsTheModel() {
        #expect(scene.navigation(.push(.left)).transition.navigation == .hero(.push(.left)))
        #expect(scene.navigation(.slide(HeroDirection.down)).transition.navigation == .hero(.slide(.down)))
        #expect(scene.navigation(.zoomOut).transition.navigation == .hero(.zoomOut))
        #expect(
            scene.navigation(insertion: [.move(.trailing)], removal: [.move(.leading)], mirror: true).transition.navigation
                == .composed(
                    ComposedNavigation(push: RootTransitions(insertion: [.move(.trailing)], removal: [.move(.leading)]), mirror: true)))
        #expect(
            scene.navigation(push: RootTransitions(insertion: [.opacity]), pop: RootTransitions()).transition.navigation
                == .composed(ComposedNavigation(push: RootTransitions(insertion: [.opacity]), pop: RootTransitions())))
        #expect(
            AtomicTransition.rotate3D(30, axis: .z) == .rotate3D(angle: 30, axis: AtomicTransition.Axis3D(x: 0, y: 0, z: 1), perspective: 1)
        )
        let card = scene.presentation(.card, dimming: DimmingSpec())
        #expect(card.transition.presentation == PresentationSpec(style: .card, dimming: DimmingSpec(color: .black, opacity: 0.5)))
        #expect(scene.presentation().transition.presentation == PresentationSpec(style: .overFullScreen, dimming: nil))
        // Each modifier sets its own key only.
        #expect(card.navigation(.default).transition.presentation == card.transition.presentation)
        #expect(card.presentation(nil).transition == scene.transition)
    }
}
