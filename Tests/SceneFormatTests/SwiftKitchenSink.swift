import Primitives
import SceneModel

/// Scenes written in Swift only, with the library's spelling, that between
/// them use every key of the scene format in every form the writer produces:
/// colours exact in hex (written "#RRGGBB") and not (written [r, g, b, a]),
/// transform scale uniform and per axis, bounds at the origin and not, every
/// move direction, every animation with and without `when`, every enum value
/// that is not a default. Values that are defaults are left out by the
/// writer; SwiftSpellingTests checks those by decoding instead.
///
/// Several scenes because one scene has one transition: the variants differ
/// in the transition's enums. All of them are valid scenes (no problems), so
/// the round-trip tests can use them too. Image files are named as the
/// fixtures name them, relative to fixtures/scenes.
enum SwiftKitchenSink {
    static let directory = Repository.path("fixtures/scenes")

    static var scenes: [Scene] {
        let exact = Scene(
            canvas: CanvasSpec(width: 320, height: 240, scale: 2, background: RGBAColor(rgb: 0x101820)),
            from: screen(hexColours: true), to: screen(hexColours: false), directory: directory
        )
        .fps(30).direction(.roundtrip).baselineDuration(0.3).viewOrder(.toViewsOnTop)
        .defaultAnimation(.scale(1.3)).hold(before: 0.1, after: 0.2).roundtripPause(0.25)
        .duration(0.4).delay(0.05).spring(response: 0.4, dampingFraction: 0.7).cascade().arc()
        .keyframes(.opacity([0: 1, 0.5: 0.5, 1: 1]))
        let translucent = RGBAColor(red: 0.5, green: 0.25, blue: 0.1, alpha: 0.5)
        let inexact = Scene(
            canvas: CanvasSpec(width: 300, height: 200, background: translucent),
            from: screen(hexColours: false), to: screen(hexColours: true), directory: directory
        )
        .direction(.dismiss).viewOrder(.fromViewsOnTop).defaultAnimation(.none)
        .spring(stiffness: 250, damping: 30, initialVelocity: 2).arc(0.5).cascade(delta: 0.05, direction: .inverseRadial)
        return [
            exact, inexact, exact.defaultAnimation(.scale(.down)).spring(duration: 0.6, bounce: -0.2),
            exact.defaultAnimation(.scale(.up)).spring(dampingRatio: 0.8),
        ] + transitionCurves + navigations + presentations + interactions
    }

