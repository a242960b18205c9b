import Primitives
import Testing
import SceneFormat
import SceneModel
import ShiftRender

/// `text` and `text.font` as a file spells them: every form read to the model
/// the Swift spelling builds, every mistake reported at its place.
@Suite struct TextDecodingTests {
    func scene(label: String) -> String {
        """
        {"version": 1, "canvas": {"width": 100, "height": 100}, "from": {},
         "to": {"subviews": [{"frame": [0, 0, 100, 20], "text": \(label)}]}}
        """
    }

    func decode(_ label: String) throws(LoadError) -> TextSpec? {
        try loadScene(bytes: Array(scene(label: label).utf8), file: "t.json", baseDirectory: "/scenes").to.subviews[0].text
    }

    /// Each problem as "place: message" without the line and column.
    func problems(_ label: String) -> [String] {
        do {
            _ = try decode(label)
            return []
        } catch { return error.issues.map { "\($0.place): \($0.message)" } }
    }

    @Test func everyFormReadsAsTheSwiftSpellingBuildsIt() throws {
        #expect(try decode("\"Now Playing\"") == TextSpec("Now Playing"))
        #expect(try decode("{\"string\": \"Now Playing\"}") == TextSpec("Now Playing"))
        #expect(try decode("{\"string\": \"a\", \"font\": \"headline\"}") == TextSpec("a", font: FontSpec(textStyle: .headline)))
        #expect(FontSpec(textStyle: .headline).size == 17 && FontSpec(textStyle: .headline).weight == .semibold)
        #expect(FontSpec(textStyle: .caption2).size == 11 && FontSpec(textStyle: .caption2).weight == .regular)
        let full = try decode(
            """
            {"string": "b", "font": {"family": "Noto Sans", "size": 13, "weight": "heavy", "italic": true}, "color": "#FF000080",
             "alignment": "center", "numberOfLines": 0, "lineBreakMode": "byClipping", "lineHeightMultiple": 1.5, "letterSpacing": -1}
            """)
        #expect(
            full
                == TextSpec(
                    "b", font: FontSpec(family: "Noto Sans", size: 13, weight: .heavy, italic: true),
                    color: RGBAColor(rgba: 0xFF00_0080), alignment: .center, numberOfLines: 0, lineBreakMode: .byClipping,
                    lineHeightMultiple: 1.5, letterSpacing: -1))
        let inter = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"  // fonts-inter; the loader checks the file is a font
        #expect(try decode("{\"string\": \"c\", \"font\": {\"file\": \"\(inter)\", \"size\": 20}}")?.font == FontSpec(file: inter, size: 20))
    }

    @Test func mistakesAreNamedAtTheirPlace() {
        #expect(
            problems("{\"string\": \"a\", \"font\": {\"weight\": \"semiBold\"}}")
                == ["to.subviews[0].text.font.weight: unknown value \"semiBold\"; expected one of: "
                    + FontWeight.allCases.map(\.rawValue).joined(separator: ", ") + " (did you mean \"semibold\"?)"])
        #expect(problems("{\"string\": \"a\", \"font\": \"headlne\"}").first?.hasSuffix("(did you mean \"headline\"?)") == true)
        #expect(
            problems(
                "{\"string\": \"a\", \"font\": {\"file\": \"/usr/share/fonts/opentype/inter/Inter-Bold.otf\", "
                    + "\"family\": \"Inter\", \"weight\": \"bold\"}}")
                == [
                    "to.subviews[0].text.font.family: give a family or a file, not both",
                    "to.subviews[0].text.font.weight: a font file is one face: weight applies to a family only",
                ])
        #expect(problems("{\"string\": \"a\", \"numberOfLines\": 1.5}") == ["to.subviews[0].text.numberOfLines: expected a whole number, got 1.5"])
        #expect(problems("{\"string\": \"a\", \"numberOfLines\": -1}") == ["to.subviews[0].text.numberOfLines: -1 is negative; 0 means as many as fit"])
        #expect(problems("{\"font\": \"body\"}") == ["to.subviews[0].text.string: missing: the text to draw"])
        #expect(problems("{\"string\": \"a\", \"textColor\": \"#000\"}").first?.hasPrefix("to.subviews[0].text.textColor: unknown key") == true)
        #expect(
            problems("{\"string\": \"a\", \"font\": {\"size\": 0}}")
                == ["to.subviews[0].text.font.size: 0 is out of range: must be greater than 0 and at most 1000"])
        #expect(problems("{\"string\": \"a\", \"lineHeightMultiple\": -1}").count == 1)
        #expect(problems("{\"string\": \"a\", \"letterSpacing\": 1e9}").count == 1)
    }

    @Test func aStringOverTheLimitIsRefusedByItsLength() {
        let long = String(repeating: "é", count: SceneLimits.maximumTextBytes / 2 + 1)  // two UTF-8 bytes each
        #expect(
            problems("\"\(long)\"")
                == ["to.subviews[0].text.string: \(long.utf8.count) bytes of text; the limit is \(SceneLimits.maximumTextBytes) (UTF-8)"])
        #expect(problems("\"\(String(repeating: "é", count: SceneLimits.maximumTextBytes / 2))\"").isEmpty)
    }
}
