public import Primitives

/// Which way a paragraph runs.
public enum TextDirection: String, Sendable, Hashable {
    case leftToRight, rightToLeft
}

/// A glyph where it is drawn: `position` is its pen position on the
/// baseline (HarfBuzz's offsets applied), in points from the box's top-left.
public struct PositionedGlyph: Sendable, Hashable {
    public var glyph: UInt32
    public var font: ResolvedFont
    public var position: Point
    /// The pen advance after it, in points (letter spacing and justification included).
    public var advance: Double
    /// The scalar offset in `TextSpec.string.unicodeScalars` of the cluster it draws; nil for an ellipsis.
    public var cluster: Int?
}

/// One line of a laid-out label.
public struct TextLine: Sendable, Hashable {
    /// Left to right, as drawn.
    public var glyphs: [PositionedGlyph]
    /// The left edge of the line's drawn part, in points from the box's left.
    public var x: Double
    /// The baseline, in points from the box's top.
    public var baseline: Double
    /// The drawn width (trailing white space hangs and is not counted), ellipsis included.
    public var width: Double
    /// The scalars it shows, offsets in `TextSpec.string.unicodeScalars`, in logical order; a truncated
    /// line shows a part of this range (`truncated`).
    public var range: Range<Int>
    /// Its paragraph's direction.
    public var direction: TextDirection
    /// Whether text was cut from this line and an ellipsis stands for it.
    public var truncated: Bool
}

/// A label laid out in its box: lines top to bottom, in points.
public struct TextLayoutResult: Sendable, Hashable {
    public var lines: [TextLine]
    /// The first paragraph's direction (from its first strong character; left to right when none).
    public var direction: TextDirection
    /// Characters no installed font has, in order of first appearance (drawn as the font's .notdef).
    public var missingCharacters: [Unicode.Scalar]
    /// The primary font's line height times `lineHeightMultiple`: the pitch of the lines.
    public var lineHeight: Double
    /// The box the text was set in.
    public var size: Size
    /// Whether some text is not shown (lines dropped, or cut by truncation or clipping).
    public var isTruncated: Bool
}

/// A label drawn: `bitmap` is premultiplied RGBA8, ceil(size * scale) pixels, transparent where no text is.
public struct RenderedText: Sendable {
    public var bitmap: Bitmap
    public var layout: TextLayoutResult
}
