import CHarfBuzz

/// A run HarfBuzz shaped: one face, one script, one bidi level.
struct ShapedRun {
    var range: Range<Int>
    var face: FontFace
    var level: UInt8
    /// In logical order.
    var glyphs: [ShapedGlyph]
}

/// A cluster: the smallest piece a line can hold (a grapheme, or a ligature
/// of several), with its advance and whether a line may break before it.
struct TextUnit {
    var range: Range<Int>
    /// Points, letter spacing included.
    var advance: Double
    var isWhitespace: Bool
    var breakBefore: Bool
    var run: Int
    /// Its glyphs in `runs[run].glyphs`.
    var glyphs: Range<Int>
}

/// A paragraph shaped once, in logical order: its runs and its units.
struct ShapedParagraph {
    var range: Range<Int>
    var bidi: BidiParagraph
    var runs: [ShapedRun]
    var units: [TextUnit]
}

/// What shaping a paragraph needs of the whole text.
struct ShapingInput {
    /// The label's scalars, with tabs and other controls as spaces (HarfBuzz would draw them as .notdef).
    var text: [UInt32]
    var faces: [FontFace]
    var scripts: [hb_script_t]
    var breaks: LineBreakOpportunities
    var whitespace: [Bool]
    var size: Double
    var letterSpacing: Double

    init(_ string: String, faces: [FontFace], size: Double, letterSpacing: Double) {
        let scalars = Array(string.unicodeScalars)
        self.text = scalars.map { $0.properties.generalCategory == .control && !isParagraphSeparator($0.value) ? 0x20 : $0.value }
        self.faces = faces
        self.scripts = resolvedScripts(text)
        self.breaks = LineBreakOpportunities(scalars.map(\.value))
        self.whitespace = scalars.map { $0.properties.isWhitespace }
        self.size = size
        self.letterSpacing = letterSpacing
    }

    /// Splits `range` into runs of one face, script and level, shapes each and cuts the glyphs into units.
    func shapeParagraph(_ range: Range<Int>) -> ShapedParagraph {
        let bidi = BidiParagraph(text[range])
        var runs: [ShapedRun] = []
        var start = range.lowerBound
        for i in range where i + 1 == range.upperBound || startsRun(i + 1, after: i, bidi: bidi, paragraph: range) {
            let level = bidi.levels[start - range.lowerBound]
            let glyphs = faces[start].shape(text, start ..< i + 1, rightToLeft: level % 2 == 1, script: scripts[start], size: size)
            runs.append(ShapedRun(range: start ..< i + 1, face: faces[start], level: level, glyphs: glyphs))
            start = i + 1
        }
        return ShapedParagraph(range: range, bidi: bidi, runs: runs, units: units(of: runs, paragraph: range))
    }

    private func startsRun(_ i: Int, after j: Int, bidi: BidiParagraph, paragraph: Range<Int>) -> Bool {
        faces[i] !== faces[j] || scripts[i] != scripts[j]
            || bidi.levels[i - paragraph.lowerBound] != bidi.levels[j - paragraph.lowerBound]
    }

    private func units(of runs: [ShapedRun], paragraph: Range<Int>) -> [TextUnit] {
        var units: [TextUnit] = []
        for (r, run) in runs.enumerated() {
            var g = 0
            while g < run.glyphs.count {
                var end = g + 1
                while end < run.glyphs.count, run.glyphs[end].cluster == run.glyphs[g].cluster { end += 1 }
                let first = max(run.glyphs[g].cluster, run.range.lowerBound)
                let last = end < run.glyphs.count ? run.glyphs[end].cluster : run.range.upperBound
                guard first < last else {  // a cluster out of order (never at HarfBuzz's default cluster level)
                    if let previous = units.last, previous.run == r { units[units.count - 1].glyphs = previous.glyphs.lowerBound ..< end }
                    g = end
                    continue
                }
                let advance = run.glyphs[g ..< end].reduce(0) { $0 + $1.advance } + letterSpacing
                units.append(TextUnit(
                    range: first ..< last, advance: advance, isWhitespace: whitespace[first ..< last].allSatisfy { $0 },
                    breakBefore: first > paragraph.lowerBound && breaks.allowed[first - 1], run: r, glyphs: g ..< end
                ))
                g = end
            }
        }
        return units
    }
}
