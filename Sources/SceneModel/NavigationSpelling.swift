// Navigation and presentation in Swift, in the words of the systems they
// come from and in the modifier style of the other scene options:
//
//     Scene(canvas: canvas, from: list, to: detail)
//         .navigation(.slide(.horizontal))                               // seed 004
//         .navigation(.push(.left))                                      // Hero
//         .navigation(insertion: [.move(.trailing)], removal: [.move(.leading)], mirror: true)
//         .navigation(push: RootTransitions(insertion: [.opacity]), pop: RootTransitions(removal: [.scale(0.8)]))
//         .presentation(.card, dimming: DimmingSpec())                   // EasyTransitions
//
// Nothing is checked here: `SceneValidator` reports bad values at the places a file would name.

extension Scene {
    /// How the roots move in a push or pop (nil: Shift's `defaultAnimation` alone).
    public func navigation(_ navigation: NavigationSpec?) -> Scene { with { $0.transition.navigation = navigation } }
    /// seed 004's `.asymmetric(insertion:removal:)`, the same on push and pop, or mirrored on pop (`MirrorPush`).
    public func navigation(insertion: [AtomicTransition] = [], removal: [AtomicTransition] = [], mirror: Bool = false) -> Scene {
        navigation(.composed(ComposedNavigation(push: RootTransitions(insertion: insertion, removal: removal), mirror: mirror)))
    }
    /// seed 004's `NavigationTransition.asymmetric(push:pop:)`.
    public func navigation(push: RootTransitions, pop: RootTransitions) -> Scene {
        navigation(.composed(ComposedNavigation(push: push, pop: pop)))
    }
    /// A modal presentation (nil: the presented root covers the canvas as in Shift).
    public func presentation(_ presentation: PresentationSpec?) -> Scene { with { $0.transition.presentation = presentation } }
    /// `dimming` nil: no dimming layer; `DimmingSpec()`: EasyTransitions' black at 0.5.
    public func presentation(_ style: PresentationStyle = .overFullScreen, dimming: DimmingSpec? = nil) -> Scene {
        presentation(PresentationSpec(style: style, dimming: dimming))
    }
}

extension NavigationSpec {
    // Hero's types by their own names: `.navigation(.push(.left))`, `.navigation(.zoom)`.
    public static func push(_ direction: HeroDirection) -> NavigationSpec { .hero(.push(direction)) }
    public static func pull(_ direction: HeroDirection) -> NavigationSpec { .hero(.pull(direction)) }
    public static func cover(_ direction: HeroDirection) -> NavigationSpec { .hero(.cover(direction)) }
    public static func uncover(_ direction: HeroDirection) -> NavigationSpec { .hero(.uncover(direction)) }
    public static func slide(_ direction: HeroDirection) -> NavigationSpec { .hero(.slide(direction)) }
    public static func zoomSlide(_ direction: HeroDirection) -> NavigationSpec { .hero(.zoomSlide(direction)) }
    public static func pageIn(_ direction: HeroDirection) -> NavigationSpec { .hero(.pageIn(direction)) }
    public static func pageOut(_ direction: HeroDirection) -> NavigationSpec { .hero(.pageOut(direction)) }
    public static let zoom = NavigationSpec.hero(.zoom)
    public static let zoomOut = NavigationSpec.hero(.zoomOut)
}

extension AtomicTransition {
    /// seed 004's `Rotate3D(_:axis:perspective:)`: degrees about `axis`, perspective 1 by default.
    public static func rotate3D(_ degrees: Double, axis: Axis3D, perspective: Double = 1) -> AtomicTransition {
        .rotate3D(angle: degrees, axis: axis, perspective: perspective)
    }
}

extension AtomicTransition.Axis3D {
    public static let x = Self(x: 1, y: 0, z: 0)
    public static let y = Self(x: 0, y: 1, z: 0)
    public static let z = Self(x: 0, y: 0, z: 1)
}
