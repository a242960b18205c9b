import Primitives
import SceneModel
import Testing
import TextLayout

/// Where text is cut. In a box 6n + e + 0.5 wide (e, the ellipsis, = 2312 / 2816 * 17 = 13.9573...),
/// six n and the ellipsis fit and a seventh n does not.
@Suite("Text layout: truncation and clipping")
struct TruncationTests {
    let inter = InterMetrics.shared
    let typesetter = Typesetter()
    var n: Double { inter.advance("n") }
    var m: Double { inter.advance("m") }
    var e: Double { inter.advance("\u{2026}") }
    var width: Double { 6 * n + e + 0.5 }  // 74.1504...

    func line(_ spec: TextSpec, width: Double? = nil) throws -> (TextLine, TextLayoutResult) {
        let result = try typesetter.layout(spec, in: Size(width: width ?? self.width, height: 40), directory: nil)
        return (try #require(result.lines.first), result)
    }

    @Test("tail: six n and an ellipsis")
    func tail() throws {
        let string = "nnnnnnmmmm"
        let (line, result) = try line(TextSpec(string))
        #expect(shownText(line, of: string) == "nnnnnn\u{2026}")
        #expect(line.range == 0 ..< 6 && line.truncated && result.isTruncated)
        #expect(isClose(line.width, 6 * n + e))
        #expect(isClose(line.glyphs[6].position.x, 6 * n), "the ellipsis follows the sixth n")
    }

    @Test("head: an ellipsis and the last six n")
    func head() throws {
        let string = "mmmmnnnnnn"
        let (line, _) = try line(TextSpec(string, lineBreakMode: .byTruncatingHead))
        #expect(shownText(line, of: string) == "\u{2026}nnnnnn")
        #expect(line.range == 4 ..< 10)
        #expect(isClose(line.glyphs[1].position.x, e))
    }

    @Test("middle: the first part takes what fits in half the room, the last part the rest")
    func middle() throws {
        // Room 6n + 0.5: the first part takes n n n (3n <= 3n + 0.25; 3n + m is over), the last part n n n (3n + 3n <= 6n + 0.5).
        let string = "nnnmmmmnnn"
        let (line, _) = try line(TextSpec(string, lineBreakMode: .byTruncatingMiddle))
        #expect(shownText(line, of: string) == "nnn\u{2026}nnn")
        #expect(line.range == 0 ..< 10)
        #expect(isClose(line.glyphs[4].position.x, 3 * n + e))
    }

    @Test("a text that fits is not cut; hidden paragraphs after a fitting tail line still get an ellipsis")
    func fitsOrFollowed() throws {
        let (fits, fitResult) = try line(TextSpec("nnnnnn"))
        #expect(shownText(fits, of: "nnnnnn") == "nnnnnn" && !fits.truncated && !fitResult.isTruncated)
        let (followed, _) = try line(TextSpec("nnn\nnnn"))
        #expect(shownText(followed, of: "nnn\nnnn") == "nnn\u{2026}")
    }

    @Test("tail truncation on the last of two lines; the lines before it wrap by word")
    func multiLineTail() throws {
        // 'nnn nnn nnnnnnnnn' in 6n + e + 0.5: line 1 'nnn nnn' (6n + s = 64.47 fits), line 2 is the rest, cut.
        let string = "nnn nnn nnnnnnnnn"
        let result = try typesetter.layout(TextSpec(string, numberOfLines: 2), in: Size(width: width, height: 100), directory: nil)
        try #require(result.lines.count == 2)
        #expect(shownText(result.lines[0], of: string) == "nnn nnn" && !result.lines[0].truncated)
        #expect(shownText(result.lines[1], of: string) == "nnnnnn\u{2026}")
    }

    @Test("byClipping runs the line past the box without an ellipsis; byWordWrapping on one line shows whole words")
    func clippingAndWrappingOnOneLine() throws {
        let (clipped, clipResult) = try line(TextSpec("nnnnnnnnnn", lineBreakMode: .byClipping), width: 4 * n + 1)
        #expect(clipped.glyphs.count == 10 && isClose(clipped.width, 10 * n) && clipped.x == 0)
        #expect(!clipped.truncated && clipResult.isTruncated)
        let (words, wordResult) = try line(TextSpec("nnn nnn nnn", lineBreakMode: .byWordWrapping), width: 6 * n + 5)
        #expect(shownText(words, of: "nnn nnn nnn") == "nnn nnn" && wordResult.isTruncated)
    }

    @Test("a box narrower than the ellipsis shows the ellipsis alone")
    func onlyEllipsis() throws {
        let (line, _) = try line(TextSpec("nnnnnn"), width: 3)
        #expect(shownText(line, of: "nnnnnn") == "\u{2026}")
    }
}
