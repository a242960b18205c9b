import Primitives
import Testing
@testable import SceneFormat
import SceneModel
import ShiftRender

@Suite struct SceneDecodingTests {
    let minimal = """
        {"version": 1, "canvas": {"width": 100, "height": 200, "scale": 2, "background": "#112233"}, "fps": 30,
         "transition": {"direction": "dismiss", "baselineDuration": 0.5, "defaultAnimation": {"scale": "down"}},
         "from": {"backgroundColor": "#FFF"}, "to": {"subviews": [{"frame": [1, 2, 3, 4], "shift": {"id": "x",
           "animations": ["fade", {"move": {"right": 150}}, {"scale": 2, "when": "onAppear"}]}}]}}
        """

    func decode(_ text: String) throws(LoadError) -> Scene {
        try loadScene(bytes: Array(text.utf8), file: "test.json", baseDirectory: "/scenes")
    }

    func issues(_ text: String) -> [SceneProblem] {
        do {
            _ = try decode(text)
            return []
        } catch { return error.issues }
    }

    @Test func decodesAValidScene() throws {
        let scene = try decode(minimal)
        #expect(
            scene.canvas
                == CanvasSpec(
                    width: 100, height: 200, scale: 2, background: RGBAColor(red: 0x11 / 255, green: 0x22 / 255, blue: 0x33 / 255)))
        #expect(scene.canvas.pixelWidth == 200 && scene.canvas.pixelHeight == 400)
        #expect(scene.fps == 30)
        #expect(scene.transition.direction == .dismiss)
        #expect(scene.transition.baselineDuration == 0.5)
        #expect(scene.transition.defaultAnimation == .scale(1.7))
        #expect(scene.from.frame == nil)  // a root without a frame fills the canvas
        #expect(scene.from.backgroundColor == .white)
        let sub = scene.to.subviews[0]
        #expect(scene.view(at: ViewAddress(screen: .to, indices: [0])) == sub)
        #expect(ViewAddress(screen: .to, indices: [0]).description == "to.subviews[0]")
        #expect(sub.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(sub.shift.id == "x")
        #expect(
            sub.shift.animations == [
                AdditionalAnimation(.fade), AdditionalAnimation(.move(dx: -150, dy: 0)), AdditionalAnimation(.scale(2), when: .onAppear),
            ])
    }

    @Test func unknownKeyNamesItsPathAndTheClosestKnownKey() {
        let found = issues(
            minimal.replacingOccurrences(of: "\"frame\": [1, 2, 3, 4]", with: "\"frame\": [1, 2, 3, 4], \"cornerRadios\": 3"))
        #expect(found.count == 1)
        #expect(found.first?.path == "to.subviews[0].cornerRadios")
        #expect(found.first?.message == "unknown key \"cornerRadios\"; did you mean \"cornerRadius\"?")
        #expect(found.first?.line == 3)
    }

    @Test func wrongTypesAndRangesNameTheirPlace() {
        let text =
            minimal
            .replacingOccurrences(of: "[1, 2, 3, 4]", with: "[1, 2, 3]")
            .replacingOccurrences(of: "\"fps\": 30", with: "\"fps\": -1")
            .replacingOccurrences(of: "\"#FFF\"", with: "\"white\"")
        let found = issues(text)
        #expect(found.map(\.path).sorted() == ["fps", "from.backgroundColor", "to.subviews[0].frame"])
        #expect(found.contains { $0.path == "to.subviews[0].frame" && $0.message == "expected [x, y, width, height], got 3 numbers" })
    }

    @Test func impossibleCanvasIsRefused() {
        let found = issues(minimal.replacingOccurrences(of: "\"width\": 100", with: "\"width\": 5000"))
        #expect(found.first?.path == "canvas.width")
        #expect(found.first?.message.contains("limit is 8192 px") == true)
        #expect(issues(minimal.replacingOccurrences(of: "\"width\": 100", with: "\"width\": 0")).first?.path == "canvas.width")
    }

    @Test func unknownEnumValueSuggestsTheClosest() {
        let found = issues(minimal.replacingOccurrences(of: "\"dismiss\"", with: "\"dismis\""))
        #expect(found.first?.path == "transition.direction")
        #expect(found.first?.message.contains("did you mean \"dismiss\"") == true)
    }

    @Test func futureVersionIsRefused() {
        let found = issues(minimal.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 2"))
        #expect(found.first?.path == "version")
        #expect(found.first?.message.contains("newer") == true)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let text =
            minimal
            .replacingOccurrences(of: "\"fps\": 30", with: "\"fps\": \"fast\"")
            .replacingOccurrences(of: "\"baselineDuration\": 0.5", with: "\"baselineDuration\": -1")
            .replacingOccurrences(of: "\"fade\",", with: "\"fdae\",")
        #expect(Set(issues(text).map(\.path)) == ["fps", "transition.baselineDuration", "to.subviews[0].shift.animations[0]"])
    }

    @Test func missingImageGivesThePathAsWrittenAndAsResolved() {
        let text = minimal.replacingOccurrences(of: "\"frame\": [1, 2, 3, 4]", with: "\"frame\": [1, 2, 3, 4], \"image\": \"art/none.png\"")
        let found = issues(text)
        #expect(found.count == 1)
        #expect(found.first?.path == "to.subviews[0].image")
        #expect(found.first?.message == "image \"art/none.png\" not found (looked for /scenes/art/none.png)")
    }

    @Test func syntaxErrorsCarryLineAndColumn() {
        do {
            _ = try decode("{\n\"version\": 1,,\n}")
            Issue.record("accepted bad JSON")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.description == "test.json: invalid JSON: unexpected ','; expected a key in double quotes (line 2, column 14)")
        }
    }

    @Test func coloursInEveryForm() {
        #expect(RGBAColor(hex: "#F00") == RGBAColor(red: 1, green: 0, blue: 0))
        #expect(RGBAColor(hex: "#00FF0080") == RGBAColor(red: 0, green: 1, blue: 0, alpha: 128.0 / 255))
        #expect(RGBAColor(hex: "#12345") == nil)
        #expect(RGBAColor(hex: "red") == nil)
        let scene = try? decode(minimal.replacingOccurrences(of: "\"#FFF\"", with: "[0, 0.5, 1, 0.25]"))
        #expect(scene?.from.backgroundColor == RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 0.25))
    }
}

@Suite struct SceneIDTests {
    @Test func duplicateIDsOnOneScreenAreRefused() {
        let text = """
            {"version": 1, "canvas": {"width": 10, "height": 10}, "from": {}, "to": {"subviews": [
              {"frame": [0, 0, 1, 1], "shift": {"id": "a"}}, {"frame": [0, 0, 1, 1], "shift": {"id": "a"}}]}}
            """
        do {
            _ = try loadScene(bytes: Array(text.utf8), baseDirectory: "")
            Issue.record("duplicate id accepted")
        } catch {
            #expect(error.issues.map(\.path) == ["to.subviews[1].shift.id"])
            #expect(error.issues.first?.message == "duplicate id \"a\" (first used at to.subviews[0]); ids must be unique within a screen")
        }
    }
}
