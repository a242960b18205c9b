import CHarfBuzz
public import Primitives
public import SceneModel
import Synchronization

/// Sets and draws labels. One typesetter is meant to serve a whole render:
/// it keeps every face it loaded, fontconfig's answers and glyph coverage, and
/// is safe to call from any thread (the same bytes whichever thread calls).
public final class Typesetter: Sendable {
    private typealias FamilyKey = Fontconfig.FallbackRequest

    private struct State {
        var faces: [ResolvedFont: FontFace] = [:]
        /// Fallback faces that would not load: skipped from then on.
        var unusable: Set<ResolvedFont> = []
        var families: [FamilyKey: ResolvedFont] = [:]
        var nextFaceID = 0
    }

    private let state = Mutex(State())
    let glyphCache = GlyphCache()

    public init() {}

    /// The font file a FontSpec resolves to (family+weight+italic through fontconfig, or a file relative to `directory`).
    public func resolve(_ font: FontSpec, directory: String?) throws(TextError) -> ResolvedFont {
        switch font.face {
        case .family(let family):
            let key = FamilyKey(family: family, weightClass: font.weight.weightClass, italic: font.italic)
            if let known = state.withLock({ $0.families[key] }) { return known }
            guard !family.isEmpty, !family.contains("\0") else {
                throw TextError(.familyNotFound, "no installed font family \"\(family)\"")
            }
            let found = try Fontconfig.match(family: family, weightClass: key.weightClass, italic: key.italic)
            state.withLock { $0.families[key] = found }
            return found
        case .file(let path):
            guard !path.isEmpty, !path.contains("\0") else { throw TextError(.fontFileMissing, "no font file at \"\(path)\"") }
            let full = path.hasPrefix("/") || directory == nil || directory == "" ? path : (directory ?? "") + "/" + path
            let font = ResolvedFont(path: full, faceIndex: 0)
            _ = try face(for: font)  // a missing or malformed file is refused here, not at the first draw
            return font
        }
    }

    /// Lays out `text` in a box of `size` points as UILabel does.
    public func layout(_ text: TextSpec, in size: Size, directory: String?) throws(TextError) -> TextLayoutResult {
        let box = try Typesetter.box(size)
        return try prepare(text, directory: directory).layout(in: box)
    }

    /// Draws it: a premultiplied RGBA8 `Bitmap` of ceil(size * scale) pixels, transparent where no text is.
    public func render(_ text: TextSpec, in size: Size, scale: Double, directory: String?) throws(TextError) -> RenderedText {
        let box = try Typesetter.box(size)
        guard scale.isFinite, scale > 0 else { throw TextError(.invalidSize, "scale \(scale) is not a positive number") }
        let (w, h) = ((box.width * scale).rounded(.up), (box.height * scale).rounded(.up))
        let side = Double(TextLimits.maxBitmapSide)
        guard w <= side, h <= side, w * h <= Double(TextLimits.maxBitmapPixels) else {
            throw TextError(.invalidSize, "a \(w) x \(h) px text bitmap is over the limit (\(TextLimits.maxBitmapSide) px a side, "
                + "\(TextLimits.maxBitmapPixels) px in all)")
        }
        let pixelsPerEm = text.font.size * scale
        guard !(pixelsPerEm > TextLimits.maxPixelsPerEm) else {
            throw TextError(.invalidSize, "\(text.font.size) pt at scale \(scale) is \(pixelsPerEm) px per em, "
                + "over the \(Int(TextLimits.maxPixelsPerEm)) px glyphs may be")
        }
        let layout = try prepare(text, directory: directory).layout(in: box)
        var bitmap = Bitmap(width: Int(w), height: Int(h))
        draw(layout, into: &bitmap, scale: scale, pixelsPerEm: pixelsPerEm, color: PremultipliedColor(text.color))
        return RenderedText(bitmap: bitmap, layout: layout)
    }

    /// Empties the glyph cache (faces stay loaded): for measuring what the cache saves.
    package func removeGlyphCoverage() { glyphCache.removeAll() }

    /// Glyph-cache lookups answered from the cache, and rasterizations.
    package var glyphCacheStatistics: (hits: Int, misses: Int) { glyphCache.statistics }

    // MARK: - Setting

    private static func box(_ size: Size) throws(TextError) -> Size {
        guard size.width.isFinite, size.height.isFinite else {
            throw TextError(.invalidSize, "the text's box \(size.width) x \(size.height) is not finite")
        }
        return Size(width: max(size.width, 0), height: max(size.height, 0))
    }

