import Primitives
import SceneModel
import Testing

/// The Swift spelling builds exactly the model values the imperative style
/// and the scene format build: every modifier sets its own property and no
/// other, Shift's animation words give Shift's arithmetic, and the builder
/// keeps subviews in order.
@Suite struct SwiftSpellingModelTests {
    @Test func builderAndModifiersEqualImperativeStyle() {
        let built = View(name: "card", frame: Rect(x: 20, y: 140, width: 350, height: 130)) {
            View(name: "title", frame: Rect(x: 100, y: 24, width: 180, height: 22))
                .backgroundColor(RGBAColor(rgb: 0x1C1C1E)).cornerRadius(5).shift(id: "title")
            View(name: "subtitle").frame(x: 100, y: 56, width: 130, height: 14)
        }
        .backgroundColor(.white).cornerRadius(16).shift(id: "card")

        var title = View(name: "title", frame: Rect(x: 100, y: 24, width: 180, height: 22))
        title.backgroundColor = RGBAColor(hex: "#1C1C1E")
        title.cornerRadius = 5
        title.shift.id = "title"
        var card = View(name: "card", frame: Rect(x: 20, y: 140, width: 350, height: 130))
        card.backgroundColor = .white
        card.cornerRadius = 16
        card.shift.id = "card"
        card.subviews = [title, View(name: "subtitle", frame: Rect(x: 100, y: 56, width: 130, height: 14))]
        #expect(built == card)
    }

    @Test func eachViewModifierSetsItsOwnPropertyOnly() {
        let plain = View()
        let shadow = ShadowSpec(color: .white, opacity: 0.5, radius: 4, offset: Size(width: 1, height: 2))
        let image = ImageSource.file("poster.png")
        let cases: [(View, (inout View) -> Void)] = [
            (plain.name("n"), { $0.name = "n" }),
            (plain.frame(Rect(x: 1, y: 2, width: 3, height: 4)), { $0.frame = Rect(x: 1, y: 2, width: 3, height: 4) }),
            (plain.backgroundColor(.white), { $0.backgroundColor = .white }),
            (plain.alpha(0.5), { $0.alpha = 0.5 }),
            (plain.cornerRadius(7), { $0.cornerRadius = 7 }),
            (plain.masksToBounds(), { $0.masksToBounds = true }),
            (plain.borderWidth(2), { $0.borderWidth = 2 }),
            (plain.borderColor(.white), { $0.borderColor = .white }),
            (
                plain.border(width: 2, color: .white),
                {
                    $0.borderWidth = 2
                    $0.borderColor = .white
                }
            ),
            (plain.shadow(shadow), { $0.shadow = shadow }),
            (plain.shadow(color: .white, opacity: 0.5, radius: 4, offset: Size(width: 1, height: 2)), { $0.shadow = shadow }),
            (plain.transform(TransformSpec(rotationDegrees: 5)), { $0.transform.rotate = 5 }),
            (plain.anchorPoint(Point(x: 0, y: 1)), { $0.anchorPoint = Point(x: 0, y: 1) }),
            (plain.zPosition(3), { $0.zPosition = 3 }),
            (plain.isHidden(), { $0.isHidden = true }),
            (plain.image(image), { $0.image = image }),
            (plain.contentMode(.aspectFit), { $0.contentMode = .aspectFit }),
            (
                plain.shift(ShiftOptions(id: "x", position: .front)),
                {
                    $0.shift.id = "x"
                    $0.shift.position = .front
                }
            ),
            (plain.with { $0.shift.isHidden = true }, { $0.shift.isHidden = true }),
        ]
        for (index, (modified, set)) in cases.enumerated() {
            var expected = plain
            set(&expected)
            #expect(modified == expected, "modifier case \(index)")
            #expect(modified != plain, "modifier case \(index) changed nothing")
        }
    }

    @Test func shiftModifierChangesOnlyTheOptionsGiven() {
        let view = View()
            .shift(id: "card", contentAnimation: .final)
            .shift(contentSizing: .final, superview: .container)
            .shift(position: .back, isHidden: true, animations: [.fade])
        let expected = ShiftOptions(
            id: "card", contentAnimation: .final, contentSizing: .final, superview: .container,
            position: .back, isHidden: true, animations: [AdditionalAnimation(.fade)])
        #expect(view.shift == expected)
    }

