import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// `transition.navigation` and `transition.presentation`: every form read to
/// the model the Swift spelling builds, written back in its canonical form,
/// and every mistake reported once, with the message and place a user reads.
@Suite struct NavigationFormatTests {
    func text(_ transition: String, to: String = "{}") -> String {
        #"{"version": 1, "canvas": {"width": 100, "height": 200}, "transition": \#(transition), "from": {}, "to": \#(to)}"#
    }

    func load(_ transition: String, to: String = "{}") -> (Scene?, [String]) {
        do {
            return (try loadScene(bytes: Array(text(transition, to: to).utf8), file: "t.json", baseDirectory: "/s"), [])
        } catch {
            return (nil, error.issues.map { "\($0.path): \($0.message)" })
        }
    }

    func problems(_ transition: String, to: String = "{}") -> [String] { load(transition, to: to).1 }

    func navigation(_ json: String) -> NavigationSpec? {
        let (scene, problems) = load(#"{"navigation": \#(json)}"#)
        #expect(problems == [], "\(json)")
        return scene?.transition.navigation
    }

    let scene = Scene(canvas: CanvasSpec(width: 100, height: 200), from: View(), to: View())
    let at = "transition.navigation"

    // MARK: Good forms

    @Test func everyNavigationFormReadsAsTheSwiftSpellingBuildsIt() {
        let cases: [(String, Scene)] = [
            (#""default""#, scene.navigation(.default)),
            (#""slide""#, scene.navigation(.slide(.horizontal))),
            (#"{"slide": "horizontal"}"#, scene.navigation(.slide(.horizontal))),
            (#"{"slide": "vertical"}"#, scene.navigation(.slide(.vertical))),
            (#"{"fade": "in"}"#, scene.navigation(.fade(.in))),
            (#"{"fade": "out"}"#, scene.navigation(.fade(.out))),
            (#"{"fade": "cross"}"#, scene.navigation(.fade(.cross))),
            (#"{"push": "left"}"#, scene.navigation(.push(.left))),
            (#"{"pull": "right"}"#, scene.navigation(.pull(.right))),
            (#"{"cover": "up"}"#, scene.navigation(.cover(.up))),
            (#"{"uncover": "down"}"#, scene.navigation(.uncover(.down))),
            // A direction, not an axis: Hero's slide.
            (#"{"slide": "left"}"#, scene.navigation(.slide(HeroDirection.left))),
            (#"{"zoomSlide": "right"}"#, scene.navigation(.zoomSlide(.right))),
            (#"{"pageIn": "up"}"#, scene.navigation(.pageIn(.up))),
            (#"{"pageOut": "down"}"#, scene.navigation(.pageOut(.down))),
            (#""zoom""#, scene.navigation(.zoom)),
            (#""zoomOut""#, scene.navigation(.zoomOut)),
            (
                #"{"insertion": {"move": "trailing"}, "removal": {"move": "leading"}, "mirror": true}"#,
                scene.navigation(insertion: [.move(.trailing)], removal: [.move(.leading)], mirror: true)
            ),
            // Either side may be left out (identity), and mirror is false unless said.
            (#"{"insertion": "opacity"}"#, scene.navigation(insertion: [.opacity])),
            (#"{"removal": ["sendToBack", "opacity"]}"#, scene.navigation(removal: [.sendToBack, .opacity])),
            (#"{"insertion": [], "mirror": false}"#, scene.navigation(insertion: [])),
            (
                ##"""
                {"insertion": [{"move": "top"}, {"move": "bottom"}, {"offset": [10, -5]}, "opacity", {"rotate": 30},
                               {"rotate3D": {"angle": 45, "axis": [0, 1, 0]}},
                               {"rotate3D": {"angle": -90, "axis": [1, 0, 0], "perspective": 2.5}},
                               {"scale": 0.5}, {"scale": 0}, {"zPosition": -1}, "bringToFront", "sendToBack", "identity"]}
                """##,
                scene.navigation(insertion: [
                    .move(.top), .move(.bottom), .offset(x: 10, y: -5), .opacity, .rotate(30), .rotate3D(45, axis: .y),
                    .rotate3D(-90, axis: .x, perspective: 2.5), .scale(0.5), .scale(0), .zPosition(-1), .bringToFront, .sendToBack,
                    .identity,
                ])
            ),
            (
                #"{"push": {"insertion": {"move": "trailing"}}, "pop": {"removal": [{"move": "trailing"}, "opacity"]}}"#,
                scene.navigation(
                    push: RootTransitions(insertion: [.move(.trailing)]), pop: RootTransitions(removal: [.move(.trailing), .opacity]))
            ),
            // A push object without a pop: the pop is the push, as in the symmetric form.
            (#"{"push": {"removal": "opacity"}}"#, scene.navigation(removal: [.opacity])),
            (#"{"push": {}, "pop": {}}"#, scene.navigation(push: RootTransitions(), pop: RootTransitions())),
        ]
        for (json, built) in cases {
            #expect(navigation(json) == built.transition.navigation, "\(json)")
        }
    }

    @Test func everyPresentationFormReadsAsTheSwiftSpellingBuildsIt() {
        let cases: [(String, Scene)] = [
            (#"{}"#, scene.presentation()),
            (#"{"style": "sheet"}"#, scene.presentation(.sheet)),
            (#"{"style": "card", "dimming": true}"#, scene.presentation(.card, dimming: DimmingSpec())),
            (#"{"style": "overFullScreen", "dimming": false}"#, scene.presentation(.overFullScreen)),
            (#"{"dimming": {}}"#, scene.presentation(dimming: DimmingSpec(color: .black, opacity: 0.5))),
            (
                ##"{"dimming": {"color": "#FFFFFF", "opacity": 0.2}}"##,
                scene.presentation(dimming: DimmingSpec(color: .white, opacity: 0.2))
            ),
            (
                #"{"dimming": {"color": [0, 0, 1, 0.5]}}"#,
                scene.presentation(dimming: DimmingSpec(color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5)))
            ),
        ]
        for (json, built) in cases {
            let (read, problems) = load(#"{"presentation": \#(json)}"#)
            #expect(problems == [], "\(json)")
            #expect(read?.transition.presentation == built.transition.presentation, "\(json)")
        }
    }

    // MARK: Written back

    func written(_ scene: Scene) throws -> String { String(decoding: try SceneJSON.encode(scene), as: UTF8.self) }

    /// The canonical forms: names bare where a name says it all, one atomic
    /// transition alone and more as a list, a side or default left out.
    @Test func writtenInCanonicalFormsAndReadBackEqual() throws {
        let cases: [(Scene, String)] = [
            (scene.navigation(.default), #""navigation": "default""#),
            (scene.navigation(.slide(.horizontal)), #""navigation": "slide""#),
            (scene.navigation(.slide(.vertical)), #""navigation": {"slide": "vertical"}"#),
            (scene.navigation(.slide(HeroDirection.up)), #""navigation": {"slide": "up"}"#),
            (scene.navigation(.fade(.cross)), #""navigation": {"fade": "cross"}"#),
            (scene.navigation(.pageOut(.left)), #""navigation": {"pageOut": "left"}"#),
            (scene.navigation(.zoomOut), #""navigation": "zoomOut""#),
            (
                scene.navigation(insertion: [.move(.trailing)], removal: [.move(.leading), .opacity], mirror: true),
                #""navigation": {"insertion": {"move": "trailing"}, "removal": [{"move": "leading"}, "opacity"], "mirror": true}"#
            ),
            (
                scene.navigation(removal: [.rotate3D(30, axis: .z)]),
                #""navigation": {"removal": {"rotate3D": {"angle": 30, "axis": [0, 0, 1]}}}"#
            ),
            (scene.navigation(insertion: []), #""navigation": {"mirror": false}"#),
            (
                scene.navigation(push: RootTransitions(insertion: [.scale(0.5)]), pop: RootTransitions()),
                #""navigation": {"push": {"insertion": {"scale": 0.5}}, "pop": {}}"#
            ),
            (scene.presentation(), #""presentation": {}"#),
            (scene.presentation(.card, dimming: DimmingSpec()), #""presentation": {"style": "card", "dimming": true}"#),
            (
                scene.presentation(.sheet, dimming: DimmingSpec(color: .white, opacity: 0.3)),
                ##""presentation": {"style": "sheet", "dimming": {"color": "#FFFFFF", "opacity": 0.3}}"##
            ),
        ]
        for (built, expected) in cases {
            let text = try written(built)
            #expect(text.contains(expected), "\(text) lacks \(expected)")
            let document = try SceneJSON.decode(bytes: Array(text.utf8), directory: nil)
            #expect(document.problems == [])
            #expect(document.scene == built, "\(expected)")
        }
        // Nothing set, nothing written.
        #expect(!(try written(scene)).contains("transition"))
    }

    /// JSON -> model -> JSON -> model: the second reading equals the first, and the text is stable.
    @Test func roundTripsHold() throws {
        for body in [
            #"{"navigation": {"slide": "horizontal"}}"#, #"{"navigation": {"push": {"removal": "opacity"}}}"#,
            #"{"navigation": {"insertion": [{"offset": [1.5, 2]}], "removal": ["identity"]}}"#,
            #"{"presentation": {"style": "overFullScreen", "dimming": {"opacity": 0.5}}}"#,
        ] {
            let first = try SceneJSON.decode(bytes: Array(text(body).utf8), directory: nil)
            #expect(first.problems == [], "\(body)")
            let once = try SceneJSON.encode(first.scene)
            let second = try SceneJSON.decode(bytes: once, directory: nil)
            #expect(second.scene == first.scene, "\(body)")
            #expect(try SceneJSON.encode(second.scene) == once, "\(body)")
        }
    }

    // MARK: Mistakes

    @Test func unknownNamesAreNamedWithTheClosestKnownOne() {
        let cases: [(String, [String])] = [
            (#"{"navigation": "slid"}"#, ["\(at): unknown navigation transition \"slid\"; did you mean \"slide\"?"]),
            (#"{"navigation": "zom"}"#, ["\(at): unknown navigation transition \"zom\"; did you mean \"zoom\"?"]),
            (#"{"navigation": "fade"}"#, ["\(at): \"fade\" needs a style: {\"fade\": \"in\" | \"out\" | \"cross\"}"]),
            (#"{"navigation": "cover"}"#, ["\(at): \"cover\" needs a direction: {\"cover\": \"left\" | \"right\" | \"up\" | \"down\"}"]),
            (
                #"{"navigation": "opacity"}"#,
                ["\(at): \"opacity\" is an atomic transition, not a navigation one; compose it: {\"insertion\": ..., \"removal\": ...}"]
            ),
            (#"{"navigation": {"slid": "vertical"}}"#, ["\(at).slid: unknown key \"slid\"; did you mean \"slide\"?"]),
            (
                #"{"navigation": {"slide": "diagonal"}}"#,
                ["\(at).slide: unknown value \"diagonal\"; expected one of: horizontal, vertical, left, right, up, down"]
            ),
            (
                #"{"navigation": {"slide": "horizontl"}}"#,
                [
                    "\(at).slide: unknown value \"horizontl\"; expected one of: horizontal, vertical, left, right, up, down "
                        + "(did you mean \"horizontal\"?)"
                ]
            ),
            (
                #"{"navigation": {"fade": "inn"}}"#,
                ["\(at).fade: unknown value \"inn\"; expected one of: in, out, cross (did you mean \"in\"?)"]
            ),
            (
                #"{"navigation": {"push": "leading"}}"#,
                ["\(at).push: unknown value \"leading\"; expected one of: left, right, up, down (did you mean \"left\"?)"]
            ),
            (
                #"{"navigation": {"push": 3}}"#,
                ["\(at).push: expected a direction (left, right, up, down) or {\"insertion\": ..., \"removal\": ...}, got a number"]
            ),
            (
                #"{"navigation": {"insertion": [{"move": "trailing"}, {"move": "left"}]}}"#,
                [
                    "\(at).insertion[1].move: unknown value \"left\"; expected one of: leading, trailing, top, bottom "
                        + "(did you mean \"leading\"?)"
                ]
            ),
            (
                #"{"navigation": {"removal": "opactiy"}}"#,
                ["\(at).removal: unknown atomic transition \"opactiy\"; did you mean \"opacity\"?"]
            ),
            (#"{"navigation": {"removal": {"scal": 2}}}"#, ["\(at).removal.scal: unknown key \"scal\"; did you mean \"scale\"?"]),
            (
                #"{"navigation": {"removal": {"opacity": true}}}"#,
                ["\(at).removal.opacity: \"opacity\" takes no value: write \"opacity\" on its own"]
            ),
            (
                #"{"navigation": {"removal": "move"}}"#,
                ["\(at).removal: \"move\" needs a value: {\"move\": \"leading\" | \"trailing\" | \"top\" | \"bottom\"}"]
            ),
            (
                #"{"navigation": {"removal": {"rotate3D": {"angle": 30}}}}"#,
                ["\(at).removal.rotate3D.axis: missing: the axis [x, y, z] to turn about, e.g. [0, 1, 0]"]
            ),
            (
                #"{"navigation": {"removal": {"rotate3D": {"axis": [0, 1]}}}}"#,
                [
                    "\(at).removal.rotate3D.angle: missing: the angle in degrees",
                    "\(at).removal.rotate3D.axis: expected [x, y, z], got 2 numbers",
                ]
            ),
            (#"{"navigation": {"insertion": {"offset": 5}}}"#, ["\(at).insertion.offset: expected [x, y], got a number"]),
            (#"{"navigation": {"mirror": "yes"}}"#, ["\(at).mirror: expected true or false, got a string"]),
            (
                #"{"presentation": {"style": "pageSheet"}}"#,
                [
                    "transition.presentation.style: unknown value \"pageSheet\"; expected one of: sheet, card, overFullScreen "
                        + "(did you mean \"sheet\"?)"
                ]
            ),
            (
                #"{"presentation": {"style": "fullScreen"}}"#,
                [
                    "transition.presentation.style: unknown value \"fullScreen\"; expected one of: sheet, card, overFullScreen "
                        + "(did you mean \"overFullScreen\"?)"
                ]
            ),
            (
                #"{"presentation": {"dimming": 0.5}}"#,
                ["transition.presentation.dimming: expected true, false or {\"color\": \"#000000\", \"opacity\": 0.5}, got a number"]
            ),
            (
                #"{"presentation": {"dimming": {"alpha": 0.5}}}"#,
                ["transition.presentation.dimming.alpha: unknown key \"alpha\"; known keys here: color, opacity"]
            ),
        ]
        for (body, expected) in cases {
            #expect(problems(body) == expected, "\(body)")
        }
    }

    @Test func contradictionsAreNamedAtTheirPlaces() {
        let atomics =
            "atomic transitions are {\"move\": edge}, {\"offset\": [x, y]}, \"opacity\", {\"rotate\": degrees}, "
            + "{\"rotate3D\": {...}}, {\"scale\": s}, {\"zPosition\": z}, \"bringToFront\", \"sendToBack\" and \"identity\""
        let cases: [(String, [String])] = [
            (
                #"{"navigation": {"insertion": "slide"}}"#,
                ["\(at).insertion: \"slide\" is a navigation transition, not an atomic one; \(atomics)"]
            ),
            (
                #"{"navigation": {"insertion": {"push": "left"}}}"#,
                ["\(at).insertion: {\"push\": ...} is a navigation transition, not an atomic one; \(atomics)"]
            ),
            (
                #"{"navigation": {"removal": [{"move": "top", "scale": 0.5}]}}"#,
                [
                    "\(at).removal[0]: one atomic transition per object: give move or scale, not both; "
                        + "a list combines them: [{\"move\": ...}, {\"scale\": ...}]"
                ]
            ),
            (#"{"navigation": {"insertion": {}}}"#, ["\(at).insertion: expected one atomic transition, got an empty object; \(atomics)"]),
            (
                #"{"navigation": {"push": {"insertion": "opacity"}, "pop": {}, "mirror": true}}"#,
                ["\(at).mirror: mirror and an explicit pop together: mirror makes the pop the push mirrored; give one or the other"]
            ),
            (
                #"{"navigation": {"push": {"insertion": "opacity"}, "mirror": true}}"#,
                [
                    "\(at).mirror: mirror goes with insertion and removal: "
                        + "{\"insertion\": ..., \"removal\": ..., \"mirror\": true} mirrors them on a pop"
                ]
            ),
            (
                #"{"navigation": {"pop": {"insertion": "opacity"}}}"#,
                ["\(at).pop: a pop without a push: give push too, or insertion and removal for both"]
            ),
            (
                #"{"navigation": {"push": {}, "pop": {}, "removal": "opacity"}}"#,
                ["\(at).removal: removal goes inside push and pop when those are given"]
            ),
            (
                #"{"navigation": {"slide": "vertical", "insertion": "opacity", "mirror": true}}"#,
                [
                    "\(at): mixes a built-in transition (\"slide\") with composed keys (\"insertion\", \"mirror\"); "
                        + "give the built-in alone or compose the transition"
                ]
            ),
            (
                #"{"navigation": {"push": "left", "pop": {}}}"#,
                [
                    "\(at): mixes a built-in transition (\"push\") with composed keys (\"pop\"); "
                        + "give the built-in alone or compose the transition"
                ]
            ),
            (
                #"{"navigation": {"fade": "in", "slide": "vertical"}}"#,
                ["\(at): one built-in transition at a time: give \"fade\" or \"slide\", not both"]
            ),
            (
                #"{"navigation": {}}"#,
                [
                    "\(at): expected \"default\", \"slide\", \"zoom\", \"zoomOut\", "
                        + "{\"slide\" | \"fade\" | \"push\" | \"pull\" | \"cover\" | "
                        + "\"uncover\" | \"zoomSlide\" | \"pageIn\" | \"pageOut\" | \"flip\" | \"cube\": ...}, "
                        + "{\"insertion\": ..., \"removal\": ...} or "
                        + "{\"push\": {...}, \"pop\": {...}}, got an empty object"
                ]
            ),
            (
                #"{"navigation": "slide", "presentation": {"style": "card"}}"#,
                ["transition.presentation: a transition is a push/pop or a presentation, not both; give navigation or presentation"]
            ),
        ]
        for (body, expected) in cases {
            #expect(problems(body) == expected, "\(body)")
        }
    }

    /// The validator's rules, at the places the file writes (a lone atomic transition at its key, not `[0]`), with lines.
    @Test func valuesOutOfRangeAreNamedWhereTheFileWritesThem() throws {
        let body =
            #"{"navigation": {"insertion": [{"offset": [1e7, 0]}, {"rotate": 36001}, {"scale": -1001}, {"zPosition": 2e6}], "#
            + #""removal": {"rotate3D": {"angle": 40000, "axis": [0, 0, 0], "perspective": 0}}}}"#
        #expect(
            problems(body) == [
                "\(at).insertion[0].offset[0]: 10000000 is out of range -1000000...1000000",
                "\(at).insertion[1].rotate: 36001 is out of range: must be at least -36000 and at most 36000",
                "\(at).insertion[2].scale: -1001 is out of range: must be at least -1000 and at most 1000",
                "\(at).insertion[3].zPosition: 2000000 is out of range: must be at least -1000000 and at most 1000000",
                "\(at).removal.rotate3D.angle: 40000 is out of range: must be at least -36000 and at most 36000",
                "\(at).removal.rotate3D.axis: [0, 0, 0] is no axis: give the direction to turn about, e.g. [0, 1, 0] for the vertical",
                "\(at).removal.rotate3D.perspective: 0 is out of range: must be greater than 0 (m34 = perspective / max(width, height); "
                    + "0 gives a turn without depth, a flat squash, and below 0 the vanishing point is behind the viewer)",
            ])
        #expect(
            problems(#"{"presentation": {"dimming": {"color": [1, 2, 0, 1], "opacity": 1.5}}}"#) == [
                "transition.presentation.dimming.color[1]: 2 is out of range 0...1",
                "transition.presentation.dimming.opacity: 1.5 is out of range: must be at least 0 and at most 1",
            ])
        // A push without a pop is the symmetric form in the model; problems still point into `push`.
        #expect(
            problems(#"{"navigation": {"push": {"insertion": [{"scale": 0}, {"rotate": 1e5}], "removal": {"zPosition": 1e7}}}}"#) == [
                "\(at).push.insertion[1].rotate: 100000 is out of range: must be at least -36000 and at most 36000",
                "\(at).push.removal.zPosition: 10000000 is out of range: must be at least -1000000 and at most 1000000",
            ])
        // The place carries the line and column of the value as written.
        let text = text(#"{"navigation": {"push": {"removal": {"rotate": 1e6}}, "pop": {}}}"#)
        do {
            _ = try loadScene(bytes: Array(text.utf8), file: "t.json", baseDirectory: "/s")
            Issue.record("accepted")
        } catch {
            #expect(error.issues.map(\.path) == ["\(at).push.removal.rotate"])
            #expect(error.issues.first?.column == text.distance(from: text.startIndex, to: text.range(of: "1e6")!.lowerBound) + 1)
        }
    }

    @Test func aPresentedRootOutsideTheCanvasIsWarnedAbout() throws {
        func warnings(_ transition: String, to: String = "{}", from: String = "{}") throws -> [String] {
            let text =
                #"{"version": 1, "canvas": {"width": 100, "height": 200}, "transition": \#(transition), "from": \#(from), "to": \#(to)}"#
            let document = try SceneJSON.decode(bytes: Array(text.utf8), directory: nil)
            #expect(document.problems == [])
            return SceneValidator.problems(in: document.scene).filter { $0.severity == .warning }.map { "\($0.place): \($0.message)" }
        }
        let sheet = #"{"frame": [0, 60, 100, 200]}"#
        #expect(
            try warnings(#"{"presentation": {"style": "sheet"}}"#, to: sheet) == [
                "to.frame: the presented root [0, 60, 100, 200] reaches outside the 100 x 200 canvas: what lies outside is cut off"
            ])
        #expect(try warnings(#"{"presentation": {"style": "sheet"}, "direction": "roundtrip"}"#, to: sheet).count == 1)
        #expect(
            try warnings(#"{"presentation": {}, "direction": "dismiss"}"#, from: #"{"frame": [0, 200, 100, 100]}"#) == [
                "from.frame: the presented root [0, 200, 100, 100] lies wholly outside the 100 x 200 canvas: it never shows at rest"
            ])
        // Dismissing, `to` is the presenting root: its frame is not the presented one's.
        #expect(try warnings(#"{"presentation": {}, "direction": "dismiss"}"#, to: sheet) == [])
        #expect(try warnings(#"{"presentation": {}}"#, to: #"{"frame": [0, 60, 100, 140]}"#) == [])
        #expect(try warnings("{}", to: sheet) == [])
    }

    @Test func navigationWordsElsewherePointToTheirPlace() {
        let (_, top) = load("{}")
        #expect(top == [])
        let scene =
            #"{"version": 1, "canvas": {"width": 10, "height": 10}, "navigation": "slide", "from": {}, "#
            + #""to": {"presentation": {}, "subviews": [{"frame": [0, 0, 1, 1], "shift": {"navigation": "slide"}}]}}"#
        do {
            _ = try loadScene(bytes: Array(scene.utf8), file: "t.json", baseDirectory: "/s")
            Issue.record("accepted")
        } catch {
            #expect(
                error.issues.map { "\($0.path): \($0.message)" } == [
                    "navigation: unknown key \"navigation\"; did you mean \"transition.navigation\"?",
                    "to.presentation: unknown key \"presentation\"; did you mean \"transition.presentation\"?",
                    "to.subviews[0].shift.navigation: unknown key \"navigation\"; did you mean \"transition.navigation\"?",
                ])
        }
        let modal = problems(#"{"modalPresentationStyle": "pageSheet"}"#)
        #expect(modal == ["transition.modalPresentationStyle: unknown key \"modalPresentationStyle\"; did you mean \"presentation\"?"])
    }
}
