/// Where a truncated line is cut, as NSLineBreakMode names it.
enum TruncationSide {
    case head, middle, tail
}

/// What of a line's units stays when it is truncated: `prefix`, then the
/// ellipsis (when `ellipsis`), then `suffix`; unit indices of the paragraph.
struct Truncation: Hashable {
    var prefix: Range<Int>
    var suffix: Range<Int>
    var ellipsis: Bool

    /// Truncates `range` of `units` to `width` points, given the ellipsis's advance. Nothing is cut
    /// when the drawn part fits and no text follows (`textFollows` false). Otherwise whole clusters
    /// are trimmed until the kept text plus U+2026 fits: from the end (tail), from the start (head),
    /// or from the middle (middle: the part before the ellipsis takes clusters while it fits in half
    /// the room, the part after fills what is left). White space next to the ellipsis is dropped.
    init(_ units: [TextUnit], _ range: Range<Int>, width: Double, ellipsisWidth: Double, side: TruncationSide, textFollows: Bool) {
        var visibleEnd = range.upperBound
        while visibleEnd > range.lowerBound, units[visibleEnd - 1].isWhitespace { visibleEnd -= 1 }
        // sums[k]: the advance of units range.lowerBound ..< range.lowerBound + k.
        var sums = [0.0]
        for unit in units[range.lowerBound ..< visibleEnd] { sums.append(sums[sums.count - 1] + unit.advance) }
        let start = range.lowerBound
        func widthOf(_ r: Range<Int>) -> Double { sums[r.upperBound - start] - sums[r.lowerBound - start] }
        let limit = width + 1e-6
        if !textFollows, widthOf(start ..< visibleEnd) <= limit {
            self.init(prefix: start ..< visibleEnd, suffix: visibleEnd ..< visibleEnd, ellipsis: false)
            return
        }
        let room = limit - ellipsisWidth
        switch side {
        case .tail:
            var end = visibleEnd
            while end > start, widthOf(start ..< end) > room { end -= 1 }
            self.init(prefix: withoutTrailingSpace(units, start ..< end), suffix: visibleEnd ..< visibleEnd, ellipsis: true)
        case .head:
            var first = start
            while first < visibleEnd, widthOf(first ..< visibleEnd) > room { first += 1 }
            self.init(prefix: start ..< start, suffix: withoutLeadingSpace(units, first ..< visibleEnd), ellipsis: true)
        case .middle:
            var end = start
            while end < visibleEnd, widthOf(start ..< end + 1) <= room / 2 { end += 1 }
            var first = visibleEnd
            while first > end, widthOf(start ..< end) + widthOf(first - 1 ..< visibleEnd) <= room { first -= 1 }
            let kept = (withoutTrailingSpace(units, start ..< end), withoutLeadingSpace(units, first ..< visibleEnd))
            self.init(prefix: kept.0, suffix: kept.1, ellipsis: true)
        }
    }

    init(prefix: Range<Int>, suffix: Range<Int>, ellipsis: Bool) {
        self.prefix = prefix
        self.suffix = suffix
        self.ellipsis = ellipsis
    }
}

/// `range` without the white space at its end (before an ellipsis).
private func withoutTrailingSpace(_ units: [TextUnit], _ range: Range<Int>) -> Range<Int> {
    var upper = range.upperBound
    while upper > range.lowerBound, units[upper - 1].isWhitespace { upper -= 1 }
    return range.lowerBound ..< upper
}

/// `range` without the white space at its start (after an ellipsis).
private func withoutLeadingSpace(_ units: [TextUnit], _ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    while lower < range.upperBound, units[lower].isWhitespace { lower += 1 }
    return lower ..< range.upperBound
}