    /// Checks `text`, finds its faces and shapes what it needs: everything `LabelLayout` works on.
    private func prepare(_ text: TextSpec, directory: String?) throws(TextError) -> LabelLayout {
        guard text.string.utf8.count <= TextLimits.maxStringLength else {
            let count = text.string.utf8.count
            throw TextError(.stringTooLong, "the string is \(count) UTF-8 bytes, over the limit of \(TextLimits.maxStringLength)")
        }
        let size = text.font.size
        guard size.isFinite, size > 0, size <= TextLimits.maxFontSize else {
            throw TextError(.invalidFontSize, "font size \(size) is not in 0 < size <= \(Int(TextLimits.maxFontSize)) pt")
        }
        let primary = try face(for: resolve(text.font, directory: directory))
        // A file's characters it lacks come in the contract family's fallback order (a file's own family name is
        // rarely installed, and would make one fontconfig request per name a file may claim).
        var family = FontSpec.defaultFamily
        if case .family(let name) = text.font.face { family = name }
        let key = FamilyKey(family: family, weightClass: text.font.weight.weightClass, italic: text.font.italic)
        let fallback = { (scalar: UInt32) -> FontFace? in self.fallbackFace(for: scalar, key) }
        let assignment = FaceAssignment(text.string, primary: primary, fallback: fallback)

        var spec = text
        spec.lineHeightMultiple = text.lineHeightMultiple.isFinite && text.lineHeightMultiple > 0 ? min(text.lineHeightMultiple, 1000) : 1
        spec.letterSpacing = text.letterSpacing.isFinite ? min(max(text.letterSpacing, -1000), 1000) : 0
        spec.numberOfLines = max(text.numberOfLines, 0)
        let input = ShapingInput(text.string, faces: assignment.faces, size: size, letterSpacing: spec.letterSpacing)
        return LabelLayout(spec: spec, input: input, primary: primary, missing: assignment.missing) { face in
            var chosen = face
            if chosen.glyphIndex(0x2026) == 0 { chosen = primary.glyphIndex(0x2026) != 0 ? primary : fallback(0x2026) ?? primary }
            let glyphs = chosen.shape([0x2026], 0 ..< 1, rightToLeft: false, script: HB_SCRIPT_COMMON, size: size)
            return Ellipsis(glyphs: glyphs, face: chosen, width: glyphs.reduce(spec.letterSpacing) { $0 + $1.advance })
        }
    }

    // MARK: - Faces

    /// The loaded face for `font`, loading it the first time.
    func face(for font: ResolvedFont) throws(TextError) -> FontFace {
        if let known = state.withLock({ $0.faces[font] }) { return known }
        let id = state.withLock { state in
            state.nextFaceID += 1
            return state.nextFaceID
        }
        let loaded = try FontFace(font, id: id)
        return state.withLock { state in
            if let raced = state.faces[font] { return raced }
            state.faces[font] = loaded
            return loaded
        }
    }

    /// The first face in fontconfig's fallback order for `key` that loads and has a glyph for `scalar`.
    private func fallbackFace(for scalar: UInt32, _ key: FamilyKey) -> FontFace? {
        guard let list = try? Fontconfig.fallbacks(for: key) else { return nil }
        for font in list.faces(for: scalar) where !state.withLock({ $0.unusable.contains(font) }) {
            guard let face = try? face(for: font) else {
                state.withLock { _ = $0.unusable.insert(font) }
                continue
            }
            if face.glyphIndex(scalar) != 0 { return face }
        }
        return nil
    }

    // MARK: - Drawing

    private func draw(
        _ layout: TextLayoutResult, into bitmap: inout Bitmap, scale: Double, pixelsPerEm: Double, color: PremultipliedColor
    ) {
        let size = Int((pixelsPerEm * 64).rounded())
        // Glyphs whose pen is this far outside the bitmap cannot reach into it (a generous 4 em).
        let reach = 4 * pixelsPerEm + 2
        let (width, height) = (Double(bitmap.width), Double(bitmap.height))
        for line in layout.lines {
            for glyph in line.glyphs {
                let (x, y) = (glyph.position.x * scale, glyph.position.y * scale)
                guard x > -reach, x < width + reach, y > -reach, y < height + reach,
                      let face = try? face(for: glyph.font)
                else { continue }
                // Quarter-pixel pen positions horizontally, whole pixels vertically.
                let quarters = Int((x * 4).rounded())
                let key = GlyphCache.Key(face: face.id, glyph: glyph.glyph, size: size, subpixel: quarters & 3)
                let coverage = glyphCache.coverage(key) { face.rasterize(glyph.glyph, pixelsPerEm: size, subpixel: quarters & 3) }
                bitmap.drawCoverage(coverage, x: quarters >> 2, y: Int(y.rounded()), color: color)
            }
        }
    }
}
