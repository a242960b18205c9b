import Primitives
import SceneModel

/// U+2026 shaped in a line's face, ready to stand where text was cut.
struct Ellipsis {
    var glyphs: [ShapedGlyph]
    var face: FontFace
    /// Points, letter spacing included.
    var width: Double
}

/// What a line shows, in logical order: units `prefix` of its paragraph, the ellipsis if any, units `suffix`.
struct LineContent {
    var prefix: Range<Int>
    var ellipsis: Ellipsis?
    var suffix: Range<Int>
    /// Whether white space is stretched to fill the box (justified, and not the paragraph's last line).
    var justify: Bool
}

/// Glyphs of one face and one bidi level, in logical order, advances final.
private struct Segment {
    var level: UInt8
    var face: FontFace
    var glyphs: [ShapedGlyph]
    var isEllipsis: Bool
}

extension ShapedParagraph {
    /// Places a line's glyphs: letter spacing after every cluster, justification in its white space,
    /// runs in visual order (UAX #9 L2), the line aligned in `boxWidth` with its baseline at `baseline`.
    func assemble(
        _ content: LineContent, boxWidth: Double, alignment: TextAlignment, baseline: Double, letterSpacing: Double
    ) -> TextLine {
        var natural = 0.0, spaces = 0
        for unit in units[content.prefix] + units[content.suffix] {
            natural += unit.advance
            if unit.isWhitespace { spaces += 1 }
        }
        natural += content.ellipsis?.width ?? 0
        let extra = content.justify && spaces > 0 && natural < boxWidth ? (boxWidth - natural) / Double(spaces) : 0
        var segments: [Segment] = []
        appendSegments(content.prefix, to: &segments, letterSpacing: letterSpacing, extraPerSpace: extra)
        if let ellipsis = content.ellipsis {
            var glyphs = ellipsis.glyphs
            if !glyphs.isEmpty { glyphs[glyphs.count - 1].advance += letterSpacing }
            segments.append(Segment(level: bidi.baseLevel, face: ellipsis.face, glyphs: glyphs, isEllipsis: true))
        }
        appendSegments(content.suffix, to: &segments, letterSpacing: letterSpacing, extraPerSpace: extra)

        let width = natural + extra * Double(spaces)
        let x = lineX(width: width, boxWidth: boxWidth, alignment: content.justify ? .natural : alignment)
        var pen = x
        var glyphs: [PositionedGlyph] = []
        for index in visualOrder(levels: segments.map(\.level)) {
            let segment = segments[index]
            let font = segment.face.font
            let ordered = segment.level % 2 == 1 ? Array(segment.glyphs.reversed()) : segment.glyphs
            for glyph in ordered {
                glyphs.append(PositionedGlyph(
                    glyph: glyph.glyph, font: font, position: Point(x: pen + glyph.xOffset, y: baseline - glyph.yOffset),
                    advance: glyph.advance, cluster: segment.isEllipsis ? nil : glyph.cluster
                ))
                pen += glyph.advance
            }
        }
        let shown = [content.prefix, content.suffix].filter { !$0.isEmpty }
        let range: Range<Int>
        if let first = shown.first, let last = shown.last {
            range = units[first.lowerBound].range.lowerBound ..< units[last.upperBound - 1].range.upperBound
        } else {
            range = self.range.lowerBound ..< self.range.lowerBound
        }
        return TextLine(
            glyphs: glyphs, x: x, baseline: baseline, width: width, range: range,
            direction: bidi.rightToLeft ? .rightToLeft : .leftToRight, truncated: content.ellipsis != nil
        )
    }

    /// The left edge of a line `width` wide. A line wider than the box starts at its paragraph's
    /// start edge (and runs out of the far one), whatever the alignment.
    private func lineX(width: Double, boxWidth: Double, alignment: TextAlignment) -> Double {
        if width > boxWidth { return bidi.rightToLeft ? boxWidth - width : 0 }
        switch alignment {
        case .left: return 0
        case .right: return boxWidth - width
        case .center: return (boxWidth - width) / 2
        case .natural, .justified: return bidi.rightToLeft ? boxWidth - width : 0
        }
    }

    /// The glyphs of `unitRange`, one segment per run, each cluster's last glyph carrying the letter
    /// spacing (and a white-space cluster's the justification).
    private func appendSegments(_ unitRange: Range<Int>, to segments: inout [Segment], letterSpacing: Double, extraPerSpace: Double) {
        var currentRun: Int?
        var glyphs: [ShapedGlyph] = []
        func flush() {
            guard let run = currentRun else { return }
            segments.append(Segment(level: runs[run].level, face: runs[run].face, glyphs: glyphs, isEllipsis: false))
            glyphs = []
        }
        for unit in units[unitRange] {
            if currentRun != unit.run {
                flush()
                currentRun = unit.run
            }
            glyphs.append(contentsOf: runs[unit.run].glyphs[unit.glyphs])
            if !unit.glyphs.isEmpty {
                glyphs[glyphs.count - 1].advance += letterSpacing + (unit.isWhitespace ? extraPerSpace : 0)
            }
        }
        flush()
    }
}
