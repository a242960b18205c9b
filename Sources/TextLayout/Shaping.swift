import CHarfBuzz

/// A glyph HarfBuzz placed, in points, in logical order within its run.
struct ShapedGlyph: Sendable, Hashable {
    var glyph: UInt32
    /// The scalar offset (in the label's string) of the first character of its cluster.
    var cluster: Int
    var advance: Double
    /// HarfBuzz's offset from the pen, in points; `yOffset` up, as fonts measure.
    var xOffset: Double
    var yOffset: Double
}

extension FontFace {
    /// Shapes `range` of `text` (the label's scalars; the rest is context) as one run of this face,
    /// one script and one direction, at `size` points. Kerning, ligatures and the script's required
    /// features are HarfBuzz's defaults. The glyphs come back in logical order (HarfBuzz gives a
    /// right-to-left run in visual order; this reverses it).
    func shape(_ text: [UInt32], _ range: Range<Int>, rightToLeft: Bool, script: hb_script_t, size: Double) -> [ShapedGlyph] {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= text.count,
              let buffer = hb_buffer_create()
        else { return [] }
        defer { hb_buffer_destroy(buffer) }
        // One pixel per font unit, in 26.6: HarfBuzz's numbers are font units times 64.
        let pointsPerPosition = size / (metrics.unitsPerEm * 64)
        var glyphs: [ShapedGlyph] = []
        locked {
            text.withUnsafeBufferPointer { scalars in
                hb_buffer_add_utf32(buffer, scalars.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
            }
            hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, script)
            // No language: HarfBuzz would otherwise take the process locale's, and shape differently per machine.
            hb_shape(hbFont, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { return }
            glyphs.reserveCapacity(Int(count))
            for i in 0 ..< Int(count) {
                glyphs.append(ShapedGlyph(
                    glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                    advance: Double(positions[i].x_advance) * pointsPerPosition,
                    xOffset: Double(positions[i].x_offset) * pointsPerPosition,
                    yOffset: Double(positions[i].y_offset) * pointsPerPosition
                ))
            }
        }
        if rightToLeft { glyphs.reverse() }
        return glyphs
    }
}

/// Unicode script of every scalar, as HarfBuzz's shapers want it: Common and
/// Inherited characters (spaces, digits, punctuation, combining marks) take
/// the script of the text before them, or after them at the start.
func resolvedScripts(_ text: [UInt32]) -> [hb_script_t] {
    let funcs = hb_unicode_funcs_get_default()
    var scripts = text.map { hb_unicode_script(funcs, $0) }
    func isNeutral(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
    }
    var last: hb_script_t?
    for i in scripts.indices {
        if isNeutral(scripts[i]) {
            if let last { scripts[i] = last }
        } else {
            last = scripts[i]
        }
    }
    if let first = scripts.first(where: { !isNeutral($0) }) {
        for i in scripts.indices {
            guard isNeutral(scripts[i]) else { break }
            scripts[i] = first
        }
    }
    return scripts
}
