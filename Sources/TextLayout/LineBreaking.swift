import CUnibreak

/// libunibreak wants `init_linebreak` once before any use; Swift runs a global's initializer exactly once.
private let unibreakReady: Bool = {
    init_linebreak()
    return true
}()

/// What a scalar is handed to libunibreak 1.1 as. Two kinds abort it (its own `assert`s; Debian builds it with them):
/// - U+FFFF is its end-of-text marker (`EOS` in linebreakdef.h): its UTF-32 reader returns scalars as they are, so a
///   U+FFFF inside the text ends the loop early and fails `assert(posLast == posCur - 1 && posCur <= len)`;
/// - regional indicators (U+1F1E6...U+1F1FF, the letters of flag emoji) have the class RI, which its pair table
///   does not cover: `assert(lbcNew <= LBP_JT)`.
/// Both go in as U+FFFE, a noncharacter of class XX, which libunibreak resolves to AL (alphabetic): what UAX #14
/// does for U+FFFF, and for flags it keeps each pair (and a run of flags) on one line, as LB30a wants, at the cost
/// of the break RI would allow between a flag and a letter touching it.
func unibreakInput(_ scalar: UInt32) -> UInt32 {
    switch scalar {
    case 0xFFFF, 0x1F1E6 ... 0x1F1FF: return 0xFFFE
    default: return scalar
    }
}

/// UAX #14 line-break opportunities, by libunibreak: `allowed[i]` is true
/// when a line may break after scalar `i` (and before `i + 1`).
/// `paragraphs` splits the text at its mandatory breaks (LF, CR, CR LF, VT,
/// FF, NEL, U+2028, U+2029), the break characters themselves left out; an
/// empty text is one empty paragraph. Any scalar is safe (`unibreakInput`).
struct LineBreakOpportunities: Sendable {
    var allowed: [Bool]
    var paragraphs: [Range<Int>]

    init(_ text: [UInt32]) {
        var statuses = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: text.count)
        if unibreakReady, !text.isEmpty {
            let safe = text.map(unibreakInput)
            safe.withUnsafeBufferPointer { s in set_linebreaks_utf32(s.baseAddress, s.count, nil, &statuses) }
        }
        allowed = statuses.map { $0 == CChar(LINEBREAK_ALLOWBREAK) || $0 == CChar(LINEBREAK_MUSTBREAK) }
        var paragraphs: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < text.count {
            if isParagraphSeparator(text[i]) {
                paragraphs.append(start ..< i)
                if text[i] == 0x0D, i + 1 < text.count, text[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        // After a final separator this is the empty last line UILabel shows too.
        paragraphs.append(start ..< text.count)
        self.paragraphs = paragraphs
    }
}

func isParagraphSeparator(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
}

/// A line as the breaker cut it: units `units` of its paragraph, of which
/// `units.lowerBound ..< visibleEnd` are drawn (trailing white space hangs
/// past the edge and counts for nothing), `width` points wide.
struct LineSpan: Sendable, Hashable {
    var units: Range<Int>
    var visibleEnd: Int
    var width: Double
}

/// Greedy line breaking over a paragraph's units (clusters) in logical
/// order, to `width` points: a line takes units while the drawn part fits,
/// then breaks at the last opportunity on it (`byCharacter`: before the
/// unit that overflows). A word wider than the line breaks before the unit
/// that overflows, as UILabel breaks a word it cannot fit. A line always
/// takes at least one unit, so a zero width still makes progress.
func wrapLines(_ units: [TextUnit], width: Double, byCharacter: Bool) -> [LineSpan] {
    guard !units.isEmpty else { return [LineSpan(units: 0 ..< 0, visibleEnd: 0, width: 0)] }
    let limit = width + 1e-6
    var lines: [LineSpan] = []
    var start = 0
    while start < units.count {
        var pen = 0.0
        var lastBreak: Int?
        var end = units.count
        var i = start
        while i < units.count {
            let unit = units[i]
            if i > start, unit.breakBefore { lastBreak = i }
            if !unit.isWhitespace, i > start, pen + unit.advance > limit {
                end = !byCharacter ? (lastBreak ?? i) : i
                break
            }
            pen += unit.advance
            i += 1
        }
        lines.append(span(units, start ..< end))
        start = end
    }
    return lines
}

/// The span of `range` with its trailing white space hung.
func span(_ units: [TextUnit], _ range: Range<Int>) -> LineSpan {
    var visibleEnd = range.upperBound
    while visibleEnd > range.lowerBound, units[visibleEnd - 1].isWhitespace { visibleEnd -= 1 }
    let width = units[range.lowerBound ..< visibleEnd].reduce(0) { $0 + $1.advance }
    return LineSpan(units: range, visibleEnd: visibleEnd, width: width)
}
