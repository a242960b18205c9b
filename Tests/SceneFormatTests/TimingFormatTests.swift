import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// The timing keys (`duration`, `delay`, `curve`, `cascade`, `arc`,
/// `keyframes`) on a view's `shift` and on `transition`: every form read to
/// the model the Swift spelling builds, written back, and every mistake
/// reported once, with the message and place a user reads.
@Suite struct TimingFormatTests {
    func text(shift: String = "{}", transition: String = "{}") -> String {
        """
        {"version": 1, "canvas": {"width": 100, "height": 100}, "transition": \(transition), "from": {},
         "to": {"subviews": [{"frame": [0, 0, 50, 20],
                              "shift": \(shift)}]}}
        """
    }

    func load(shift: String = "{}", transition: String = "{}") -> (Scene?, [String]) {
        do {
            let scene = try loadScene(bytes: Array(text(shift: shift, transition: transition).utf8), file: "t.json", baseDirectory: "/s")
            return (scene, [])
        } catch {
            return (nil, error.issues.map { "\($0.path): \($0.message)" })
        }
    }

    /// The view's timing as the file gives it (nil, and the test fails, when the file has problems).
    func timing(_ shift: String) -> TimingOptions? {
        let (scene, problems) = load(shift: shift)
        #expect(problems == [], "\(shift)")
        return scene?.to.subviews[0].shift.timing
    }

    func problems(shift: String = "{}", transition: String = "{}") -> [String] { load(shift: shift, transition: transition).1 }

    let view = View()
    let at = "to.subviews[0].shift"

    // MARK: Good forms

