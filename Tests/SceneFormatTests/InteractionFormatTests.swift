import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// Issue 18's key in a file: `transition.interaction`, a finger that drives the
/// transition and lets go. Every form reads to what the Swift spelling builds,
/// is written back without its defaults and reads back equal; each mistake is
/// reported once at its place and line, and a scene built in Swift gets the
/// same errors as the same scene in a file.
@Suite struct InteractionFormatTests {
    /// A 200 x 100 canvas: a gesture within 200 pt (x) or 100 pt (y) stays within 0...1 progress.
    func text(_ interaction: String) -> String {
        #"{"version": 1, "canvas": {"width": 200, "height": 100}, "transition": {"interaction": \#(interaction)}, "#
            + #""from": {}, "to": {}}"#
    }

    func load(_ interaction: String) -> (scene: Scene?, problems: [String]) {
        do {
            return (try loadScene(bytes: Array(text(interaction).utf8), file: "t.json", baseDirectory: "/s"), [])
        } catch {
            return (nil, error.issues.map { "\($0.path): \($0.message)" })
        }
    }

    func interaction(_ json: String) -> InteractionSpec? {
        let (scene, problems) = load(json)
        #expect(problems == [], "\(json)")
        return scene?.transition.interaction
    }

    let at = "transition.interaction"
    let drag: [(time: Double, translation: Double)] = [(0, 0), (0.25, 40)]

    // MARK: Reading