    @Test func builderTakesConditionsLoopsAndArraysInOrder() {
        let showBadge = false
        let rows = ["a", "b"]
        let list = View {
            View(name: "header")
            if showBadge { View(name: "badge") } else { View(name: "no badge") }
            for row in rows { View(name: row) }
            [View(name: "x"), View(name: "y")]
        }
        #expect(list.subviews.map(\.name) == ["header", "no badge", "a", "b", "x", "y"])
        let added = list.addingSubviews { View(name: "z") }
        #expect(added.subviews.map(\.name) == ["header", "no badge", "a", "b", "x", "y", "z"])
    }

    @Test func moveDirectionsFollowShift() {
        // right 150: the view comes from 150 pt to the left.
        #expect(PropertyChange.move(.right(150)) == .move(dx: -150, dy: 0))
        #expect(PropertyChange.move(.left(20)) == .move(dx: 20, dy: 0))
        #expect(PropertyChange.move(.up(80)) == .move(dx: 0, dy: 80))
        #expect(PropertyChange.move(.down(30)) == .move(dx: 0, dy: -30))
        #expect(AdditionalAnimation.move(x: 3, y: -4) == AdditionalAnimation(.move(dx: 3, dy: -4)))
    }

    @Test func animationListAndChainAreTheSameModel() {
        let list: [AdditionalAnimation] = [.fade, .move(.right(150)), .scale(2, .onAppear), .fade(.onDisappear)]
        var view = View()
        view.shift.animations = .init().fade().move(.right(150)).scale(2, .onAppear).fade(.onDisappear)
        let model = [
            AdditionalAnimation(.fade), AdditionalAnimation(.move(dx: -150, dy: 0)),
            AdditionalAnimation(.scale(2), when: .onAppear), AdditionalAnimation(.fade, when: .onDisappear),
        ]
        #expect(list == model)
        #expect(view.shift.animations == model)
        view.shift.animations += [.rotate(90)]
        #expect(view.shift.animations.last == AdditionalAnimation(.rotate(90)))
    }

    @Test func everyAnimationWordBuildsItsChange() {
        let rect = Rect(x: 1, y: 2, width: 3, height: 4)
        let t = TransformSpec(scale: 2)
        let pairs: [(AdditionalAnimation, [AdditionalAnimation], PropertyChange)] = [
            (.scale(2), .init().scale(2), .scale(2)),
            (.bounds(rect), .init().bounds(rect), .bounds(rect)),
            (
                .bounds(Size(width: 3, height: 4)), .init().bounds(Size(width: 3, height: 4)),
                .bounds(Rect(x: 0, y: 0, width: 3, height: 4))
            ),
            (.alpha(0.5), .init().alpha(0.5), .alpha(0.5)),
            (.opacity(0.5), .init().opacity(0.5), .opacity(0.5)),
            (.cornerRadius(4), .init().cornerRadius(4), .cornerRadius(4)),
            (.anchorPoint(.zero), .init().anchorPoint(.zero), .anchorPoint(.zero)),
            (.zPosition(2), .init().zPosition(2), .zPosition(2)),
            (.masksToBounds(true), .init().masksToBounds(true), .masksToBounds(true)),
            (.borderColor(.white), .init().borderColor(.white), .borderColor(.white)),
            (.borderWidth(2), .init().borderWidth(2), .borderWidth(2)),
            (.shadowColor(.white), .init().shadowColor(.white), .shadowColor(.white)),
            (.shadowOffset(.zero), .init().shadowOffset(.zero), .shadowOffset(.zero)),
            (.shadowRadius(5), .init().shadowRadius(5), .shadowRadius(5)),
            (.shadowOpacity(0.5), .init().shadowOpacity(0.5), .shadowOpacity(0.5)),
            (.transform(t), .init().transform(t), .transform(t)),
            (.backgroundColor(.white), .init().backgroundColor(.white), .backgroundColor(.white)),
            (.rotate(45), .init().rotate(45), .rotate(45)),
            (.move(.up(1)), .init().move(.up(1)), .move(dx: 0, dy: 1)),
            (.move(x: 1, y: 2), .init().move(x: 1, y: 2), .move(dx: 1, dy: 2)),
        ]
        for (word, chain, change) in pairs {
            #expect(word == AdditionalAnimation(change), "\(change.name)")
            #expect(chain == [AdditionalAnimation(change)], "\(change.name)")
        }
        #expect(AdditionalAnimation.alpha(0, .onDisappear).condition == .onDisappear)
        #expect([AdditionalAnimation]().rotate(1, .onAppear).first?.condition == .onAppear)
    }

