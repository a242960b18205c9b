import SceneModel
/// TextLayout: sets a `TextSpec` as UILabel would and draws it (`docs/text.md`).
///
/// The job, in order: resolve the font (fontconfig for a family, FreeType for
/// a file), give each character a face (the primary one, else fontconfig's
/// fallback for that character), find the paragraph direction and embedding
/// levels (FriBidi), shape runs of one face, script and level (HarfBuzz
/// through hb-ft), break lines at UAX #14 opportunities (libunibreak), keep
/// the lines UILabel keeps and truncate the last one, align and centre the
/// block; then rasterize glyph coverage (FreeType) and composite it.
///
/// Invariants:
/// - layout is in points and independent of the output scale: HarfBuzz shapes
///   at one pixel per font unit, unhinted, so advances are the font's own
///   numbers times `size / unitsPerEm`; only drawing looks at the scale;
/// - every C object (FT_Face, hb_font_t) is touched only under its face's
///   lock, and fontconfig only under one process-wide lock, so a `Typesetter`
///   is safe from any thread and the pixels do not depend on which one;
/// - nothing from user data traps: sizes, strings and font files out of range
///   are a `TextError` (or clamped where UIKit clamps), never a crash.
///
/// Non-obvious choices, each relative to the obvious alternative:
/// - lines are shaped once per paragraph and sliced at line ends, rather than
///   re-shaped per line: the same advances whether a word ends a line or not
///   (the only loss is a ligature or Arabic join across a line break);
/// - glyph pen positions are quantised to a quarter pixel horizontally and a
///   whole pixel vertically when drawn, so coverage caches well (four
///   bitmaps per glyph and size) while spacing stays even;
/// - the glyph cache is dropped whole when it passes its budget instead of
///   evicting the least recently used: simpler, and pixels never depend on
///   what was cached.
public enum TextLimits {
    /// The longest string a label may hold, in UTF-8 bytes: the scene's rule, so the validator and
    /// the typesetter refuse the same strings.
    public static let maxStringLength = SceneLimits.maximumTextBytes
    /// The largest font size, in points: the scene's rule (a label's text over 1000 pt is not a label).
    public static let maxFontSize = SceneLimits.maximumFontSize
    /// The largest pixels-per-em a glyph is rasterized at (`size * scale`): 1000 pt at @4x, rounded up.
    public static let maxPixelsPerEm = 4096.0
    /// The largest bitmap side `render` makes, in pixels.
    public static let maxBitmapSide = 16_384
    /// The most pixels `render` puts in one bitmap (256 MiB of RGBA).
    public static let maxBitmapPixels = 1 << 26
    /// The largest font file read, in bytes.
    public static let maxFontFileBytes = 128 << 20
}