    static let small = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View())

    /// Every atomic transition, each edge and both perspectives (1 is left out when written).
    static let everyAtomic: [AtomicTransition] =
        AtomicTransition.Edge.allCases.map { .move($0) } + [
            .offset(x: 10, y: -5), .opacity, .rotate(30), .rotate3D(45, axis: .y, perspective: 2), .rotate3D(-30, axis: .x),
            .scale(0.5), .zPosition(1), .bringToFront, .sendToBack, .identity,
        ]

    /// One small scene per navigation (a scene has one): every built-in with
    /// every value, and each atomic transition alone and all of them in a
    /// list on each side, in both composed forms.
    static var navigations: [Scene] {
        var scenes = [small.navigation(.default), small.navigation(.slide(.horizontal)), small.navigation(.slide(.vertical))]
        scenes += NavigationSpec.FadeStyle.allCases.map { small.navigation(.fade($0)) }
        scenes += [small.navigation(.zoom), small.navigation(.zoomOut)]
        let directed: [(HeroDirection) -> NavigationSpec] = [
            NavigationSpec.push, NavigationSpec.pull, NavigationSpec.cover, NavigationSpec.uncover, NavigationSpec.slide,
            NavigationSpec.zoomSlide, NavigationSpec.pageIn, NavigationSpec.pageOut,
        ]
        for hero in directed { scenes += HeroDirection.allCases.map { small.navigation(hero($0)) } }
        scenes += HeroDirection.allCases.flatMap { [small.navigation(.flip($0)), small.navigation(.cube($0))] }
        for atomic in everyAtomic {
            scenes.append(small.navigation(insertion: [atomic], removal: [atomic]))
            scenes.append(small.navigation(push: RootTransitions(insertion: [atomic], removal: [atomic]), pop: RootTransitions()))
        }
        scenes.append(small.navigation(insertion: everyAtomic, removal: everyAtomic, mirror: true))
        scenes.append(small.navigation(mirror: false))
        let all = RootTransitions(insertion: everyAtomic, removal: everyAtomic)
        scenes.append(small.navigation(push: all, pop: all))
        return scenes
    }

    /// Every style, dimming by default, in a colour exact in hex and one that is not.
    static var presentations: [Scene] {
        PresentationStyle.allCases.map { small.presentation($0) } + [
            small.presentation(.sheet, dimming: DimmingSpec()),
            small.presentation(.card, dimming: DimmingSpec(color: RGBAColor(rgb: 0x101820), opacity: 0.4)),
            small.presentation(dimming: DimmingSpec(color: RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.9))),
        ]
    }

    /// A finger on the 10-pt canvas along every axis (within 0...1 progress, so without warnings), every
    /// rule, a threshold's velocity weight at its default (left out when written) and not, a release
    /// velocity given (0 too: "the finger stopped" is not "no velocity given") and not, a one-point gesture.
    static var interactions: [Scene] {
        let drag: [(time: Double, translation: Double)] = [(0, 0), (0.1, 2.5), (0.3, 7)]
        func driven(_ interaction: InteractionSpec) -> Scene { small.with { $0.transition.interaction = interaction } }
        let rules: [InteractionRule] = [
            .easyTransitions, .navigationTransitions, .liquid, .threshold(0.5, velocity: 1), .threshold(0.3, velocity: 0),
        ]
        return InteractionSpec.Axis.allCases.map { axis in
            driven(InteractionSpec(axis: axis, points: drag.map { (time: $0.time, translation: axis.sign * $0.translation) }))
        }
            + rules.map { driven(InteractionSpec(points: drag, releaseVelocity: -40.5, rule: $0)) }
            + [driven(InteractionSpec(points: [(time: 0.2, translation: 5)], releaseVelocity: 0))]
    }

    /// One small scene per curve name (a scene has one transition), with a
    /// cascade direction each and, once, a Bézier.
    static var transitionCurves: [Scene] {
        let directions = CascadeDirection.allCases
        let small = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View())
        return NamedCurve.allCases.enumerated().map { i, name in
            small.curve(name).cascade(direction: directions[i % directions.count], delayMatchedViews: i.isMultiple(of: 2))
        } + [small.curve(.cubicBezier(0.1, -0.5, 0.9, 1.5))]
    }

    /// A root using every view key, holding views that use them again, one
    /// view per content mode and one with every key at its default.
    static func screen(hexColours: Bool) -> View {
        everyViewKey(id: "root", hexColours: hexColours) {
            everyViewKey(id: "nested", hexColours: !hexColours) {
                everyViewKey(id: "innermost", hexColours: hexColours) {}
            }
            for (i, mode) in ContentMode.allCases.enumerated() {
                View(name: mode.rawValue, frame: Rect(x: Double(i) * 20, y: 100, width: 18, height: 30))
                    .image(.file("../images/poster.png"))
                    .contentMode(mode)
            }
            View(name: "defaults", frame: Rect(x: 0, y: 0, width: 1, height: 1))
            depth(hexColours: hexColours)
            labels(hexColours: hexColours)
            timings()
        }
    }

    /// Issue 17's keys: one view per blur style (the default blur once, written `{}`), 3-D transforms
    /// by component and by matrix, in Swift's spellings of them.
    @SubviewsBuilder
    static func depth(hexColours: Bool) -> [View] {
        for (i, style) in BlurStyle.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 5, y: 280, width: 5, height: 5)).blur(style, radius: Double(i) * 5)
        }
        View(frame: Rect(x: 0, y: 290, width: 5, height: 5)).blur()
        View(frame: Rect(x: 5, y: 290, width: 5, height: 5)).doubleSided(false)
            .transform(TransformSpec(rotationXDegrees: 60, perspective: hexColours ? 500 : 1234.5))
        View(frame: Rect(x: 10, y: 290, width: 5, height: 5)).transform(TransformSpec(rotationYDegrees: -30))
        View(frame: Rect(x: 15, y: 290, width: 5, height: 5)).transform(TransformSpec(translationX: 1, y: 2, z: -3).perspective(800))
        View(frame: Rect(x: 20, y: 290, width: 5, height: 5))
            .transform(TransformSpec(matrix3D: Transform3D.rotation(.pi / 6, axis: 0, 1, 0).concatenating(.perspective(400))))
    }

    /// One view per curve name, spring spelling and cascade direction.
    @SubviewsBuilder
    static func timings() -> [View] {
        for (i, name) in NamedCurve.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 5, y: 250, width: 5, height: 5)).curve(name)
        }
        View(frame: Rect(x: 0, y: 260, width: 5, height: 5)).spring(response: 0.3, dampingFraction: 0.6)
        View(frame: Rect(x: 5, y: 260, width: 5, height: 5)).spring(duration: 0.4, bounce: 0.3)
        View(frame: Rect(x: 10, y: 260, width: 5, height: 5)).spring(stiffness: 300, damping: 20, mass: 2, initialVelocity: -1)
        View(frame: Rect(x: 15, y: 260, width: 5, height: 5)).spring(dampingRatio: 0.5)
        View(frame: Rect(x: 20, y: 260, width: 5, height: 5)).curve(.cubicBezier(0.68, -0.55, 0.265, 1.55))
        for (i, direction) in CascadeDirection.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 5, y: 270, width: 5, height: 5))
                .cascade(delta: 0.01 * Double(i + 1), direction: direction, delayMatchedViews: i.isMultiple(of: 2))
        }
    }

    /// Labels using every text key, font form and enum value (a bare string when only the string is set).
    @SubviewsBuilder
    static func labels(hexColours: Bool) -> [View] {
        let colour = hexColours ? RGBAColor(rgb: 0x333333) : RGBAColor(red: 0.2, green: 0.3, blue: 0.4, alpha: 0.8)
        View(frame: Rect(x: 0, y: 140, width: 80, height: 20)).text("Plain")
        View(frame: Rect(x: 0, y: 160, width: 80, height: 40))
            .text(
                TextSpec(
                    "Every key", font: FontSpec(family: "Noto Sans", size: 13, weight: .bold, italic: true), color: colour,
                    alignment: .justified, numberOfLines: 0, lineBreakMode: .byWordWrapping, lineHeightMultiple: 1.5,
                    letterSpacing: -0.5))
        View(frame: Rect(x: 80, y: 140, width: 80, height: 20))
            .text(TextSpec("From a file", font: FontSpec(file: "/usr/share/fonts/opentype/inter/Inter-Bold.otf", size: 11)))
        for (i, style) in TextStyle.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 10, y: 200, width: 10, height: 10)).text(
                TextSpec(style.rawValue, font: FontSpec(textStyle: style)))
        }
        for (i, weight) in FontWeight.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 10, y: 210, width: 10, height: 10))
                .text(TextSpec(weight.rawValue, font: FontSpec(size: 9, weight: weight, italic: i.isMultiple(of: 2))))
        }
        for (i, alignment) in TextAlignment.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 10, y: 220, width: 10, height: 10)).text(TextSpec("a", alignment: alignment))
        }
        for (i, mode) in LineBreakMode.allCases.enumerated() {
            View(frame: Rect(x: Double(i) * 10, y: 230, width: 10, height: 10)).text(TextSpec("b", numberOfLines: 2, lineBreakMode: mode))
        }
    }

    static func everyViewKey(id: String, hexColours: Bool, @SubviewsBuilder subviews: () -> [View]) -> View {
        let fill = hexColours ? RGBAColor(rgb: 0x3366CC) : RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.9)
        let accent = hexColours ? RGBAColor(rgba: 0xFF00_FF80) : RGBAColor(white: 0.3, alpha: 0.5)
        let transform =
            hexColours
            ? TransformSpec(scale: 1.1)
            : TransformSpec(
                translate: Point(x: 1, y: 2), scale: Size(width: 1, height: -1), rotate: 5, rotateX: 10, rotateY: -20, translateZ: 5,
                perspective: 500)
        return View(name: "every key \(id)", frame: Rect(x: 4, y: 6, width: 100, height: 60), subviews: subviews)
            .backgroundColor(fill)
            .alpha(0.9)
            .cornerRadius(8)
            .masksToBounds()
            .border(width: 1.5, color: accent)
            .shadow(color: accent, opacity: 0.3, radius: 4, offset: Size(width: 0, height: 2))
            .gradient(
                GradientSpec(
                    type: hexColours ? .radial : .conic, colors: [fill, accent, fill],
                    locations: hexColours ? [0, 0.5, 1] : nil,
                    startPoint: Point(x: 0.25, y: 0.5), endPoint: Point(x: 1, y: 0.75))
            )
            .transform(transform)
            .doubleSided(!hexColours)
            .blur(hexColours ? .systemChromeMaterialLight : .dark, radius: hexColours ? 20 : 12.5)
            .anchorPoint(Point(x: 0.25, y: 0.75))
            .zPosition(2)
            .isHidden()
            .image(.file("../images/star.png"))
            .contentMode(.aspectFill)
            .shift(
                id: id, contentAnimation: .final, contentSizing: .final, superview: .container,
                position: hexColours ? .front : .back, isHidden: true, animations: everyAnimation(colour: accent)
            )
            .duration(0.35).delay(0.1).arc(hexColours ? 1 : 0.25)
            .keyframes(everyKeyframe(colour: accent, uniformScale: hexColours))
    }

    /// A track for every property but opacity (alpha's other name: one of them per view).
    static func everyKeyframe(colour: RGBAColor, uniformScale: Bool) -> [KeyframeTrack] {
        [
            .alpha([0: 1, 0.5: 0.2, 1: 1]), .cornerRadius([0: 20, 1: 0]), .borderWidth([0: 0, 1: 2]),
            .borderColor([0: colour, 1: .white]), .backgroundColor([0: .black, 0.5: colour, 0.5: .white, 1: colour]),
            .shadowColor([0: colour]), .shadowOpacity([0: 0, 1: 0.5]), .shadowRadius([0: 2, 1: 8]),
            .shadowOffset([0: Size(width: 0, height: 2), 1: Size(width: 1, height: 8)]),
            .position([0: Point(x: 35, y: 30), 1: Point(x: 60, y: 40)]),
            .size([0: Size(width: 50, height: 40), 1: Size(width: 120, height: 60)]),
            .translate([0: .zero, 0.5: Point(x: 0, y: -40), 1: .zero]),
            uniformScale ? .scale([0: 1, 0.5: 1.2, 1: 1]) : .scale([0: Size(width: 1, height: 1), 1: Size(width: 1.2, height: 0.8)]),
            .rotate([0: 0, 0.25: 10, 1: -10]), .anchorPoint([0: Point(x: 0.5, y: 0.5), 1: Point(x: 0, y: 1)]),
            .rotateX([0: 0, 1: 45]), .rotateY([0: -30, 1: 0]), .translateZ([0: 0, 1: -50]), .perspective([0: 400, 1: 800]),
            .blurRadius([0: 0, 1: 30]),
        ]
    }

    /// Every animation, each move direction and both bounds forms, with and without `when`.
    static func everyAnimation(colour: RGBAColor) -> [AdditionalAnimation] {
        [
            .fade, .fade(.onAppear), .scale(0.5, .onDisappear),
            .move(.up(10)), .move(.down(2)), .move(.left(3)), .move(.right(4)), .move(x: -5, y: 6),
            .bounds(Size(width: 20, height: 20)), .bounds(Rect(x: 1, y: 1, width: 10, height: 10), .onAppear),
            .alpha(0.5), .opacity(0.25), .cornerRadius(3), .anchorPoint(Point(x: 0, y: 1)), .zPosition(-2),
            .masksToBounds(true), .borderColor(colour), .borderWidth(2), .shadowColor(colour),
            .shadowOffset(Size(width: 1, height: 1)), .shadowRadius(6), .shadowOpacity(0.5),
            .transform(TransformSpec(translate: Point(x: 3, y: 3), scale: Size(width: 2, height: 3), rotate: -45)),
            .transform(TransformSpec(scale: 2)), .backgroundColor(colour), .rotate(90),
            .transform(TransformSpec(rotationYDegrees: 180, perspective: 300)),
            .transform(TransformSpec(matrix3D: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 10, 1])),
        ]
    }
}
