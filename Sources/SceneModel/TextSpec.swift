public import Primitives

/// What a UILabel says: the string and how it is set (`text` in a scene).
/// Drawn into the view's content above its background and image, below its
/// subviews; laid out as UILabel lays out (`docs/text.md`).
///
/// Defaults are UILabel's where it has one (one line, truncating the tail,
/// natural alignment, black) and the contract's otherwise (Inter 17 pt).
public struct TextSpec: Sendable, Hashable {
    public var string: String
    public var font: FontSpec
    /// Straight alpha, sRGB.
    public var color: RGBAColor
    public var alignment: TextAlignment
    /// 0: as many lines as fit the bounds.
    public var numberOfLines: Int
    public var lineBreakMode: LineBreakMode
    /// NSParagraphStyle's `lineHeightMultiple`: the font's natural line height times this (0 counts as 1).
    public var lineHeightMultiple: Double
    /// Extra advance after every character, in points (NSAttributedString's `kern`).
    public var letterSpacing: Double

    public init(
        _ string: String, font: FontSpec = FontSpec(), color: RGBAColor = .black,
        alignment: TextAlignment = .natural, numberOfLines: Int = 1, lineBreakMode: LineBreakMode = .byTruncatingTail,
        lineHeightMultiple: Double = 1, letterSpacing: Double = 0
    ) {
        self.string = string
        self.font = font
        self.color = color
        self.alignment = alignment
        self.numberOfLines = numberOfLines
        self.lineBreakMode = lineBreakMode
        self.lineHeightMultiple = lineHeightMultiple
        self.letterSpacing = letterSpacing
    }
}

/// NSTextAlignment. `natural` is left for a left-to-right paragraph and right for a right-to-left one.
public enum TextAlignment: String, Sendable, CaseIterable {
    case natural, left, center, right, justified
}

/// NSLineBreakMode: how lines wrap, and where a text too long for its lines is cut.
public enum LineBreakMode: String, Sendable, CaseIterable {
    case byWordWrapping, byCharWrapping, byClipping, byTruncatingHead, byTruncatingMiddle, byTruncatingTail
}

/// A font as UIFont names one: a family's face by weight and slant, or a font file.
public struct FontSpec: Sendable, Hashable {
    /// Where the face comes from.
    public enum Face: Sendable, Hashable {
        /// A family found through fontconfig (`"Inter"`), its face chosen by `weight` and `italic`.
        case family(String)
        /// A font file (TrueType, OpenType, a collection's first face); a
        /// relative path is resolved against `Scene.directory`.
        case file(String)
    }

    /// The contract's family: Debian's `fonts-inter`, the free face closest to SF Pro.
    public static let defaultFamily = "Inter"

    public var face: Face
    /// Points (UIFont's `pointSize`).
    public var size: Double
    public var weight: FontWeight
    public var italic: Bool
    /// The text style this font was made from, so a scene writes back the name it read.
    public var textStyle: TextStyle?

    public init(
        family: String = FontSpec.defaultFamily, size: Double = 17, weight: FontWeight = .regular, italic: Bool = false
    ) {
        self.face = .family(family)
        self.size = size
        self.weight = weight
        self.italic = italic
        self.textStyle = nil
    }

    /// A font file at `size` points.
    public init(file: String, size: Double = 17) {
        self.face = .file(file)
        self.size = size
        self.weight = .regular
        self.italic = false
        self.textStyle = nil
    }

    /// The default family at the text style's size and weight in iOS's default (Large) content size.
    public init(textStyle: TextStyle) {
        self.init(size: textStyle.pointSize, weight: textStyle.weight)
        self.textStyle = textStyle
    }
}

/// UIFont.Weight, by name.
public enum FontWeight: String, Sendable, CaseIterable {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

    /// The OpenType weight class (`usWeightClass`) fontconfig and font files use: 100 for ultraLight ... 900 for black.
    public var weightClass: Int {
        switch self {
        case .ultraLight: return 100
        case .thin: return 200
        case .light: return 300
        case .regular: return 400
        case .medium: return 500
        case .semibold: return 600
        case .bold: return 700
        case .heavy: return 800
        case .black: return 900
        }
    }
}

/// UIFont.TextStyle at iOS's default content size (Large), per Apple's Human Interface Guidelines.
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

    public var pointSize: Double {
        switch self {
        case .largeTitle: return 34
        case .title1: return 28
        case .title2: return 22
        case .title3: return 20
        case .headline, .body: return 17
        case .callout: return 16
        case .subheadline: return 15
        case .footnote: return 13
        case .caption1: return 12
        case .caption2: return 11
        }
    }

    /// Only `headline` is semibold in iOS's default styles; the others are regular.
    public var weight: FontWeight { self == .headline ? .semibold : .regular }
}
