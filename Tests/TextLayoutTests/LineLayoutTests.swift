import Primitives
import SceneModel
import Testing
import TextLayout

/// Where lines and glyphs go: each expectation is arithmetic on Inter's metrics (`InterMetrics`),
/// at the default 17 pt: n = 1648 / 2816 * 17 = 9.9488..., space s = 792 / 2816 * 17 = 4.7812...,
/// line height L = 3408 / 2816 * 17 = 20.5738..., ascender a = 2728 / 2816 * 17 = 16.4687...
@Suite("Text layout: lines, alignment, spacing")
struct LineLayoutTests {
    let inter = InterMetrics.shared
    let typesetter = Typesetter()
    var n: Double { inter.advance("n") }
    var s: Double { inter.advance(" ") }

    func layout(_ spec: TextSpec, _ width: Double, _ height: Double) throws -> TextLayoutResult {
        try typesetter.layout(spec, in: Size(width: width, height: height), directory: nil)
    }

    @Test("a one-line centred label: first glyph at (200 - 4n) / 2, baseline at (40 - L) / 2 + a")
    func centredLine() throws {
        let result = try layout(TextSpec("nnnn", alignment: .center), 200, 40)
        let line = try #require(result.lines.first)
        // (200 - 4 * 9.9488) / 2 = 80.1023...; (40 - 20.5738) / 2 + 16.4687 = 26.1818...
        let x = (200 - 4 * n) / 2
        #expect(result.lines.count == 1)
        #expect(isClose(line.x, x) && isClose(line.glyphs[0].position.x, x))
        #expect(isClose(line.glyphs[1].position.x, x + n))
        #expect(isClose(line.width, 4 * n))
        #expect(isClose(line.baseline, (40 - inter.lineHeight()) / 2 + inter.ascender()))
        #expect(isClose(line.baseline, 26.181_818_18))
        #expect(isClose(result.lineHeight, inter.lineHeight()))
    }

    @Test("left, right and natural alignment of a left-to-right line")
    func horizontalAlignment() throws {
        let left = try #require(try layout(TextSpec("nnnn", alignment: .left), 200, 40).lines.first)
        let right = try #require(try layout(TextSpec("nnnn", alignment: .right), 200, 40).lines.first)
        let natural = try #require(try layout(TextSpec("nnnn"), 200, 40).lines.first)
        #expect(left.x == 0 && natural.x == 0)
        #expect(isClose(right.x, 200 - 4 * n))  // 160.2045...
    }

    @Test("lineHeightMultiple 1.5: line 2's baseline is top + 1.5L + (1.5L - L) + a, the extra above the glyphs")
    func lineHeightMultiple() throws {
        let result = try layout(TextSpec("nnn\nnnn", numberOfLines: 0, lineHeightMultiple: 1.5), 200, 100)
        try #require(result.lines.count == 2)
        let pitch = 1.5 * inter.lineHeight()  // 30.8607...
        let top = (100 - 2 * pitch) / 2  // 19.1392...
        // 19.1392 + 30.8607 + 10.2869 + 16.4687 = 76.7556...
        #expect(isClose(result.lines[1].baseline, top + pitch + (pitch - inter.lineHeight()) + inter.ascender()))
        #expect(isClose(result.lines[1].baseline, 76.755_681_82))
        #expect(isClose(result.lines[1].baseline - result.lines[0].baseline, pitch))
        #expect(isClose(result.lineHeight, pitch))
        // 0 counts as 1, as UIKit reads it.
        let zero = try layout(TextSpec("nnn\nnnn", numberOfLines: 0, lineHeightMultiple: 0), 200, 100)
        #expect(isClose(zero.lines[1].baseline - zero.lines[0].baseline, inter.lineHeight()))
    }

    @Test("letterSpacing 2 adds 2 pt after every character: 'nnnn' is 4n + 8 wide")
    func letterSpacing() throws {
        let line = try #require(try layout(TextSpec("nnnn", letterSpacing: 2), 200, 40).lines.first)
        #expect(isClose(line.width, 4 * n + 4 * 2))  // 47.7954...
        #expect(isClose(line.glyphs[1].position.x - line.glyphs[0].position.x, n + 2))
    }