    @Test func everyFormReadsAsTheSwiftSpellingBuildsIt() {
        let cases: [(String, InteractionSpec)] = [
            // Only the gesture is required: axis x, the slope of the last segment, EasyTransitions' rule.
            (#"{"gesture": [[0, 0], [0.25, 40]]}"#, InteractionSpec(points: drag)),
            (#"{"axis": "x", "gesture": [[0, 0], [0.25, 40]]}"#, InteractionSpec(axis: .x, points: drag)),
            (#"{"axis": "y", "gesture": [[0, 0], [0.25, 40]]}"#, InteractionSpec(axis: .y, points: drag)),
            (#"{"axis": "-x", "gesture": [[0, 0], [0.25, -40]]}"#, InteractionSpec(axis: .negativeX, points: [(0, 0), (0.25, -40)])),
            (#"{"axis": "-y", "gesture": [[0, 0], [0.25, -40]]}"#, InteractionSpec(axis: .negativeY, points: [(0, 0), (0.25, -40)])),
            // One point; times need not start at 0; fractions and exponents are numbers like any other.
            (#"{"gesture": [[0.5, 12.5]]}"#, InteractionSpec(points: [(0.5, 12.5)])),
            (#"{"gesture": [[0.1, 0], [2.5e-1, 1.5e2]]}"#, InteractionSpec(points: [(0.1, 0), (0.25, 150)])),
            (#"{"gesture": [[0, 0], [0.25, 40]], "releaseVelocity": -120.5}"#, InteractionSpec(points: drag, releaseVelocity: -120.5)),
            // 0 is a velocity (the finger stopped), not "none given".
            (#"{"gesture": [[0, 0], [0.25, 40]], "releaseVelocity": 0}"#, InteractionSpec(points: drag, releaseVelocity: 0)),
            (#"{"gesture": [[0, 0], [0.25, 40]], "rule": "easyTransitions"}"#, InteractionSpec(points: drag, rule: .easyTransitions)),
            (
                #"{"gesture": [[0, 0], [0.25, 40]], "rule": "navigationTransitions"}"#,
                InteractionSpec(points: drag, rule: .navigationTransitions)
            ),
            (#"{"gesture": [[0, 0], [0.25, 40]], "rule": "liquid"}"#, InteractionSpec(points: drag, rule: .liquid)),
            // The threshold object: `velocity` weighs the release velocity, 1 (Hero's examples) when left out.
            (
                #"{"gesture": [[0, 0], [0.25, 40]], "rule": {"threshold": 0.3}}"#,
                InteractionSpec(points: drag, rule: .threshold(0.3, velocity: 1))
            ),
            (
                #"{"gesture": [[0, 0], [0.25, 40]], "rule": {"threshold": 0.3, "velocity": 0}}"#,
                InteractionSpec(points: drag, rule: .threshold(0.3, velocity: 0))
            ),
            (
                #"{"gesture": [[0, 0], [0.25, 40]], "rule": {"velocity": 10, "threshold": 1}}"#,
                InteractionSpec(points: drag, rule: .threshold(1, velocity: 10))
            ),
            (
                #"{"rule": {"threshold": 0}, "releaseVelocity": 1e6, "gesture": [[0, 0], [600, 40]], "axis": "y"}"#,
                InteractionSpec(axis: .y, points: [(0, 0), (600, 40)], releaseVelocity: 1e6, rule: .threshold(0, velocity: 1))
            ),
        ]
        for (json, expected) in cases { #expect(interaction(json) == expected, "\(json)") }
        #expect(load("{\"gesture\": [[0, 0]]}").scene?.transition.interaction?.releaseVelocity == nil)
    }

    @Test func aTransitionWithoutTheKeyHasNoInteraction() throws {
        let scene = try loadScene(
            bytes: Array(#"{"version": 1, "canvas": {"width": 10, "height": 10}, "from": {}, "to": {}}"#.utf8), baseDirectory: "/s")
        #expect(scene.transition.interaction == nil)
    }

    // MARK: Writing

    func written(_ interaction: InteractionSpec) throws -> String {
        let scene = Scene(canvas: CanvasSpec(width: 200, height: 100), from: View(), to: View()).with {
            $0.transition.interaction = interaction
        }
        return String(decoding: try SceneJSON.encode(scene), as: UTF8.self)
    }

    /// Defaults are left out (axis x, rule easyTransitions, a threshold's velocity weight 1); a given
    /// release velocity is written even when 0; everything reads back to the same interaction.
    @Test func theWriterWritesOnlyWhatIsNotTheDefaultAndReadsBackEqual() throws {
        let cases: [(InteractionSpec, String)] = [
            (InteractionSpec(points: drag), #""interaction": {"gesture": [[0, 0], [0.25, 40]]}"#),
            (InteractionSpec(axis: .x, points: drag, rule: .easyTransitions), #""interaction": {"gesture": [[0, 0], [0.25, 40]]}"#),
            (InteractionSpec(axis: .negativeY, points: [(0.5, -2)]), #""interaction": {"axis": "-y", "gesture": [[0.5, -2]]}"#),
            (InteractionSpec(points: [(0, 0)], releaseVelocity: 0), #""interaction": {"gesture": [[0, 0]], "releaseVelocity": 0}"#),
            (InteractionSpec(points: [(0, 0)], releaseVelocity: -12.5), #""interaction": {"gesture": [[0, 0]], "releaseVelocity": -12.5}"#),
            (InteractionSpec(points: [(0, 1)], rule: .liquid), #""interaction": {"gesture": [[0, 1]], "rule": "liquid"}"#),
            (
                InteractionSpec(points: [(0, 1)], rule: .navigationTransitions),
                #""interaction": {"gesture": [[0, 1]], "rule": "navigationTransitions"}"#
            ),
            (InteractionSpec(points: [(0, 1)], rule: .threshold(0.5, velocity: 1)), #""rule": {"threshold": 0.5}}"#),
            (InteractionSpec(points: [(0, 1)], rule: .threshold(0.25, velocity: 0)), #""rule": {"threshold": 0.25, "velocity": 0}}"#),
            (InteractionSpec(points: [(0, 1)], rule: .threshold(1, velocity: 2.5)), #""rule": {"threshold": 1, "velocity": 2.5}}"#),
        ]
        for (spec, expected) in cases {
            let json = try written(spec)
            #expect(json.contains(expected), "\(json)")
            let reread = try SceneJSON.decode(bytes: Array(json.utf8), file: "w.json", directory: "/s")
            #expect(reread.problems == [])
            #expect(reread.scene.transition.interaction == spec)
            #expect(try SceneJSON.encode(reread.scene) == Array(json.utf8), "writing is not stable")
        }
        #expect(try !written(InteractionSpec(points: drag)).contains("\"axis\""))
        #expect(try !written(InteractionSpec(points: drag)).contains("\"rule\""))
        #expect(try !written(InteractionSpec(points: drag)).contains("\"releaseVelocity\""))
    }

    /// JSON has no NaN: a Swift-built release velocity of NaN cannot be written, and the error names its place.
    @Test func aNonFiniteVelocityIsNotWritten() {
        let scene = Scene(canvas: CanvasSpec(width: 200, height: 100), from: View(), to: View()).with {
            $0.transition.interaction = InteractionSpec(points: drag, releaseVelocity: .nan)
        }
        #expect {
            try SceneJSON.encode(scene)
        } throws: { error in
            (error as? SceneJSON.WriteError)?.place.description == "transition.interaction.releaseVelocity"
        }
    }

    // MARK: Mistakes

    @Test func mistakesAreReportedOnceAtTheirPlace() {
        let forms = SceneDecoder.ruleForms
        let cases: [(String, [String])] = [
            (#""liquid""#, ["\(at): expected an object, got a string"]),
            (
                #"{"rule": "liquid"}"#,
                ["\(at).gesture: missing: give the finger's [time s, translation pt] points, e.g. [[0, 0], [0.3, 120]]"]
            ),
            (#"{"gesture": []}"#, ["\(at).gesture: an empty gesture: give the finger's [time, translation] points, at least one"]),
            (#"{"gesture": {"0": 0}}"#, ["\(at).gesture: expected a list of [time, translation] points, got an object"]),
            (#"{"gesture": [[0, 0], [0.1, 4], [0.2]]}"#, ["\(at).gesture[2]: expected [time s, translation pt], got 1 number"]),
            (#"{"gesture": [[0, 0], 0.1]}"#, ["\(at).gesture[1]: expected [time s, translation pt], got a number"]),
            (#"{"gesture": [[0, 0], [0.1, 2, 3]]}"#, ["\(at).gesture[1]: expected [time s, translation pt], got 3 numbers"]),
            // The only point cannot be read: that is the mistake, not "an empty gesture".
            (#"{"gesture": [[0, "far"]]}"#, ["\(at).gesture[0][1]: expected a number, got a string"]),
            (#"{"gesture": [[null, 0]]}"#, ["\(at).gesture[0][0]: expected a number, got null"]),
            (
                #"{"gesture": [[0, 0], [0.2, 8], [0.2, 16]]}"#,
                ["\(at).gesture[2][0]: 0.2 s is not after the point before it (0.2 s); gesture times must increase"]
            ),
            (
                #"{"gesture": [[0, 0], [0.3, 8], [0.1, 16]]}"#,
                ["\(at).gesture[2][0]: 0.1 s is not after the point before it (0.3 s); gesture times must increase"]
            ),
            (#"{"gesture": [[-0.1, 0]]}"#, ["\(at).gesture[0][0]: -0.1 is out of range 0...600"]),
            (#"{"gesture": [[0, 2e6]]}"#, ["\(at).gesture[0][1]: 2000000 is out of range -1000000...1000000"]),
            (
                #"{"gesture": [[0, 0]], "releaseVelocity": -2e6}"#,
                ["\(at).releaseVelocity: -2000000 is out of range: must be at least -1000000 and at most 1000000"]
            ),
            (#"{"gesture": [[0, 0]], "releaseVelocity": "fast"}"#, ["\(at).releaseVelocity: expected a number, got a string"]),
            (
                #"{"gesture": [[0, 0]], "releaseVelocty": 3}"#,
                [#"\#(at).releaseVelocty: unknown key "releaseVelocty"; did you mean "releaseVelocity"?"#]
            ),
            (
                #"{"axis": "z", "gesture": [[0, 0]]}"#,
                [#"\#(at).axis: unknown value "z"; expected one of: x, y, -x, -y (did you mean "x"?)"#]
            ),
            (
                #"{"gesture": [[0, 0]], "rule": "easyTransition"}"#,
                [#"\#(at).rule: unknown rule "easyTransition"; did you mean "easyTransitions"? The rules are \#(forms)"#]
            ),
            (#"{"axis": "horizontal", "gesture": [[0, 0]]}"#, [#"\#(at).axis: unknown value "horizontal"; expected one of: x, y, -x, -y"#]),
            (#"{"gesture": [[0, 0]], "rule": "spring"}"#, [#"\#(at).rule: unknown rule "spring"; the rules are \#(forms)"#]),
            (#"{"gesture": [[0, 0]], "rule": 0.5}"#, ["\(at).rule: expected \(forms), got a number"]),
            (
                #"{"gesture": [[0, 0]], "rule": {"velocity": 1}}"#,
                ["\(at).rule.threshold: missing: a threshold rule finishes when p + velocity x v / extent > threshold"]
            ),
            (
                #"{"gesture": [[0, 0]], "rule": {"threshold": 1.5}}"#,
                ["\(at).rule.threshold: 1.5 is out of range: must be at least 0 and at most 1"]
            ),
            (
                #"{"gesture": [[0, 0]], "rule": {"threshold": -0.1}}"#,
                ["\(at).rule.threshold: -0.1 is out of range: must be at least 0 and at most 1"]
            ),
            (
                #"{"gesture": [[0, 0]], "rule": {"threshold": 0.5, "velocity": 11}}"#,
                ["\(at).rule.velocity: 11 is out of range: must be at least 0 and at most 10"]
            ),
            (
                #"{"gesture": [[0, 0]], "rule": {"threshold": 0.5, "velocity": -1}}"#,
                ["\(at).rule.velocity: -1 is out of range: must be at least 0 and at most 10"]
            ),
        ]
        for (json, expected) in cases { #expect(load(json).problems == expected, "\(json)") }
    }

    /// A point that cannot be read keeps its place: the points after it are named by their own indices
    /// and lines, not by the index they would have if it were left out.
    @Test func aPointThatCannotBeReadDoesNotMoveThePlacesAfterIt() throws {
        let file = """
            {"version": 1, "canvas": {"width": 200, "height": 100},
             "transition": {"interaction": {"gesture": [
               [0, 0],
               [0.5],
               [0.2, 4],
               [0.1, 8]
             ]}},
             "from": {}, "to": {}}
            """
        let issues: [SceneProblem]
        do {
            _ = try loadScene(bytes: Array(file.utf8), baseDirectory: "/s")
            issues = []
        } catch {
            issues = error.issues
        }
        #expect(
            issues.map { "\($0.path): \($0.message) (line \($0.line ?? 0))" } == [
                "\(at).gesture[1]: expected [time s, translation pt], got 1 number (line 4)",
                "\(at).gesture[3][0]: 0.1 s is not after the point before it (0.2 s); gesture times must increase (line 6)",
            ])
        // Column 5 is the 0.1 after "   [" on line 6.
        #expect(issues.last?.column == 5)
    }

    /// Errors the decoder leaves to the model's rules still carry the file's line and column.
    @Test func errorsNameTheirLine() throws {
        let file = """
            {"version": 1, "canvas": {"width": 200, "height": 100},
             "transition": {
               "interaction": {
                 "gesture": [[0, 0], [0.2, 8], [0.1, 16]],
                 "rule": {"threshold": 2}
               }
             },
             "from": {}, "to": {}}
            """
        var issues: [SceneProblem] = []
        do { _ = try loadScene(bytes: Array(file.utf8), baseDirectory: "/s") } catch { issues = error.issues }
        // Line 4's list starts at column 17 ("     \"gesture\": " before it), its 0.1 is 20 characters on;
        // line 5's 2 follows "     \"rule\": {\"threshold\": " (27 characters).
        #expect(issues.map(\.path) == ["\(at).gesture[2][0]", "\(at).rule.threshold"])
        #expect(issues.map(\.line) == [4, 5])
        #expect(issues.map(\.column) == [37, 28])
    }

    /// A key that is missing has no place of its own in the file: the error has the line of the object that lacks it.
    @Test func aMissingKeyHasTheLineOfItsObject() throws {
        let file = """
            {"version": 1, "canvas": {"width": 200, "height": 100},
             "transition": {
               "interaction": {"rule": {"velocity": 0}}
             },
             "from": {}, "to": {}}
            """
        var issues: [SceneProblem] = []
        do { _ = try loadScene(bytes: Array(file.utf8), baseDirectory: "/s") } catch { issues = error.issues }
        #expect(issues.map(\.path) == ["\(at).gesture", "\(at).rule.threshold"])
        // Line 3: "   \"interaction\": " puts the interaction's { at column 19, and "{\"rule\": " its rule's at 28.
        #expect(issues.map(\.line) == [3, 3])
        #expect(issues.map(\.column) == [19, 28])
    }

    // MARK: Swift and file alike

    /// The same mistakes built in Swift and written in a file get the same places and messages
    /// (SceneValidator's, for the values a file can hold).
    @Test func swiftBuiltAndFileInteractionsValidateTheSame() {
        let pairs: [(InteractionSpec, String)] = [
            (InteractionSpec(gesture: []), #"{"gesture": []}"#),
            (InteractionSpec(points: [(0, 0), (0.3, 8), (0.1, 16), (0.1, 20)]), #"{"gesture": [[0, 0], [0.3, 8], [0.1, 16], [0.1, 20]]}"#),
            (InteractionSpec(points: [(700, 0)], releaseVelocity: 1e7), #"{"gesture": [[700, 0]], "releaseVelocity": 1e7}"#),
            (
                InteractionSpec(points: [(0, 0)], rule: .threshold(1.01, velocity: 10.5)),
                #"{"gesture": [[0, 0]], "rule": {"threshold": 1.01, "velocity": 10.5}}"#
            ),
            (
                InteractionSpec(axis: .y, points: [(0, 0), (0.5, 50)], rule: .liquid),
                #"{"axis": "y", "gesture": [[0, 0], [0.5, 50]], "rule": "liquid"}"#
            ),
        ]
        for (spec, json) in pairs {
            let built = Scene(canvas: CanvasSpec(width: 200, height: 100), from: View(), to: View()).with {
                $0.transition.interaction = spec
            }
            let fromSwift = SceneValidator.problems(in: built).filter { $0.severity == .error }.map { "\($0.place): \($0.message)" }
            #expect(fromSwift == load(json).problems, "\(json)")
        }
    }
}
