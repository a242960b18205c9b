import CFreeType

/// A glyph's coverage at one pixel size and subpixel offset: 8-bit alpha,
/// `width` x `height`, its top-left `left` pixels right of the pen and `top`
/// pixels above the baseline (FreeType's bitmap_left and bitmap_top).
struct GlyphCoverage: Sendable {
    var width: Int
    var height: Int
    var left: Int
    var top: Int
    var alpha: [UInt8]

    static let empty = GlyphCoverage(width: 0, height: 0, left: 0, top: 0, alpha: [])
}

/// The most pixels one glyph's coverage may have (a malformed font can make an outline far larger than its em).
let maxGlyphPixels = 1 << 24

extension FontFace {
    /// Rasterizes `glyph` unhinted at `pixelsPerEm` (26.6), its origin moved right by `subpixel`
    /// quarters of a pixel, with FreeType's anti-aliasing renderer (FT_RENDER_MODE_NORMAL).
    /// A glyph FreeType cannot load or render, or one too large, is empty.
    func rasterize(_ glyph: UInt32, pixelsPerEm: Int, subpixel: Int) -> GlyphCoverage {
        locked {
            if rasterSize != pixelsPerEm {
                guard FT_Set_Char_Size(rasterFace, 0, FT_F26Dot6(pixelsPerEm), 72, 72) == 0 else { return .empty }
                rasterSize = pixelsPerEm
            }
            var delta = FT_Vector(x: FT_Pos(subpixel * 16), y: 0)
            FT_Set_Transform(rasterFace, nil, &delta)
            guard FT_Load_Glyph(rasterFace, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                  let slot = rasterFace.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
            else { return .empty }
            var box = FT_BBox()
            FT_Outline_Get_CBox(&slot.pointee.outline, &box)
            let (w, h) = ((box.xMax - box.xMin) / 64 + 2, (box.yMax - box.yMin) / 64 + 2)
            guard w > 0, h > 0, w <= maxGlyphPixels / h, FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return .empty }
            return coverage(of: slot.pointee)
        }
    }

    private func coverage(of slot: FT_GlyphSlotRec) -> GlyphCoverage {
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer else { return .empty }
        let gray = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue)
        guard gray || bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue) else { return .empty }
        var alpha = [UInt8](repeating: 0, count: width * height)
        // A negative pitch means the rows are stored bottom row first (FreeType's "up" flow).
        for y in 0 ..< height {
            let row = buffer + (pitch >= 0 ? y * pitch : (height - 1 - y) * -pitch)
            for x in 0 ..< width {
                alpha[y * width + x] = gray ? row[x] : (row[x / 8] & (0x80 >> UInt8(x % 8)) != 0 ? 255 : 0)
            }
        }
        return GlyphCoverage(width: width, height: height, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), alpha: alpha)
    }
}
