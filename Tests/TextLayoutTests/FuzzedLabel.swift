// Shared by `BadInputTests` (swift test) and the libFuzzer target fuzz/targets/TextLayoutFuzzer.swift (fuzz/build.sh
// compiles this file into it), so it imports no test framework and reports a broken promise as a string.
import Primitives
import SceneModel
import TextLayout

/// Turns any bytes into a label, a box and a scale for `Typesetter.render`: the text path every command and the
/// studio take for a scene's `text` (fontconfig's fallback, libunibreak, FriBidi, HarfBuzz, FreeType).
///
/// The first 8 bytes choose how the label is set (family, size, weight, slant, alignment, lines, line-break mode,
/// line height, letter spacing, box, scale); the rest is its string, read one of two ways (the first byte's top bit):
/// - as UTF-8 (invalid bytes become U+FFFD), which lets the mutator and `fuzz/text.dict` reach any scalar;
/// - through `palette`: a byte below 0x80 is that ASCII character, one above picks one of 128 scalars chosen to be
///   hard on the text path, so that short inputs make dense storms of them.
/// Shorter inputs make no label.
public struct FuzzedLabel {
    public var text: TextSpec
    public var box: Size
    public var scale: Double

    /// Noncharacters (libunibreak 1.1's end marker U+FFFF first), NUL and other controls, mandatory breaks, bidi
    /// embeddings, overrides and isolates, combining marks, joiners, variation selectors, tags, complex scripts,
    /// emoji sequences, private use and astral characters.
    public static let palette: [UInt32] = [
        0xFFFF, 0xFFFE, 0x1FFFF, 0x10FFFF, 0xFDD0, 0xFDEF, 0x0000, 0x0009,  // noncharacters, NUL, tab
        0x000A, 0x000D, 0x000B, 0x000C, 0x0085, 0x2028, 0x2029, 0x001B,  // mandatory breaks, escape
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,  // bidi embeddings, overrides, isolates
        0x2069, 0x200E, 0x200F, 0x061C, 0x200B, 0x200C, 0x200D, 0x2060,  // pop isolate, marks, zero widths, joiners
        0x0300, 0x0301, 0x0327, 0x0345, 0x034F, 0x0489, 0x20DD, 0x1AB0,  // combining marks, grapheme joiner
        0xFE0F, 0xFE0E, 0xE0100, 0x180B, 0xE0001, 0xE0041, 0xE007F, 0x00AD,  // variation selectors, tags, soft hyphen
        0x05D0, 0x05E9, 0x05B8, 0x0591, 0x0627, 0x0644, 0x0647, 0x064B,  // Hebrew, Arabic and their marks
        0x0670, 0x06DD, 0x0600, 0x0661, 0x0915, 0x094D, 0x0937, 0x093F,  // Arabic number signs, Devanagari virama
        0x0E01, 0x0E31, 0x0E4E, 0x1780, 0x17D2, 0x0F40, 0x0FB2, 0x1000,  // Thai, Khmer, Tibetan, Myanmar
        0x4E00, 0x3042, 0x30A2, 0xAC00, 0x1100, 0x1161, 0x11A8, 0x3000,  // CJK, kana, Hangul and its jamo
        0x1F600, 0x1F468, 0x1F3FB, 0x1F1EB, 0x1F1F7, 0x2764, 0x0023, 0x20E3,  // emoji, skin tone, flags, keycap
        0xE000, 0xF8FF, 0xF0000, 0x100000, 0xFFFD, 0xFFFC, 0xFFF9, 0xFFFB,  // private use, replacement, annotations
        0x2026, 0x00A0, 0x2007, 0x202F, 0x2014, 0x2E3A, 0xFDFD, 0x12219,  // ellipsis, no-break spaces, wide glyphs
        0x1D11E, 0x1D165, 0x1D16D, 0x0B95, 0x0BCD, 0x0DCA, 0x1BF2, 0xA8C4,  // musical symbols, Indic viramas
        0x1680, 0x1681, 0x10280, 0x1703, 0x108E0, 0x16F8F, 0x11F00, 0x0700,  // Ogham, Lycian, Tagalog, Hatran, Syriac
        0x0020, 0x0041, 0x006E, 0x0066, 0x0069, 0x0031, 0x002E, 0x0028,  // space, letters, ligature parts
    ]

