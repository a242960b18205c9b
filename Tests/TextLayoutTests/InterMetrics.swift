import CFreeType
import Primitives
import SceneModel
import Testing
import TextLayout

/// Inter Regular's numbers, read from the font file with FreeType (unscaled, in font units) so
/// every expected value in these tests is explicit arithmetic on the font's own metrics.
/// `fc-query` and FreeType give, for /usr/share/fonts/opentype/inter/Inter-Regular.otf (fonts-inter 4.0):
/// unitsPerEm 2816, hhea ascender 2728, descender -680, lineGap 0; advances n 1648, m 2448,
/// i 668, space 792, U+2026 2312. The strings used (runs of one letter, spaces) have no kerning pairs.
struct InterMetrics {
    static let path = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    static let shared = InterMetrics()

    let unitsPerEm: Double
    let ascender: Double
    let descender: Double
    let lineGap: Double
    private let advances: [Unicode.Scalar: Double]

    private init() {
        var library: FT_Library?
        var face: FT_Face?
        var advances: [Unicode.Scalar: Double] = [:]
        var numbers = (2816.0, 2728.0, 680.0, 0.0)
        if FT_Init_FreeType(&library) == 0, let library, FT_New_Face(library, InterMetrics.path, 0, &face) == 0, let face {
            let record = face.pointee
            numbers = (Double(record.units_per_EM), Double(record.ascender), -Double(record.descender),
                       Double(record.height) - Double(record.ascender) + Double(record.descender))
            for scalar in "nmi x\u{2026}".unicodeScalars {
                let glyph = FT_Get_Char_Index(face, FT_ULong(scalar.value))
                if FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0, let slot = face.pointee.glyph {
                    advances[scalar] = Double(slot.pointee.metrics.horiAdvance)
                }
            }
            FT_Done_Face(face)
            FT_Done_FreeType(library)
        }
        (unitsPerEm, ascender, descender, lineGap) = numbers
        self.advances = advances
    }

    /// The advance of `scalar` at `size` points.
    func advance(_ scalar: Unicode.Scalar, size: Double = 17) -> Double { (advances[scalar] ?? .nan) * size / unitsPerEm }
    func ascender(size: Double = 17) -> Double { ascender * size / unitsPerEm }
    /// UIFont.lineHeight: (ascender + descender + lineGap) / unitsPerEm * size.
    func lineHeight(size: Double = 17) -> Double { (ascender + descender + lineGap) * size / unitsPerEm }
}

/// The font numbers the tests rely on are the ones the comments state (a different Inter would change every expectation).
@Test("Inter Regular has the metrics the tests' arithmetic uses")
func interMetricsAreTheStatedOnes() {
    let inter = InterMetrics.shared
    #expect(inter.unitsPerEm == 2816 && inter.ascender == 2728 && inter.descender == 680 && inter.lineGap == 0)
    #expect(inter.advance("n", size: 2816) == 1648 && inter.advance("m", size: 2816) == 2448)
    #expect(inter.advance(" ", size: 2816) == 792 && inter.advance("\u{2026}", size: 2816) == 2312)
    // UIFont.lineHeight of Inter at 17 pt: 3408 / 2816 * 17 = 20.5738...
    #expect(abs(inter.lineHeight() - 20.573_863_636) < 1e-6)
}

func isClose(_ a: Double, _ b: Double, within tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

/// The string one line shows, by its glyphs' clusters (an ellipsis as U+2026), left to right.
func shownText(_ line: TextLine, of string: String) -> String {
    let scalars = Array(string.unicodeScalars)
    var text = String.UnicodeScalarView()
    var last: Int?
    for glyph in line.glyphs {
        guard let cluster = glyph.cluster else {
            text.append("\u{2026}")
            last = nil
            continue
        }
        if cluster != last, cluster < scalars.count { text.append(scalars[cluster]) }
        last = cluster
    }
    return String(text)
}
