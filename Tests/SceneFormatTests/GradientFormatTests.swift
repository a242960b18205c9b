import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// The `gradient` key: read with its places, written back, its rules
/// (SceneValidator) at the places a file names, and hints for Core
/// Animation's and other tools' spellings.
@Suite struct GradientFormatTests {
    func scene(_ gradient: String) -> String {
        """
        {"version": 1, "canvas": {"width": 100, "height": 100}, "from": {},
         "to": {"subviews": [{"frame": [0, 0, 5, 5]}, {"frame": [0, 0, 5, 5]},
                             {"frame": [0, 0, 50, 20],
                              "gradient": \(gradient)}]}}
        """
    }

    func load(_ gradient: String) -> (Scene?, [String]) {
        do {
            return (try loadScene(bytes: Array(scene(gradient).utf8), file: "g.json", baseDirectory: "/scenes"), [])
        } catch {
            return (nil, error.issues.map { "\($0.path): \($0.message)" + ($0.location.map { " @\($0.line)" } ?? "") })
        }
    }

    @Test func readsEveryKeyAndCAGradientLayersDefaults() throws {
        let (full, problems) = load(
            ##"{"type": "conic", "colors": ["#FF0000", [0, 0, 1, 0.5]], "locations": [0.25, 0.75], "startPoint": [0.5, 0.5], "endPoint": [1, 0.5]}"##
        )
        #expect(problems == [])
        let g = try #require(full?.to.subviews[2].gradient)
        #expect(g.type == .conic)
        #expect(g.colors == [RGBAColor(red: 1, green: 0, blue: 0), RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5)])
        #expect(g.locations == [0.25, 0.75])
        #expect(g.startPoint == Point(x: 0.5, y: 0.5) && g.endPoint == Point(x: 1, y: 0.5))
        let (minimal, none) = load(##"{"colors": ["#FFF"]}"##)
        #expect(none == [])
        #expect(minimal?.to.subviews[2].gradient == GradientSpec(colors: [.white]))
        let d = GradientSpec(colors: [.white])
        #expect(d.type == .axial && d.locations == nil && d.startPoint == Point(x: 0.5, y: 0) && d.endPoint == Point(x: 0.5, y: 1))
    }

    @Test func writtenAndReadBackEqual() throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            .gradient(
                GradientSpec(
                    type: .radial, colors: [.white, RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)],
                    locations: [0, 0.6], startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1)))
        let scene = Scene(canvas: CanvasSpec(width: 20, height: 20), from: View(), to: View(subviews: [view]))
        let text = String(decoding: try SceneJSON.encode(scene), as: UTF8.self)
        #expect(text.contains("\"gradient\""))
        let back = try loadScene(bytes: Array(text.utf8), baseDirectory: "/scenes")
        #expect(back.to.subviews[0].gradient == view.gradient)
        // Defaults are left out, colours never.
        let plain = String(
            decoding: try SceneJSON.encode(
                Scene(
                    canvas: CanvasSpec(width: 20, height: 20), from: View(),
                    to: View(subviews: [view.gradient(GradientSpec(colors: [.black]))]))),
            as: UTF8.self)
        #expect(plain.contains(##""gradient": {"colors": ["#000000"]}"##) || plain.contains(##""gradient": {"colors": ["#000000FF"]}"##))
    }

    @Test func rulesNameTheirPlaces() {
        let at = "to.subviews[2].gradient"
        #expect(load(##"{"colors": []}"##).1 == ["\(at).colors: a gradient needs at least one colour @4"])
        // Missing, it is reported at the gradient's line.
        #expect(load(##"{"startPoint": [0, 0]}"##).1 == ["\(at).colors: a gradient needs at least one colour @4"])
        #expect(
            load(##"{"colors": ["#000", "#FFF"], "locations": [0]}"##).1
                == [
                    "\(at).locations: 1 location for 2 colours; give one location per colour, or none to spread them evenly @4"
                ])
        #expect(
            load(##"{"colors": ["#000", "#FFF", "#F00"], "locations": [0, 0.7, 0.5]}"##).1
                == ["\(at).locations[2]: 0.5 is less than the location before it (0.7); locations must not decrease @4"])
        // Equal neighbours are a hard stop, allowed.
        #expect(load(##"{"colors": ["#000", "#FFF", "#F00"], "locations": [0, 0.5, 0.5]}"##).1 == [])
        #expect(
            load(##"{"colors": ["#000", "#FFF"], "locations": [0, 1.5]}"##).1 == ["\(at).locations[1]: 1.5 is out of range 0...1 @4"])
        #expect(load(##"{"colors": ["#000"], "endPoint": [0, 101]}"##).1 == ["\(at).endPoint[1]: 101 is out of range -100...100 @4"])
        let many = "[" + Array(repeating: "\"#000\"", count: 257).joined(separator: ", ") + "]"
        #expect(load(##"{"colors": \##(many)}"##).1 == ["\(at).colors: 257 colours; the limit is 256 @4"])
        #expect(load(##"{"colors": "#000"}"##).1.first?.hasPrefix("\(at).colors: expected an array of colours, got") == true)
        #expect(load(##"{"colors": ["#000", "red"]}"##).1.first?.hasPrefix("\(at).colors[1]: invalid colour") == true)
    }

    @Test func validatorHoldsSwiftScenesToTheSameRules() {
        let bad = View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
            .gradient(GradientSpec(colors: [.white, .black], locations: [1, 0], startPoint: Point(x: .nan, y: 0)))
        let problems = SceneValidator.problems(
            in: Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View(subviews: [bad])))
        #expect(
            problems.map { "\($0.path): \($0.message)" } == [
                "to.subviews[0].gradient.locations[1]: 0 is less than the location before it (1); locations must not decrease",
                "to.subviews[0].gradient.startPoint[0]: not a number (NaN)",
            ])
    }

    @Test func coreAnimationAndOtherToolsSpellingsGetOurs() {
        func hint(_ gradient: String) -> String? { load(gradient).1.first }
        #expect(hint(##"{"colors": ["#000"], "type": "kCAGradientLayerRadial"}"##)?.hasSuffix("(did you mean \"radial\"?) @4") == true)
        #expect(hint(##"{"colors": ["#000"], "type": ".conic"}"##)?.hasSuffix("(did you mean \"conic\"?) @4") == true)
        #expect(hint(##"{"colors": ["#000"], "type": "CAGradientLayerType.axial"}"##)?.hasSuffix("(did you mean \"axial\"?) @4") == true)
        #expect(hint(##"{"colors": ["#000"], "type": "linear"}"##)?.hasSuffix("(did you mean \"axial\"?) @4") == true)
        #expect(hint(##"{"colors": ["#000"], "type": "sweep"}"##)?.hasSuffix("(did you mean \"conic\"?) @4") == true)
        #expect(load(##"{"colours": ["#000"]}"##).1.contains { $0.contains("did you mean \"colors\"?") })
        // CAGradientLayer's properties on the view itself point into `gradient`.
        let (_, onView) = load(##"{"colors": ["#000"]}, "startPoint": [0, 0]"##)
        #expect(onView.first?.contains("did you mean \"gradient.startPoint\"?") == true)
    }
}
