import Primitives
import SceneModel

/// UILabel's rules over shaped paragraphs: which lines show, how the last
/// one is cut, where each line and the block sit in the box.
///
/// Lines wrap by word (by character for `byCharWrapping`). Lines show up to
/// `numberOfLines` (0: no limit) and only as many as fit the box's height
/// (at least one); when text is left over, the last line shown is where the
/// mode acts: the wrapping modes leave it as wrapped, `byClipping` runs the
/// rest of its paragraph past the edge, and the truncating modes cut the rest
/// of its paragraph with an ellipsis (`Truncation`). The block of lines is
/// centred vertically, as UILabel centres its text rect.
struct LabelLayout {
    var spec: TextSpec
    var input: ShapingInput
    var primary: FontFace
    var missing: [Unicode.Scalar]
    /// U+2026 shaped for a line whose first cluster is in the given face.
    var ellipsis: (FontFace) -> Ellipsis

    func layout(in box: Size) -> TextLayoutResult {
        let width = box.width, height = box.height
        let metrics = primary.metrics
        let size = spec.font.size
        let natural = metrics.lineHeight(size: size)
        let lineHeight = natural * spec.lineHeightMultiple
        let fitting = lineHeight > 0 ? Int(min(max(height / lineHeight + 1e-9, 1), 1e9)) : 1
        let limit = min(spec.numberOfLines > 0 ? spec.numberOfLines : Int.max, fitting)
        let byCharacter = spec.lineBreakMode == .byCharWrapping

        // Shape and wrap paragraphs until one line more than can show is known.
        var paragraphs: [ShapedParagraph] = []
        var wrapped: [(paragraph: Int, span: LineSpan, endsParagraph: Bool)] = []
        for range in input.breaks.paragraphs where wrapped.count <= limit {
            let paragraph = input.shapeParagraph(range)
            let spans = wrapLines(paragraph.units, width: width, byCharacter: byCharacter)
            for (k, span) in spans.enumerated() {
                wrapped.append((paragraphs.count, span, k == spans.count - 1))
            }
            paragraphs.append(paragraph)
        }
        let overflow = wrapped.count > limit
        let shown = spec.string.isEmpty ? [] : Array(wrapped.prefix(limit))
        let top = (height - Double(shown.count) * lineHeight) / 2
        let baselineInLine = lineHeight - natural + metrics.ascender * size / metrics.unitsPerEm

        var lines: [TextLine] = []
        var cut = overflow
        for (i, line) in shown.enumerated() {
            let paragraph = paragraphs[line.paragraph]
            var content = LineContent(
                prefix: line.span.units.lowerBound ..< line.span.visibleEnd, ellipsis: nil,
                suffix: line.span.visibleEnd ..< line.span.visibleEnd,
                justify: spec.alignment == .justified && !line.endsParagraph
            )
            if overflow && i == shown.count - 1 {
                content = lastLine(paragraph, from: line.span.units.lowerBound, width: width,
                                   textFollows: line.paragraph < input.breaks.paragraphs.count - 1, wrapped: content)
            }
            let placed = paragraph.assemble(
                content, boxWidth: width, alignment: spec.alignment,
                baseline: top + Double(i) * lineHeight + baselineInLine, letterSpacing: spec.letterSpacing
            )
            if placed.width > width + 1e-6 { cut = true }
            lines.append(placed)
        }
        return TextLayoutResult(
            lines: lines, direction: paragraphs.first?.bidi.rightToLeft == true ? .rightToLeft : .leftToRight,
            missingCharacters: missing, lineHeight: lineHeight, size: box, isTruncated: cut
        )
    }

    /// The last line shown when text is left over, by `lineBreakMode`.
    private func lastLine(
        _ paragraph: ShapedParagraph, from start: Int, width: Double, textFollows: Bool, wrapped: LineContent
    ) -> LineContent {
        let rest = start ..< paragraph.units.count
        let side: TruncationSide
        switch spec.lineBreakMode {
        case .byWordWrapping, .byCharWrapping:
            return LineContent(prefix: wrapped.prefix, ellipsis: nil, suffix: wrapped.suffix, justify: false)
        case .byClipping:
            let all = span(paragraph.units, rest)
            return LineContent(prefix: start ..< all.visibleEnd, ellipsis: nil, suffix: all.visibleEnd ..< all.visibleEnd, justify: false)
        case .byTruncatingHead: side = .head
        case .byTruncatingMiddle: side = .middle
        case .byTruncatingTail: side = .tail
        }
        let face = rest.isEmpty ? primary : paragraph.runs[paragraph.units[start].run].face
        let mark = ellipsis(face)
        // Only a tail ellipsis can stand for the paragraphs after this one; head and middle mark a cut in this line.
        let cut = Truncation(paragraph.units, rest, width: width, ellipsisWidth: mark.width, side: side,
                             textFollows: textFollows && side == .tail)
        return LineContent(prefix: cut.prefix, ellipsis: cut.ellipsis ? mark : nil, suffix: cut.suffix, justify: false)
    }
}
