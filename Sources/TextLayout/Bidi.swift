import CFriBidi

/// A paragraph's Unicode bidi analysis (UAX #9, by FriBidi): its direction
/// from its first strong character (left-to-right when it has none, as a
/// label in a left-to-right locale), and each character's embedding level.
struct BidiParagraph: Sendable {
    var rightToLeft: Bool
    /// One level per scalar of the paragraph; odd levels run right to left.
    var levels: [UInt8]

    init(_ text: ArraySlice<UInt32>) {
        let scalars = Array(text)
        let count = scalars.count
        guard count > 0, count <= Int(Int32.max) else {
            self.init(rightToLeft: false, levels: [UInt8](repeating: 0, count: count))
            return
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = FRIBIDI_PAR_ON
        let length = FriBidiStrIndex(count)
        let maximum = scalars.withUnsafeBufferPointer { s in
            fribidi_get_bidi_types(s.baseAddress, length, &types)
            fribidi_get_bracket_types(s.baseAddress, length, types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, &levels)
        }
        let rightToLeft = direction == FRIBIDI_PAR_RTL
        guard maximum > 0 else {  // FriBidi failed (out of memory): everything at the paragraph's level
            self.init(rightToLeft: rightToLeft, levels: [UInt8](repeating: rightToLeft ? 1 : 0, count: count))
            return
        }
        self.init(rightToLeft: rightToLeft, levels: levels.map { UInt8(clamping: Int($0)) })
    }

    init(rightToLeft: Bool, levels: [UInt8]) {
        self.rightToLeft = rightToLeft
        self.levels = levels
    }

    var baseLevel: UInt8 { rightToLeft ? 1 : 0 }
}

/// UAX #9 rule L2 over a line's runs: from the highest level down to the
/// lowest odd one, reverse every maximal sequence of runs at that level or
/// above. Returns the runs' indices left to right.
func visualOrder(levels: [UInt8]) -> [Int] {
    var order = Array(levels.indices)
    guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
    var level = highest
    while level >= lowestOdd {
        var i = 0
        while i < order.count {
            guard levels[order[i]] >= level else {
                i += 1
                continue
            }
            var end = i
            while end < order.count, levels[order[end]] >= level { end += 1 }
            order[i ..< end].reverse()
            i = end
        }
        if level == 0 { break }
        level -= 1
    }
    return order
}
