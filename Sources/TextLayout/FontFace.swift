import CFreeType
import CHarfBuzz
import Glibc
import Synchronization

/// One font file's face, loaded once per `Typesetter` and shared by every
/// label that uses it.
///
/// It owns a FreeType library of its own (FreeType objects may be used by one
/// thread at a time, per library) and two FT_Faces on the same bytes: the
/// shaping face, fixed at one pixel per font unit so HarfBuzz (through hb-ft)
/// returns the font's own unhinted numbers, and the raster face, set to each
/// pixel size drawn. Every use of them is under `lock`.
final class FontFace: @unchecked Sendable {
    let font: ResolvedFont
    /// A small number unique within the typesetter, for glyph-cache keys.
    let id: Int
    let metrics: FaceMetrics

    private let lock = Mutex(())
    private let bytes: UnsafeMutableRawBufferPointer
    private let library: FT_Library
    let shapingFace: FT_Face
    let rasterFace: FT_Face
    /// hb-ft's font over `shapingFace` (it holds a reference to the face).
    let hbFont: OpaquePointer
    /// The raster face's current size in 26.6 pixels per em (0: not set yet); under `lock`.
    nonisolated(unsafe) var rasterSize = 0

    /// Loads `font`: a missing file, an unreadable one or one FreeType cannot use as a scalable face is a `TextError`.
    init(_ font: ResolvedFont, id: Int) throws(TextError) {
        self.font = font
        self.id = id
        let bytes = try FontFace.read(font.path)
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            bytes.deallocate()
            throw TextError(.libraryFailure, "FreeType could not start")
        }
        func open() -> FT_Face? {
            var face: FT_Face?
            let base = bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self)
            guard FT_New_Memory_Face(library, base, FT_Long(bytes.count), FT_Long(font.faceIndex), &face) == 0 else { return nil }
            return face
        }
        guard let shaping = open(), let raster = open() else {
            FT_Done_FreeType(library)
            bytes.deallocate()
            throw TextError(.fontFileMalformed, "\(font.path) is not a font FreeType can read")
        }
        let record = shaping.pointee
        let unitsPerEm = Int(record.units_per_EM)
        guard record.face_flags & FT_FACE_FLAG_SCALABLE != 0, (16 ... 16384).contains(unitsPerEm),
              FT_Set_Char_Size(shaping, 0, FT_F26Dot6(unitsPerEm * 64), 72, 72) == 0,
              let hbFont = hb_ft_font_create_referenced(shaping)
        else {
            FT_Done_FreeType(library)  // closes both faces
            bytes.deallocate()
            throw TextError(.fontFileMalformed, "\(font.path) has no scalable outlines FreeType can use")
        }
        hb_ft_font_set_load_flags(hbFont, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP))
        self.bytes = bytes
        self.library = library
        self.shapingFace = shaping
        self.rasterFace = raster
        self.hbFont = hbFont
        self.metrics = FaceMetrics(shaping)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(shapingFace)
        FT_Done_Face(rasterFace)
        FT_Done_FreeType(library)
        bytes.deallocate()
    }

    /// Runs `body` with the FreeType and HarfBuzz objects to itself.
    func locked<R>(_ body: () -> R) -> R { lock.withLock { _ in body() } }

    /// The face's glyph for `scalar`, 0 when it has none.
    func glyphIndex(_ scalar: UInt32) -> UInt32 {
        locked { UInt32(FT_Get_Char_Index(shapingFace, FT_ULong(scalar))) }
    }

    /// The file's bytes in memory of our own (FreeType reads from them for the face's life).
    private static func read(_ path: String) throws(TextError) -> UnsafeMutableRawBufferPointer {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw TextError(.fontFileMissing, "no font file at \(path)")
        }
        guard info.st_size <= TextLimits.maxFontFileBytes else {
            throw TextError(.fontFileUnreadable, "\(path) is \(info.st_size) bytes, over the \(TextLimits.maxFontFileBytes) a font may be")
        }
        guard let file = fopen(path, "rb") else { throw TextError(.fontFileUnreadable, "cannot read \(path)") }
        defer { fclose(file) }
        let count = Int(info.st_size)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        guard fread(bytes.baseAddress, 1, count, file) == count else {
            bytes.deallocate()
            throw TextError(.fontFileUnreadable, "cannot read \(path)")
        }
        return UnsafeMutableRawBufferPointer(rebasing: bytes[0 ..< max(count, 1)])
    }
}

/// The vertical metrics UIFont reports, in font units: hhea's ascender,
/// descender and line gap (CoreText's source), else FreeType's.
struct FaceMetrics: Sendable, Hashable {
    var unitsPerEm: Double
    /// Above the baseline, positive.
    var ascender: Double
    /// Below the baseline, positive (the font's descender is negative; this is its magnitude).
    var descender: Double
    var lineGap: Double

    init(unitsPerEm: Double, ascender: Double, descender: Double, lineGap: Double) {
        self.unitsPerEm = unitsPerEm
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
    }

    init(_ face: FT_Face) {
        let record = face.pointee
        var ascender = Double(record.ascender), descender = -Double(record.descender)
        var gap = Double(record.height) - ascender - descender
        if let raw = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA) {
            let hhea = raw.assumingMemoryBound(to: TT_HoriHeader.self).pointee
            if hhea.Ascender != 0 || hhea.Descender != 0 {
                ascender = Double(hhea.Ascender)
                descender = -Double(hhea.Descender)
                gap = Double(hhea.Line_Gap)
            }
        }
        let em = Double(record.units_per_EM)
        // A font whose numbers make no line (zero or negative height, absurd gaps) gets 1.2 em, CoreText's fallback.
        if !(ascender + descender > 0) || ascender + descender > 16 * em {
            ascender = 0.95 * em
            descender = 0.25 * em
        }
        self.init(unitsPerEm: em, ascender: ascender, descender: descender, lineGap: min(max(gap, 0), 4 * em))
    }

    /// UIFont.lineHeight at `size` points: ascender + descender + line gap.
    func lineHeight(size: Double) -> Double { (ascender + descender + lineGap) * size / unitsPerEm }
}
