import Foundation
import Primitives
import SceneModel
import Testing
import TextLayout

/// Bad fonts, sizes and strings are a `TextError` of the right kind, never a crash.
@Suite("Text layout: bad input")
struct BadInputTests {
    let typesetter = Typesetter()
    let box = Size(width: 100, height: 40)

    /// The kind of `TextError` `body` throws; nil when it throws nothing (or something else).
    static func kind(_ body: () throws -> Void) -> TextError.Kind? {
        do {
            try body()
            return nil
        } catch let error as TextError {
            return error.kind
        } catch {
            return nil
        }
    }

    func scratchDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "textlayout-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a family fontconfig does not have is familyNotFound, not a substitute")
    func missingFamily() {
        let font = FontSpec(family: "No Such Family 42")
        #expect(Self.kind { _ = try typesetter.resolve(font, directory: nil) } == .familyNotFound)
        #expect(Self.kind { _ = try typesetter.layout(TextSpec("n", font: font), in: box, directory: nil) } == .familyNotFound)
        #expect(Self.kind { _ = try typesetter.resolve(FontSpec(family: ""), directory: nil) } == .familyNotFound)
    }

    @Test("a missing font file, a directory, and a malformed one (random bytes) are errors")
    func badFiles() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Self.kind { _ = try typesetter.resolve(FontSpec(file: "missing.otf"), directory: dir) } == .fontFileMissing)
        #expect(Self.kind { _ = try typesetter.resolve(FontSpec(file: dir), directory: nil) } == .fontFileMissing)
        var generator = SystemRandomNumberGenerator()
        let noise = (0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        try Data(noise).write(to: URL(fileURLWithPath: dir + "/noise.otf"))
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.otf"))
        // An OpenType header with no tables.
        try Data([0x4F, 0x54, 0x54, 0x4F, 0, 0, 0, 0, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: dir + "/header.otf"))
        for name in ["noise.otf", "empty.otf", "header.otf"] {
            let spec = TextSpec("nn", font: FontSpec(file: name))
            #expect(Self.kind { _ = try typesetter.render(spec, in: box, scale: 2, directory: dir) } == .fontFileMalformed, "\(name)")
        }
    }

    @Test("every font in fuzz/regressions/font draws or is refused as malformed, as FontFuzzer checks")
    func fuzzRegressions() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/regressions/font").path
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let spec = TextSpec("Hg \u{1681} \u{108E0}", font: FontSpec(file: name), numberOfLines: 0)
            let kind = Self.kind { _ = try typesetter.render(spec, in: box, scale: 2, directory: dir) }
            #expect(kind == nil || kind == .fontFileMalformed, "\(name): \(String(describing: kind))")
        }
    }

    @Test("U+FFFF, libunibreak 1.1's end-of-text marker, is set like any noncharacter, not an abort")
    func endOfTextMarker() throws {
        // Before the fix, set_linebreaks_utf32 stopped at the U+FFFF and failed its own assertion: the process aborted.
        let narrow = Size(width: 60, height: 200)
        for (marker, standIn) in [("\u{FFFF}", "\u{FFFE}"), ("\u{FFFF}\u{FFFF}", "\u{FFFE}\u{FFFE}")] {
            for template in ["nnn # nnnn nn", "#", "# nnnn", "nnnn #", "nnnnnn#nnnnnnnnn nn"] {
                let spec = TextSpec(template.replacingOccurrences(of: "#", with: marker), numberOfLines: 0)
                let twin = TextSpec(template.replacingOccurrences(of: "#", with: standIn), numberOfLines: 0)
                let layout = try typesetter.layout(spec, in: narrow, directory: nil)
                // The same line-break class (XX) as U+FFFE: the same lines, cut at the same places.
                #expect(layout.lines.map(\.range) == (try typesetter.layout(twin, in: narrow, directory: nil)).lines.map(\.range))
                #expect(!layout.lines.isEmpty && layout.lines.last?.range.upperBound == spec.string.unicodeScalars.count)
                #expect(Self.kind { _ = try typesetter.render(spec, in: narrow, scale: 2, directory: nil) } == nil)
            }
        }
    }

    @Test("flag emoji (regional indicators, class RI, outside libunibreak 1.1's pair table) are set, never split")
    func regionalIndicators() throws {
        // Before the fix, set_linebreaks failed `assert(lbcNew <= LBP_JT)` at the first flag: the process aborted.
        let flags = "\u{1F1EB}\u{1F1F7}\u{1F1EF}\u{1F1F5}\u{1F1FA}\u{1F1F8}"
        let spec = TextSpec("Paris \u{1F1EB}\u{1F1F7} Tokyo \(flags) \u{1F1E6}", numberOfLines: 0)
        let scalars = Array(spec.string.unicodeScalars)
        // Wide enough for the run of three flags (drawn as six missing-glyph boxes), so only opportunities break.
        for width in [120.0, 160, 1000] {
            let layout = try typesetter.layout(spec, in: Size(width: width, height: 400), directory: nil)
            #expect(layout.lines.last?.range.upperBound == scalars.count)
            // No line starts between the two letters of a flag (nor inside a run of flags: they set as one word).
            for line in layout.lines.dropFirst() where line.range.lowerBound > 0 {
                let before = scalars[line.range.lowerBound - 1].value, after = scalars[line.range.lowerBound].value
                #expect(!((0x1F1E6 ... 0x1F1FF).contains(before) && (0x1F1E6 ... 0x1F1FF).contains(after)), "\(width)")
            }
        }
        #expect(Self.kind { _ = try typesetter.render(spec, in: box, scale: 2, directory: nil) } == nil)
    }

    @Test("other strings that are hard on the text path are set: NUL, controls, bidi and combining storms, astral planes")
    func hardStrings() {
        let storms = [
            "a\u{0}b\u{0}", "\u{0}", "\u{1B}[31mred\u{7}",
            String(String.UnicodeScalarView([0x10FFFF, 0x1FFFF, 0xFDD0, 0xFFFE].compactMap(Unicode.Scalar.init))),
            String(repeating: "\u{202E}\u{2067}\u{202B}", count: 300) + "abc" + String(repeating: "\u{202C}\u{2069}", count: 300),
            "e" + String(repeating: "\u{301}\u{327}\u{20DD}", count: 1000),
            String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{FE0F}", count: 200),
            String(repeating: "\u{E0041}", count: 2000), String(repeating: "\r\n\u{2028}\u{85}", count: 1000),
            "\u{627}\u{644}\u{64B}" + String(repeating: "\u{670}", count: 2000) + "\u{5D0}1\u{200F}2",
        ]
        for string in storms {
            #expect(string.utf8.count <= TextLimits.maxStringLength)
            for mode in [LineBreakMode.byWordWrapping, .byTruncatingMiddle, .byCharWrapping] {
                let spec = TextSpec(string, alignment: .justified, numberOfLines: 0, lineBreakMode: mode)
                #expect(Self.kind { _ = try typesetter.render(spec, in: box, scale: 2, directory: nil) } == nil, "\(mode)")
            }
        }
    }

    @Test("every input in fuzz/regressions/text keeps TextLayoutFuzzer's promises")
    func textFuzzRegressions() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/regressions/text").path
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            let label = try #require(FuzzedLabel(bytes: bytes), "\(name)")
            #expect(label.brokenPromise(typesetter) == nil, "\(name)")
        }
    }

    @Test("a font file relative to the scene's directory is found there and sets like the family")
    func relativeFile() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: InterMetrics.path, toPath: dir + "/Inter.otf")
        let resolved = try typesetter.resolve(FontSpec(file: "Inter.otf"), directory: dir)
        #expect(resolved == ResolvedFont(path: dir + "/Inter.otf", faceIndex: 0))
        let fromFile = try typesetter.layout(TextSpec("nnnn", font: FontSpec(file: "Inter.otf")), in: box, directory: dir)
        let fromFamily = try typesetter.layout(TextSpec("nnnn"), in: box, directory: nil)
        #expect(fromFile.lines.map(\.width) == fromFamily.lines.map(\.width))
    }

    @Test("NaN, infinite, negative and huge sizes are refused or clamped")
    func sizes() {
        let text = TextSpec("nn")
        #expect(Self.kind { _ = try typesetter.layout(text, in: Size(width: .nan, height: 10), directory: nil) } == .invalidSize)
        #expect(Self.kind { _ = try typesetter.render(text, in: Size(width: 10, height: .infinity), scale: 1, directory: nil) }
            == .invalidSize)
        #expect(Self.kind { _ = try typesetter.render(text, in: box, scale: .nan, directory: nil) } == .invalidSize)
        #expect(Self.kind { _ = try typesetter.render(text, in: box, scale: 0, directory: nil) } == .invalidSize)
        #expect(Self.kind { _ = try typesetter.render(text, in: Size(width: 1e6, height: 1e6), scale: 1, directory: nil) } == .invalidSize)
        for size in [Double.nan, 0, -3, .infinity, 5000] {
            let spec = TextSpec("nn", font: FontSpec(size: size))
            #expect(Self.kind { _ = try typesetter.layout(spec, in: box, directory: nil) } == .invalidFontSize, "\(size)")
        }
        let giantGlyphs = TextSpec("nn", font: FontSpec(size: 1000))
        #expect(Self.kind { _ = try typesetter.render(giantGlyphs, in: box, scale: 8, directory: nil) } == .invalidSize)
        // A negative box is an empty one: one line, centred on the top edge.
        #expect(Self.kind { _ = try typesetter.render(text, in: Size(width: -5, height: -5), scale: 2, directory: nil) } == nil)
    }

    @Test("odd numbers in the spec are clamped as UIKit reads them; an empty string sets nothing")
    func oddSpecNumbers() throws {
        let plain = try typesetter.layout(TextSpec("n n"), in: box, directory: nil)
        let odd = try typesetter.layout(
            TextSpec("n n", numberOfLines: -4, lineHeightMultiple: .nan, letterSpacing: .infinity), in: box, directory: nil
        )
        #expect(odd.lines.map(\.width) == plain.lines.map(\.width) && odd.lineHeight == plain.lineHeight)
        let empty = try typesetter.render(TextSpec(""), in: box, scale: 2, directory: nil)
        #expect(empty.layout.lines.isEmpty && empty.bitmap.pixels.allSatisfy { $0 == 0 })
    }

    @Test("a string over the limit is refused; one at the limit is set")
    func stringLimit() throws {
        let over = TextSpec(String(repeating: "n", count: TextLimits.maxStringLength + 1))
        #expect(Self.kind { _ = try typesetter.layout(over, in: box, directory: nil) } == .stringTooLong)
        let atLimit = TextSpec(String(repeating: "n ", count: TextLimits.maxStringLength / 2), numberOfLines: 0)
        let result = try typesetter.layout(atLimit, in: Size(width: 300, height: 200), directory: nil)
        #expect(result.lines.count == 9 && result.isTruncated)  // 200 / 20.57 = 9.7: nine lines fit
    }
}
