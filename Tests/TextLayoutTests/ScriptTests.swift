import Primitives
import SceneModel
import Testing
import TextLayout

/// Right-to-left paragraphs (FriBidi) and characters Inter lacks (fontconfig's fallback faces).
@Suite("Text layout: bidi and fallback")
struct ScriptTests {
    let typesetter = Typesetter()

    func line(_ spec: TextSpec, width: Double = 200) throws -> (TextLine, TextLayoutResult) {
        let result = try typesetter.layout(spec, in: Size(width: width, height: 40), directory: nil)
        return (try #require(result.lines.first), result)
    }

    @Test("a Hebrew paragraph runs right to left and natural alignment puts it at the right edge")
    func hebrewNatural() throws {
        let (line, result) = try line(TextSpec("שלום"))  // shin lamed vav final-mem, logical order
        #expect(result.direction == .rightToLeft && line.direction == .rightToLeft)
        #expect(isClose(line.x + line.width, 200), "right-aligned: x + width = the box's width")
        // Drawn left to right, the first glyph is the last letter (final mem, scalar 3) and the last is shin (scalar 0).
        #expect(line.glyphs.compactMap(\.cluster) == [3, 2, 1, 0])
        #expect(line.glyphs.first?.position.x == line.x)
        let (left, _) = try self.line(TextSpec("שלום", alignment: .left))
        #expect(left.x == 0)
    }

    @Test("an Arabic paragraph goes right, its letters joined (fewer glyph shapes than letters would be)")
    func arabicNatural() throws {
        let (line, result) = try line(TextSpec("مرحبا"))
        #expect(result.direction == .rightToLeft)
        #expect(isClose(line.x + line.width, 200))
        #expect(line.glyphs.compactMap(\.cluster).first == 4 && line.glyphs.compactMap(\.cluster).last == 0)
        #expect(result.missingCharacters.isEmpty)
    }

    @Test("a left-to-right paragraph with a Hebrew word: the word's run is reversed in place")
    func mixedDirections() throws {
        let (line, result) = try line(TextSpec("nn שלום"))
        #expect(result.direction == .leftToRight && line.x == 0)
        #expect(line.glyphs.compactMap(\.cluster) == [0, 1, 2, 6, 5, 4, 3])
    }

    @Test("a character Inter lacks is drawn from a Noto face found through fontconfig")
    func devanagariFallback() throws {
        let (line, result) = try line(TextSpec("nक"))
        #expect(result.missingCharacters.isEmpty)
        try #require(line.glyphs.count == 2)
        #expect(line.glyphs[0].font.path.hasSuffix("Inter-Regular.otf"))
        #expect(line.glyphs[1].font.path.contains("NotoSansDevanagari") || line.glyphs[1].font.path.contains("NotoSerifDevanagari"))
        #expect(line.glyphs[1].glyph != 0)
    }

    @Test("a character no installed font has is reported once and drawn as the primary face's .notdef")
    func missingCharacter() throws {
        let (line, result) = try line(TextSpec("n\u{10FFFD}n\u{10FFFD}"))
        #expect(result.missingCharacters == ["\u{10FFFD}"])
        #expect(line.glyphs.count == 4 && line.glyphs[1].glyph == 0 && line.glyphs[1].font.path.hasSuffix("Inter-Regular.otf"))
        // Controls and joiners need no glyph, so they are never missing.
        let (_, controls) = try self.line(TextSpec("n\u{200D}\tn\u{2028}"))
        #expect(controls.missingCharacters.isEmpty)
    }

    @Test("weights and italic pick the family's faces")
    func weightsAndItalic() throws {
        let semibold = try typesetter.resolve(FontSpec(textStyle: .headline), directory: nil)
        #expect(semibold.path.hasSuffix("Inter-SemiBold.otf"))
        let boldItalic = try typesetter.resolve(FontSpec(size: 17, weight: .bold, italic: true), directory: nil)
        #expect(boldItalic.path.hasSuffix("Inter-BoldItalic.otf"))
        let black = try typesetter.resolve(FontSpec(weight: .black), directory: nil)
        #expect(black.path.hasSuffix("Inter-Black.otf"))
        #expect(try typesetter.resolve(FontSpec(family: "inter"), directory: nil).path.hasSuffix("Inter-Regular.otf"))
    }
}