    @Test func sceneModifiersSetTheTransition() {
        let scene = Scene(canvas: CanvasSpec(width: 100, height: 200), from: View(), to: View())
            .fps(30).direction(.roundtrip).baselineDuration(0.4).viewOrder(.fromViewsOnTop)
            .defaultAnimation(.scale(.down)).hold(before: 0.1).hold(after: 0.2).roundtripPause(0.3)
            .directory("/tmp").version(1)
        let transition = TransitionSpec(
            direction: .roundtrip, baselineDuration: 0.4, viewOrder: .fromViewsOnTop,
            defaultAnimation: .scaleDown, holdBefore: 0.1, holdAfter: 0.2, roundtripPause: 0.3)
        #expect(
            scene
                == Scene(
                    canvas: CanvasSpec(width: 100, height: 200), fps: 30, transition: transition,
                    from: View(), to: View(), directory: "/tmp"))
        #expect(DefaultAnimation.scale(.up) == .scaleUp)
        #expect(scene.transition(TransitionSpec()).transition == TransitionSpec())
        #expect(scene.canvas(CanvasSpec(width: 1, height: 1)).canvas.width == 1)
    }

    @Test func eachTimingModifierSetsItsOwnKeyOnly() {
        let tracks = [KeyframeTrack(.alpha, [KeyframeStop(at: 0, .number(1))])]
        let cascade = CascadeSpec(delta: 0.05, direction: .radial, delayMatchedViews: true)
        let cases: [(View, Scene, (inout TimingOptions) -> Void)] = [
            (View().duration(0.5), scene.duration(0.5), { $0.duration = 0.5 }),
            (View().delay(0.1), scene.delay(0.1), { $0.delay = 0.1 }),
            (View().curve(.easeInOutCubic), scene.curve(.easeInOutCubic), { $0.curve = .named(.easeInOutCubic) }),
            (View().curve(.standard), scene.curve(.standard), { $0.curve = .named(.standard) }),
            (
                View().curve(.cubicBezier(0.1, 0.2, 0.3, 0.4)), scene.curve(.cubicBezier(0.1, 0.2, 0.3, 0.4)),
                {
                    $0.curve = .cubicBezier(TimingCurve(0.1, 0.2, 0.3, 0.4))
                }
            ),
            (
                View().spring(response: 0.3), scene.spring(response: 0.3),
                {
                    $0.curve = .spring(.response(response: 0.3, dampingFraction: 0.825))
                }
            ),
            (View().spring(bounce: 0.2), scene.spring(bounce: 0.2), { $0.curve = .spring(.durationBounce(duration: 0.5, bounce: 0.2)) }),
            (View().spring(stiffness: 250, damping: 30), scene.spring(stiffness: 250, damping: 30), { $0.curve = .spring(.heroDefault) }),
            (View().spring(dampingRatio: 0.8), scene.spring(dampingRatio: 0.8), { $0.curve = .spring(.dampingRatio(0.8)) }),
            (View().cascade(), scene.cascade(), { $0.cascade = CascadeSpec() }),
            (View().cascade(delta: 0.05, direction: .radial, delayMatchedViews: true), scene.cascade(cascade), { $0.cascade = cascade }),
            (View().arc(), scene.arc(), { $0.arc = 1 }),
            (View().arc(0.3), scene.arc(0.3), { $0.arc = 0.3 }),
            (View().keyframes(tracks), scene.keyframes(.alpha([0: 1])), { $0.keyframes = tracks }),
            (View().timing(TimingOptions(delay: 2)), scene.timing(TimingOptions(delay: 2)), { $0.delay = 2 }),
        ]
        for (index, (view, scene, set)) in cases.enumerated() {
            var expected = TimingOptions()
            set(&expected)
            #expect(!expected.isEmpty, "timing case \(index) changed nothing")
            #expect(view == View().with { $0.shift.timing = expected }, "view timing case \(index)")
            #expect(scene == self.scene.with { $0.transition.timing = expected }, "scene timing case \(index)")
        }
        // Unset again: nil, and an empty list.
        let unset = View().duration(1).delay(1).curve(.linear).cascade().arc().keyframes(tracks)
            .duration(nil).delay(nil).curve(nil).cascade(nil).arc(nil).keyframes()
        #expect(unset == View())
    }

    let scene = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View())

    @Test func keyframeWordsBuildTheirStopsInOrder() {
        let red = RGBAColor(rgb: 0xFF0000)
        let p = Point(x: 1, y: 2)
        let s = Size(width: 3, height: 4)
        let pairs: [(KeyframeTrack, KeyframeProperty, [KeyframeStop])] = [
            (
                .alpha([0: 1, 0.5: 0.2, 0.5: 0.4, 1: 1]), .alpha,
                [
                    KeyframeStop(at: 0, .number(1)), KeyframeStop(at: 0.5, .number(0.2)), KeyframeStop(at: 0.5, .number(0.4)),
                    KeyframeStop(at: 1, .number(1)),
                ]
            ),
            (.opacity([1: 0]), .opacity, [KeyframeStop(at: 1, .number(0))]),
            (.cornerRadius([0: 8]), .cornerRadius, [KeyframeStop(at: 0, .number(8))]),
            (.borderWidth([0: 2]), .borderWidth, [KeyframeStop(at: 0, .number(2))]),
            (.borderColor([0: red]), .borderColor, [KeyframeStop(at: 0, .color(red))]),
            (.backgroundColor([0: red]), .backgroundColor, [KeyframeStop(at: 0, .color(red))]),
            (.shadowColor([0: red]), .shadowColor, [KeyframeStop(at: 0, .color(red))]),
            (.shadowOpacity([0: 0.5]), .shadowOpacity, [KeyframeStop(at: 0, .number(0.5))]),
            (.shadowRadius([0: 4]), .shadowRadius, [KeyframeStop(at: 0, .number(4))]),
            (.shadowOffset([0: s]), .shadowOffset, [KeyframeStop(at: 0, .pair(3, 4))]),
            (.position([0: p]), .position, [KeyframeStop(at: 0, .pair(1, 2))]),
            (.size([0: s]), .size, [KeyframeStop(at: 0, .pair(3, 4))]),
            (.translate([0: p]), .translate, [KeyframeStop(at: 0, .pair(1, 2))]),
            (.scale([0: s]), .scale, [KeyframeStop(at: 0, .pair(3, 4))]),
            (.scale([0: 2]), .scale, [KeyframeStop(at: 0, .pair(2, 2))]),
            (.rotate([0: 90]), .rotate, [KeyframeStop(at: 0, .number(90))]),
            (.anchorPoint([0: p]), .anchorPoint, [KeyframeStop(at: 0, .pair(1, 2))]),
            (.rotateX([0: 30]), .rotateX, [KeyframeStop(at: 0, .number(30))]),
            (.rotateY([1: -30]), .rotateY, [KeyframeStop(at: 1, .number(-30))]),
            (.translateZ([0: 5]), .translateZ, [KeyframeStop(at: 0, .number(5))]),
            (.perspective([0: 500]), .perspective, [KeyframeStop(at: 0, .number(500))]),
            (.blurRadius([0.5: 10]), .blurRadius, [KeyframeStop(at: 0.5, .number(10))]),
        ]
        for (track, property, stops) in pairs {
            #expect(track == KeyframeTrack(property, stops), "\(property)")
        }
        #expect(Set(pairs.map(\.1)) == Set(KeyframeProperty.allCases))
    }

    @Test func transformConveniencesSetOneComponent() {
        #expect(TransformSpec(scale: 2) == TransformSpec(scale: Size(width: 2, height: 2)))
        #expect(TransformSpec(scaleX: 2, y: -1).scale == Size(width: 2, height: -1))
        #expect(TransformSpec(translationX: 3, y: 4) == TransformSpec(translate: Point(x: 3, y: 4)))
        #expect(TransformSpec(rotationDegrees: 90) == TransformSpec(rotate: 90))
    }

    @Test func integerHexColoursEqualStringHexColours() {
        #expect(RGBAColor(rgb: 0xF2F2F7) == RGBAColor(hex: "#F2F2F7"))
        #expect(RGBAColor(rgb: 0xFF6A3D, alpha: 0.5) == RGBAColor(red: 1, green: 106.0 / 255, blue: 61.0 / 255, alpha: 0.5))
        #expect(RGBAColor(rgba: 0xFF00_FF80) == RGBAColor(hex: "#FF00FF80"))
        #expect(RGBAColor(white: 0.5) == RGBAColor(red: 0.5, green: 0.5, blue: 0.5))
        #expect(RGBAColor(rgb: 0xF2F2F7).isExactInHex)
        // A digit too many is an invalid colour for the validator, not a crash.
        #expect(RGBAColor(rgb: 0xF2F2F70).red.isNaN)
    }
}