    @Test func everyFormReadsAsTheSwiftSpellingBuildsIt() {
        let cases: [(String, View)] = [
            (#"{"duration": 0.5, "delay": 0.1}"#, view.duration(0.5).delay(0.1)),
            (#"{"duration": 0, "delay": 600}"#, view.duration(0).delay(600)),
            (#"{"curve": {"cubicBezier": [0.68, -0.55, 0.265, 1.55]}}"#, view.curve(.cubicBezier(0.68, -0.55, 0.265, 1.55))),
            (#"{"curve": {"spring": {"response": 0.3, "dampingFraction": 0.6}}}"#, view.spring(response: 0.3, dampingFraction: 0.6)),
            // A key left out takes the spelling's system default.
            (#"{"curve": {"spring": {"response": 0.3}}}"#, view.spring(response: 0.3, dampingFraction: 0.825)),
            (#"{"curve": {"spring": {"dampingFraction": 0.6}}}"#, view.spring(response: 0.5, dampingFraction: 0.6)),
            (#"{"curve": {"spring": {"duration": 0.4, "bounce": 0.3}}}"#, view.spring(duration: 0.4, bounce: 0.3)),
            (#"{"curve": {"spring": {"bounce": -0.5}}}"#, view.spring(duration: 0.5, bounce: -0.5)),
            (
                #"{"curve": {"spring": {"stiffness": 250, "damping": 30, "mass": 2, "initialVelocity": -1}}}"#,
                view.spring(stiffness: 250, damping: 30, mass: 2, initialVelocity: -1)
            ),
            (#"{"curve": {"spring": {"damping": 20}}}"#, view.spring(stiffness: 100, damping: 20, mass: 1, initialVelocity: 0)),
            (#"{"curve": {"spring": {"dampingRatio": 0.8}}}"#, view.spring(dampingRatio: 0.8)),
            (#"{"cascade": true}"#, view.cascade(delta: 0.02, direction: .topToBottom, delayMatchedViews: false)),
            (#"{"cascade": false}"#, view.cascade(nil)),
            (#"{"cascade": {}}"#, view.cascade()),
            (#"{"cascade": {"direction": "radial"}}"#, view.cascade(direction: .radial)),
            (
                #"{"cascade": {"delta": 0.05, "direction": "rightToLeft", "delayMatchedViews": true}}"#,
                view.cascade(delta: 0.05, direction: .rightToLeft, delayMatchedViews: true)
            ),
            (#"{"arc": true}"#, view.arc()),
            (#"{"arc": false}"#, view.arc(nil)),
            (#"{"arc": 0.4}"#, view.arc(0.4)),
            (#"{"arc": 0}"#, view.arc(0)),
            // The contract's example; tracks keep the order written.
            (
                ##"""
                {"keyframes": {"cornerRadius": [[0, 20], [1, 0]], "alpha": [[0, 1], [0.5, 0.2], [1, 1]],
                               "translate": [[0, [0, 0]], [0.5, [0, -40]], [1, [0, 0]]],
                               "backgroundColor": [[0, "#FF0000"], [1, "#0000FF"]]}}
                """##,
                view.keyframes(
                    .cornerRadius([0: 20, 1: 0]), .alpha([0: 1, 0.5: 0.2, 1: 1]),
                    .translate([0: .zero, 0.5: Point(x: 0, y: -40), 1: .zero]),
                    .backgroundColor([0: RGBAColor(rgb: 0xFF0000), 1: RGBAColor(rgb: 0x0000FF)]))
            ),
            // One number is both axes of a scale; equal neighbouring stops are a step.
            (
                #"{"keyframes": {"scale": [[0, 1], [0.5, [1.5, 0.5]], [0.5, 2], [1, 1]]}}"#,
                view.keyframes(
                    .scale([
                        0: Size(width: 1, height: 1), 0.5: Size(width: 1.5, height: 0.5), 0.5: Size(width: 2, height: 2),
                        1: Size(width: 1, height: 1),
                    ]))
            ),
            (
                #"{"keyframes": {"size": [[0, [10, 20]]], "shadowOffset": [[1, [0, -3]]], "anchorPoint": [[0.5, [0, 1]]]}}"#,
                view.keyframes(
                    .size([0: Size(width: 10, height: 20)]), .shadowOffset([1: Size(width: 0, height: -3)]),
                    .anchorPoint([0.5: Point(x: 0, y: 1)]))
            ),
            (#"{"keyframes": {}}"#, view.keyframes([])),
        ]
        for (json, built) in cases {
            #expect(timing(json) == built.shift.timing, "\(json)")
        }
        for name in NamedCurve.allCases {
            #expect(timing(#"{"curve": "\#(name.rawValue)"}"#) == view.curve(name).shift.timing)
        }
        // A view's key or the transition's, the same forms.
        let (scene, problems) = load(
            transition:
                #"{"duration": 0.6, "delay": 0.2, "curve": "easeOutBack", "cascade": true, "arc": 1, "#
                + #""keyframes": {"rotate": [[0, 0], [1, 90]]}}"#
        )
        #expect(problems == [])
        let expected = Scene(canvas: CanvasSpec(width: 1, height: 1), from: View(), to: View())
            .duration(0.6).delay(0.2).curve(.easeOutBack).cascade().arc().keyframes(.rotate([0: 0, 1: 90]))
        #expect(scene?.transition.timing == expected.transition.timing)
        #expect(scene?.transition.timing.curve == .named(.easeOutBack))
    }

    // MARK: Written back

    func written(_ scene: Scene) throws -> String { String(decoding: try SceneJSON.encode(scene), as: UTF8.self) }

    func scene(_ subview: View) -> Scene {
        Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View { subview })
    }

    @Test func writtenOnlyWhenSetAndReadBackEqual() throws {
        let full = scene(
            View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
                .duration(0.3).delay(0).spring(stiffness: 250, damping: 30).cascade().arc()
                .keyframes(
                    .scale([0: Size(width: 1, height: 1), 1: Size(width: 1, height: 2)]),
                    .shadowColor([0: RGBAColor(red: 0.1, green: 0.2, blue: 0.3)]))
        )
        .spring(response: 0.5).arc(0.5).cascade(direction: .inverseRadial)
        let text = try written(full)
        for expected in [
            #""duration": 0.3"#, #""delay": 0"#, #""arc": true"#, #""arc": 0.5"#,
            #""cascade": {"delta": 0.02, "direction": "topToBottom", "delayMatchedViews": false}"#,
            #""cascade": {"delta": 0.02, "direction": "inverseRadial", "delayMatchedViews": false}"#,
            // Every key of the spelling, so the spelling shows.
            #""curve": {"spring": {"stiffness": 250, "damping": 30, "mass": 1, "initialVelocity": 0}}"#,
            #""curve": {"spring": {"response": 0.5, "dampingFraction": 0.825}}"#,
            #""scale": [[0, 1], [1, [1, 2]]]"#, #""shadowColor": [[0, [0.1, 0.2, 0.3, 1]]]"#,
        ] {
            #expect(text.contains(expected), "\(expected) in\n\(text)")
        }
        let back = try loadScene(bytes: Array(text.utf8), baseDirectory: "/s")
        #expect(back.transition == full.transition)
        #expect(back.to == full.to)
        // Nothing set, nothing written.
        let plain = try written(scene(View(frame: Rect(x: 0, y: 0, width: 5, height: 5))))
        for key in SceneKeys.timing { #expect(!plain.contains("\"\(key)\"")) }
        #expect(try written(scene(View(frame: Rect(x: 0, y: 0, width: 5, height: 5)).curve(.linear))).contains(#""curve": "linear""#))
        #expect(
            try written(scene(View(frame: Rect(x: 0, y: 0, width: 5, height: 5)).curve(.cubicBezier(0.1, 0, 0.2, 1)))).contains(
                #""curve": {"cubicBezier": [0.1, 0, 0.2, 1]}"#))
    }

    /// Possible only in Swift: a property twice, or a value of another kind, has no JSON.
    @Test func tracksJSONCannotSayAreRefusedWithTheirPlace() {
        let frame = Rect(x: 0, y: 0, width: 5, height: 5)
        let twice = scene(View(frame: frame).keyframes(.alpha([0: 1]), .alpha([1: 0])))
        let wrongKind = scene(View(frame: frame).keyframes(KeyframeTrack(.cornerRadius, [KeyframeStop(at: 0, .pair(1, 2))])))
        for (bad, place, reason) in [
            (twice, "to.subviews[0].shift.keyframes.alpha", "alpha has keyframes twice; JSON names each property once"),
            (
                wrongKind, "to.subviews[0].shift.keyframes.cornerRadius[0][1]",
                "cornerRadius keyframes take a number, not a pair; JSON has no spelling for it"
            ),
        ] {
            do throws(SceneJSON.WriteError) {
                _ = try SceneJSON.encode(bad)
                Issue.record("\(place) was written")
            } catch {
                #expect(error.place.description == place)
                #expect(error.reason == reason)
            }
        }
    }

    // MARK: What only a file can get wrong

    @Test func mistakesInTheFileAreNamedAtTheirPlace() {
        let curveForms = #"a curve name, {"cubicBezier": [x1, y1, x2, y2]} or {"spring": {...}}"#
        let cases: [(String, String)] = [
            (#"{"curve": "easeInOutCubik"}"#, #"\#(at).curve: unknown curve "easeInOutCubik"; did you mean "easeInOutCubic"?"#),
            (#"{"curve": "ease-in-out"}"#, #"\#(at).curve: unknown curve "ease-in-out"; did you mean "easeInOut"?"#),
            // Core Animation's and CSS's names.
            (
                #"{"curve": "kCAMediaTimingFunctionEaseInEaseOut"}"#,
                #"\#(at).curve: unknown curve "kCAMediaTimingFunctionEaseInEaseOut"; did you mean "easeInOut"?"#
            ),
            (#"{"curve": "ease"}"#, #"\#(at).curve: unknown curve "ease"; did you mean "default"?"#),
            (#"{"curve": 3}"#, "\(at).curve: expected \(curveForms), got a number"),
            (#"{"curve": {}}"#, #"\#(at).curve: expected {"cubicBezier": [x1, y1, x2, y2]} or {"spring": {...}}, got an empty object"#),
            (
                #"{"curve": {"cubicBezier": [0, 0, 1, 1], "spring": {"dampingRatio": 1}}}"#,
                "\(at).curve: one curve at a time: give cubicBezier or spring, not both"
            ),
            (#"{"curve": {"bezier": [0, 0, 1, 1]}}"#, #"\#(at).curve.bezier: unknown key "bezier"; did you mean "cubicBezier"?"#),
            (
                #"{"curve": {"controlPoints": [0, 0, 1, 1]}}"#,
                #"\#(at).curve.controlPoints: unknown key "controlPoints"; did you mean "cubicBezier"?"#
            ),
            (#"{"curve": {"cubicBezier": [0, 0, 1]}}"#, "\(at).curve.cubicBezier: expected [x1, y1, x2, y2], got 3 numbers"),
            (
                #"{"curve": {"spring": {"response": 0.5, "stiffness": 100, "damping": 10}}}"#,
                "\(at).curve.spring: mixes two spring spellings, SwiftUI's {response, dampingFraction} and "
                    + "CASpringAnimation's {stiffness, damping, mass, initialVelocity}; use the keys of one"
            ),
            (
                #"{"curve": {"spring": {"dampingRatio": 0.5, "bounce": 0.2, "mass": 1}}}"#,
                "\(at).curve.spring: mixes 3 spring spellings, SwiftUI's {duration, bounce}, "
                    + "CASpringAnimation's {stiffness, damping, mass, initialVelocity} and UIViewPropertyAnimator's {dampingRatio}; "
                    + "use the keys of one"
            ),
            (
                #"{"curve": {"spring": {}}}"#,
                "\(at).curve.spring: an empty spring; give the keys of one spelling: SwiftUI's {response, dampingFraction}, "
                    + "SwiftUI's {duration, bounce}, CASpringAnimation's {stiffness, damping, mass, initialVelocity} "
                    + "or UIViewPropertyAnimator's {dampingRatio}"
            ),
            (
                #"{"curve": {"spring": {"stifness": 100}}}"#,
                #"\#(at).curve.spring.stifness: unknown key "stifness"; did you mean "stiffness"?"#
            ),
            (
                #"{"curve": {"spring": {"usingSpringWithDamping": 0.7}}}"#,
                #"\#(at).curve.spring.usingSpringWithDamping: unknown key "usingSpringWithDamping"; did you mean "dampingRatio"?"#
            ),
            (#"{"curve": {"spring": {"dampingRatio": "low"}}}"#, "\(at).curve.spring.dampingRatio: expected a number, got a string"),
            (#"{"curve": {"spring": 0.5}}"#, "\(at).curve.spring: expected an object, got a number"),
            (#"{"timingFunction": "linear"}"#, #"\#(at).timingFunction: unknown key "timingFunction"; did you mean "curve"?"#),
            (#"{"duration": "fast"}"#, "\(at).duration: expected a number, got a string"),
            (#"{"delay": null}"#, "\(at).delay: expected a number, got null"),
            (
                #"{"cascade": 0.02}"#,
                #"\#(at).cascade: expected true, false or {"delta": 0.02, "direction": "topToBottom", "delayMatchedViews": false}, "#
                    + "got a number"
            ),
            (
                #"{"cascade": {"direction": "topToBotom"}}"#,
                #"\#(at).cascade.direction: unknown value "topToBotom"; expected one of: topToBottom, bottomToTop, leftToRight, "#
                    + #"rightToLeft, radial, inverseRadial (did you mean "topToBottom"?)"#
            ),
            (#"{"cascade": {"delay": 1}}"#, #"\#(at).cascade.delay: unknown key "delay"; did you mean "delta"?"#),
            (#"{"arc": "yes"}"#, "\(at).arc: expected true, false or an intensity in 0...1, got a string"),
            (#"{"keyframes": {"alhpa": [[0, 1]]}}"#, #"\#(at).keyframes.alhpa: unknown key "alhpa"; did you mean "alpha"?"#),
            (#"{"keyframes": [[0, 1]]}"#, "\(at).keyframes: expected an object, got an array"),
            (#"{"keyframes": {"alpha": 1}}"#, "\(at).keyframes.alpha: expected an array of [stop, value] pairs, got a number"),
            (#"{"keyframes": {"alpha": [0]}}"#, "\(at).keyframes.alpha[0]: expected [stop, value], got a number"),
            (#"{"keyframes": {"alpha": [[0, 1], [0.5, 0.2, 1]]}}"#, "\(at).keyframes.alpha[1]: expected [stop, value], got 3 elements"),
            (#"{"keyframes": {"alpha": [[0]]}}"#, "\(at).keyframes.alpha[0]: expected [stop, value], got 1 element"),
            (#"{"keyframes": {"alpha": [["start", 1]]}}"#, "\(at).keyframes.alpha[0][0]: expected a number, got a string"),
            (#"{"keyframes": {"alpha": [[0, [1, 1]]]}}"#, "\(at).keyframes.alpha[0][1]: expected a number, got an array"),
            (#"{"keyframes": {"translate": [[0, 5]]}}"#, "\(at).keyframes.translate[0][1]: expected [x, y], got a number"),
            (#"{"keyframes": {"size": [[0, [1, 2, 3]]]}}"#, "\(at).keyframes.size[0][1]: expected [width, height], got 3 numbers"),
            (#"{"keyframes": {"scale": [[0, [1]]]}}"#, "\(at).keyframes.scale[0][1]: expected a factor or [sx, sy], got 1 number"),
            (
                #"{"keyframes": {"borderColor": [[0, "red"]]}}"#,
                #"\#(at).keyframes.borderColor[0][1]: invalid colour "red"; use #RGB, #RRGGBB, #RRGGBBAA or [r, g, b, a] in 0...1"#
            ),
        ]
        for (shift, expected) in cases {
            #expect(problems(shift: shift) == [expected], "\(shift)")
        }
        // The timing keys written on the view itself point into `shift`.
        for key in SceneKeys.timing {
            let text = """
                {"version": 1, "canvas": {"width": 10, "height": 10}, "from": {},
                 "to": {"subviews": [{"frame": [0, 0, 1, 1], "\(key)": 1}]}}
                """
            let issues: [String]
            do {
                _ = try loadScene(bytes: Array(text.utf8), baseDirectory: "/s")
                issues = []
            } catch {
                issues = error.issues.map(\.message)
            }
            #expect(issues == ["unknown key \"\(key)\"; did you mean \"shift.\(key)\"?"])
        }
    }

    // MARK: The rules, at the places a file names

    @Test func rulesNameTheirPlaces() {
        let cases: [(String, [String])] = [
            (#"{"delay": -0.1}"#, ["\(at).delay: -0.1 is out of range: must be at least 0 and at most 600"]),
            (#"{"duration": 601}"#, ["\(at).duration: 601 is out of range: must be at least 0 and at most 600"]),
            (
                #"{"curve": {"cubicBezier": [1.5, 0, -0.1, 101]}}"#,
                [
                    "\(at).curve.cubicBezier[0]: 1.5 is out of range 0...1", "\(at).curve.cubicBezier[2]: -0.1 is out of range 0...1",
                    "\(at).curve.cubicBezier[3]: 101 is out of range -100...100",
                ]
            ),
            (#"{"curve": {"cubicBezier": [0, -100, 1, 100]}}"#, []),
            (
                #"{"curve": {"spring": {"response": 0, "dampingFraction": -1}}}"#,
                [
                    "\(at).curve.spring.response: 0 is out of range: must be greater than 0",
                    "\(at).curve.spring.dampingFraction: -1 is out of range: must be at least 0",
                ]
            ),
            (
                #"{"curve": {"spring": {"duration": -1, "bounce": 1}}}"#,
                [
                    "\(at).curve.spring.duration: -1 is out of range: must be greater than 0",
                    "\(at).curve.spring.bounce: 1 is out of range: must be greater than -1 and less than 1",
                ]
            ),
            (
                #"{"curve": {"spring": {"stiffness": 0, "damping": -2, "mass": 0}}}"#,
                [
                    "\(at).curve.spring.stiffness: 0 is out of range: must be greater than 0",
                    "\(at).curve.spring.damping: -2 is negative damping: the spring would gain energy; give 0 or more",
                    "\(at).curve.spring.mass: 0 is out of range: must be greater than 0",
                ]
            ),
            // Springs that do not come to rest, each with the advice its spelling takes.
            (
                #"{"curve": {"spring": {"stiffness": 100, "damping": 0}}}"#,
                [
                    "\(at).curve.spring: this spring does not settle (|1 - x| < 0.001) within 600 s; give it more damping"
                ]
            ),
            (
                #"{"curve": {"spring": {"response": 0.5, "dampingFraction": 0}}}"#,
                [
                    "\(at).curve.spring: this spring does not settle (|1 - x| < 0.001) within 600 s; give it a larger dampingFraction"
                ]
            ),
            (
                #"{"curve": {"spring": {"duration": 0.5, "bounce": 0.9999}}}"#,
                [
                    "\(at).curve.spring: this spring does not settle (|1 - x| < 0.001) within 600 s; give it less bounce"
                ]
            ),
            (
                #"{"curve": {"spring": {"response": 500, "dampingFraction": 1}}}"#,
                [
                    "\(at).curve.spring: this spring does not settle (|1 - x| < 0.001) within 600 s; give it a shorter response"
                ]
            ),
            (
                #"{"curve": {"spring": {"stiffness": 1, "damping": 1000}}}"#,
                [
                    "\(at).curve.spring: this spring does not settle (|1 - x| < 0.001) within 600 s; give it more stiffness"
                ]
            ),
            // Its length is the view's duration: only its ratio is bounded.
            (
                #"{"curve": {"spring": {"dampingRatio": 0.005}}}"#,
                [
                    "\(at).curve.spring.dampingRatio: 0.005 is out of range: must be at least 0.01 "
                        + "(below it the spring rings over a hundred times before it settles)"
                ]
            ),
            (
                #"{"curve": {"spring": {"dampingRatio": 11}}}"#,
                [
                    "\(at).curve.spring.dampingRatio: 11 is out of range: must be at least 0.01 and at most 10"
                ]
            ),
            (#"{"curve": {"spring": {"dampingRatio": 0.01}}}"#, []),
            (#"{"curve": {"spring": {"dampingRatio": 10}}}"#, []),
            (#"{"cascade": {"delta": -1}}"#, ["\(at).cascade.delta: -1 is out of range: must be at least 0 and at most 600"]),
            (#"{"arc": 1.5}"#, ["\(at).arc: 1.5 is out of range: must be at least 0 and at most 1"]),
            (
                #"{"keyframes": {"alpha": [[0, 1], [0.5, 0.2], [0.25, 1]]}}"#,
                [
                    "\(at).keyframes.alpha[2][0]: 0.25 is less than the stop before it (0.5); stops must not decrease"
                ]
            ),
            (
                #"{"keyframes": {"alpha": [[0, 1], [1.5, 0.2], [0.25, 2]]}}"#,
                [
                    "\(at).keyframes.alpha[1][0]: 1.5 is out of range: must be at least 0 and at most 1",
                    "\(at).keyframes.alpha[2][1]: 2 is out of range: must be at least 0 and at most 1",
                ]
            ),
            (#"{"keyframes": {"alpha": [[0, 1], [0.5, 0], [0.5, 1], [1, 1]]}}"#, []),
            (#"{"keyframes": {"alpha": []}}"#, ["\(at).keyframes.alpha: no keyframes; give at least one [stop, value] pair"]),
            (
                #"{"keyframes": {"alpha": [[0, 1]], "opacity": [[0, 1]]}}"#,
                [
                    "\(at).keyframes.opacity: alpha and opacity are one UIKit property (UIView.alpha is the layer's opacity); "
                        + "give keyframes for one"
                ]
            ),
            (
                #"{"keyframes": {"cornerRadius": [[0, -1]], "shadowRadius": [[0, 1001]], "rotate": [[0, 36001]]}}"#,
                [
                    "\(at).keyframes.cornerRadius[0][1]: -1 is out of range: must be at least 0 and at most 1000000",
                    "\(at).keyframes.shadowRadius[0][1]: 1001 is out of range: must be at least 0 and at most 1000",
                    "\(at).keyframes.rotate[0][1]: 36001 is out of range: must be at least -36000 and at most 36000",
                ]
            ),
            (
                #"{"keyframes": {"size": [[0, [-1, 2]]], "scale": [[0, 2000]], "anchorPoint": [[0, [0, 101]]]}}"#,
                [
                    "\(at).keyframes.size[0][1][0]: -1 is out of range 0...1000000",
                    "\(at).keyframes.scale[0][1][0]: 2000 is out of range -1000...1000",
                    "\(at).keyframes.scale[0][1][1]: 2000 is out of range -1000...1000",
                    "\(at).keyframes.anchorPoint[0][1][1]: 101 is out of range -100...100",
                ]
            ),
            (
                #"{"keyframes": {"backgroundColor": [[0, [1, 0, 2, 1]]], "position": [[0, [0, -1000001]]]}}"#,
                [
                    "\(at).keyframes.backgroundColor[0][1][2]: 2 is out of range 0...1",
                    "\(at).keyframes.position[0][1][1]: -1000001 is out of range -1000000...1000000",
                ]
            ),
        ]
        for (shift, expected) in cases {
            #expect(problems(shift: shift) == expected, "\(shift)")
        }
        let many = "[" + (0 ... SceneLimits.maximumKeyframes).map { "[\(Double($0) / 1000), 0]" }.joined(separator: ", ") + "]"
        #expect(problems(shift: #"{"keyframes": {"rotate": \#(many)}}"#) == ["\(at).keyframes.rotate: 1001 keyframes; the limit is 1000"])
        let most = "[" + (1 ... SceneLimits.maximumKeyframes).map { "[\(Double($0) / 1000), 0]" }.joined(separator: ", ") + "]"
        #expect(problems(shift: #"{"keyframes": {"rotate": \#(most)}}"#) == [])
    }

    @Test func theTransitionsKeysAreNamedThere() {
        #expect(
            problems(transition: #"{"delay": -1, "curve": {"spring": {"dampingRatio": 0}}, "keyframes": {"alpha": [[1, 0], [0, 1]]}}"#)
                == [
                    "transition.delay: -1 is out of range: must be at least 0 and at most 600",
                    "transition.curve.spring.dampingRatio: 0 is out of range: must be at least 0.01 "
                        + "(below it the spring rings over a hundred times before it settles)",
                    "transition.keyframes.alpha[1][0]: 0 is less than the stop before it (1); stops must not decrease",
                ])
        #expect(problems(transition: #"{"curve": "lineer"}"#) == [#"transition.curve: unknown curve "lineer"; did you mean "linear"?"#])
        #expect(
            problems(transition: #"{"spring": {"dampingRatio": 1}}"#) == [
                #"transition.spring: unknown key "spring"; a spring is a curve: write "curve": {"spring": {...}}"#
            ])
    }

    /// A spring written a level too high is told where it goes: renaming `spring` to `curve`
    /// (the closest key) would leave the spring's keys directly in the curve, which is wrong too.
    @Test func aMisplacedSpringIsToldWhereItGoes() {
        #expect(
            problems(shift: #"{"spring": {"dampingRatio": 0.8}}"#) == [
                #"\#(at).spring: unknown key "spring"; a spring is a curve: write "curve": {"spring": {...}}"#
            ])
        #expect(
            problems(shift: #"{"curve": {"dampingRatio": 0.8}}"#) == [
                #"\#(at).curve.dampingRatio: unknown key "dampingRatio"; a spring's key: write {"spring": {"dampingRatio": ...}}"#
            ])
        #expect(
            problems(shift: #"{"dampingRatio": 0.8}"#) == [
                #"\#(at).dampingRatio: unknown key "dampingRatio"; a spring's key: write "curve": {"spring": {"dampingRatio": ...}}"#
            ])
        // UIKit's argument names our key.
        #expect(
            problems(transition: #"{"usingSpringWithDamping": 0.8}"#) == [
                #"transition.usingSpringWithDamping: unknown key "usingSpringWithDamping"; a spring's key: "#
                    + #"write "curve": {"spring": {"dampingRatio": ...}}"#
            ])
        #expect(
            problems(transition: #"{"curve": "spring"}"#) == [
                #"transition.curve: unknown curve "spring"; a spring is written {"spring": {...}}, e.g. {"spring": {"dampingRatio": 0.8}}"#
            ])
        // Inside the spring, the usual hints stay.
        #expect(
            problems(shift: #"{"curve": {"spring": {"dampingratio": 0.8}}}"#) == [
                #"\#(at).curve.spring.dampingratio: unknown key "dampingratio"; did you mean "dampingRatio"?"#
            ])
    }

    /// One run reports every problem, each once, in the file's order, with its line.
    @Test func everyProblemIsReportedOnceWithItsLine() throws {
        let shift = """
            {"delay": -1, "curve": {"spring": {"response": 1, "bounce": 0.1}},
                               "cascade": {"direction": "diagonal"}, "arc": 2,
                               "keyframes": {"alpha": [[0, 1], [0.5, "x"], [0.25, 1]], "opacty": []}}
            """
        let text = text(shift: shift)
        do {
            _ = try loadScene(bytes: Array(text.utf8), file: "t.json", baseDirectory: "/s")
            Issue.record("the scene loaded")
        } catch {
            #expect(
                error.issues.map { "\($0.path) @\($0.line ?? 0)" } == [
                    "\(at).delay @3", "\(at).curve.spring @3", "\(at).cascade.direction @4", "\(at).arc @4",
                    "\(at).keyframes.alpha[1][1] @5", "\(at).keyframes.alpha[2][0] @5", "\(at).keyframes.opacty @5",
                ])
        }
    }
}