    static let families = ["Inter", "DejaVu Sans", "Noto Sans", "Noto Serif"]

    public init?(bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        let b = bytes[0 ..< 8].map(Int.init)
        let font = FontSpec(
            family: Self.families[b[0] & 3], size: Double(1 + (b[1] & 63)) / 2 + 4, weight: FontWeight.allCases[(b[1] >> 6) * 2],
            italic: b[0] & 4 != 0)
        text = TextSpec(
            Self.string(bytes[8...], viaPalette: b[0] & 0x80 != 0), font: font,
            alignment: TextAlignment.allCases[(b[0] >> 3 & 7) % TextAlignment.allCases.count],
            numberOfLines: b[2] & 7 == 7 ? -1 : b[2] & 7,
            lineBreakMode: LineBreakMode.allCases[(b[2] >> 3) % LineBreakMode.allCases.count],
            lineHeightMultiple: [1, 0, 1.5, 0.25, .nan, 3][b[3] % 6], letterSpacing: Double(Int8(bitPattern: UInt8(b[4]))) / 8)
        box = Size(width: Double(b[5]) * 1.5, height: Double(b[6]) / 2)
        scale = Double(1 + b[7] % 3)
    }

    static func string(_ body: ArraySlice<UInt8>, viaPalette: Bool) -> String {
        guard viaPalette else { return String(decoding: body, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in body {
            let value = byte < 0x80 ? UInt32(byte) : palette[Int(byte - 0x80)]
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Sets and draws the label with `typesetter`; nil when every promise held, else the one broken: the label is
    /// drawn or refused as `stringTooLong` (the family and sizes are valid), the bitmap is ceil(size * scale) px,
    /// every line's numbers are finite, its range lies in the string and each glyph's cluster in its line's
    /// range, and setting it a second time (caches warm) gives the same layout.
    public func brokenPromise(_ typesetter: Typesetter) -> String? {
        let rendered: RenderedText
        do {
            rendered = try typesetter.render(text, in: box, scale: scale, directory: nil)
        } catch {
            return error.kind == .stringTooLong ? nil : "refused as \(error.kind): \(error)"
        }
        let (width, height) = (Int((box.width * scale).rounded(.up)), Int((box.height * scale).rounded(.up)))
        guard rendered.bitmap.width == width, rendered.bitmap.height == height else {
            return "a \(rendered.bitmap.width) x \(rendered.bitmap.height) px bitmap for \(width) x \(height)"
        }
        let layout = rendered.layout
        guard layout.lineHeight.isFinite, layout.lineHeight > 0 else { return "line height \(layout.lineHeight)" }
        let scalarCount = text.string.unicodeScalars.count
        for line in layout.lines {
            guard line.x.isFinite, line.baseline.isFinite, line.width.isFinite else { return "line \(line)" }
            guard line.range.lowerBound >= 0, line.range.upperBound <= scalarCount else {
                return "line range \(line.range) in a string of \(scalarCount) scalars"
            }
            for glyph in line.glyphs {
                guard glyph.position.x.isFinite, glyph.position.y.isFinite, glyph.advance.isFinite else { return "glyph \(glyph)" }
                if let cluster = glyph.cluster, !line.range.contains(cluster) {
                    return "glyph of cluster \(cluster) on a line of \(line.range)"
                }
            }
        }
        guard let again = try? typesetter.layout(text, in: box, directory: nil), again == layout else {
            return "setting the label a second time gave another layout"
        }
        return nil
    }
}