    @Test("word wrapping breaks 'nnn nnn nnn' after the second word in a 6n + s + 1 box")
    func wordWrapping() throws {
        let width = 6 * n + s + 1  // 65.4744...: two words and their space fit, the third word does not
        let result = try layout(TextSpec("nnn nnn nnn", numberOfLines: 0, lineBreakMode: .byWordWrapping), width, 200)
        #expect(result.lines.map(\.range) == [0 ..< 7, 8 ..< 11])
        #expect(isClose(result.lines[0].width, 6 * n + s))  // the space before the break hangs
        #expect(isClose(result.lines[1].width, 3 * n))
        #expect(!result.isTruncated)
    }

    @Test("a word wider than the line breaks by character; byCharWrapping breaks anywhere")
    func characterBreaks() throws {
        let long = try layout(TextSpec("nnnnnnnnnn", numberOfLines: 0, lineBreakMode: .byWordWrapping), 4 * n + 1, 200)
        #expect(long.lines.map(\.range) == [0 ..< 4, 4 ..< 8, 8 ..< 10])
        // n n n space n: 4n + s fits in 4n + s + 1, a fifth n does not.
        let width = 4 * n + s + 1
        let byChar = try layout(TextSpec("nnn nnn", numberOfLines: 0, lineBreakMode: .byCharWrapping), width, 200)
        #expect(byChar.lines.map(\.range) == [0 ..< 5, 5 ..< 7])
        let byWord = try layout(TextSpec("nnn nnn", numberOfLines: 0, lineBreakMode: .byWordWrapping), width, 200)
        #expect(byWord.lines.map(\.range) == [0 ..< 3, 4 ..< 7])
    }

    @Test("a newline always breaks")
    func mandatoryBreak() throws {
        let result = try layout(TextSpec("nn\nnnn\r\nn", numberOfLines: 0), 200, 200)
        #expect(result.lines.map(\.range) == [0 ..< 2, 3 ..< 6, 8 ..< 9])
    }

    @Test("numberOfLines caps the lines; 0 keeps as many as fit the height (at least one)")
    func lineCount() throws {
        let words = TextSpec("n n n n", numberOfLines: 3, lineBreakMode: .byWordWrapping)
        let capped = try layout(words, 1.5 * n, 500)
        #expect(capped.lines.count == 3 && capped.isTruncated)
        var unlimited = words
        unlimited.numberOfLines = 0
        // 2.5 L of height: two whole lines fit.
        let fitting = try layout(unlimited, 1.5 * n, 2.5 * inter.lineHeight())
        #expect(fitting.lines.count == 2 && fitting.isTruncated)
        #expect(try layout(unlimited, 1.5 * n, 500).lines.count == 4)
        #expect(try layout(unlimited, 1.5 * n, 5).lines.count == 1, "a box lower than a line still shows one")
    }

    @Test("justified: the space of every line but the last stretches to the box's width")
    func justified() throws {
        let width = 6 * n + s + 1
        let result = try layout(TextSpec("nnn nnn nnn", alignment: .justified, numberOfLines: 0), width, 200)
        try #require(result.lines.count == 2)
        // Line 1: one space takes the 1 pt left over, so the second word starts at 3n + s + 1.
        #expect(isClose(result.lines[0].width, width))
        #expect(isClose(result.lines[0].glyphs[4].position.x, 3 * n + s + 1))
        // The last line is set as natural (left).
        #expect(result.lines[1].x == 0 && isClose(result.lines[1].width, 3 * n))
    }

    @Test("the block of lines is centred vertically, overflowing a low box evenly")
    func verticalCentring() throws {
        let three = try layout(TextSpec("n\nn\nn", numberOfLines: 0), 100, 100)
        let top = (100 - 3 * inter.lineHeight()) / 2  // 19.1392...
        #expect(isClose(three.lines[0].baseline, top + inter.ascender()))
        let low = try layout(TextSpec("n"), 100, 10)
        #expect(isClose(low.lines[0].baseline, (10 - inter.lineHeight()) / 2 + inter.ascender()))
    }
}
