/// Why text cannot be set or drawn. `message` says what went wrong without
/// the scene place; the caller prefixes it (`to.subviews[3].text.font`).
public struct TextError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// fontconfig has no family of that name (it would have substituted another).
        case familyNotFound
        /// The font file does not exist or is not a regular file.
        case fontFileMissing
        /// The font file exists but cannot be read, or is over `TextLimits.maxFontFileBytes`.
        case fontFileUnreadable
        /// FreeType cannot open the file as a scalable font.
        case fontFileMalformed
        /// The font size is not a finite number in 0 < size <= `TextLimits.maxFontSize`.
        case invalidFontSize
        /// The string is over `TextLimits.maxStringLength` UTF-8 bytes.
        case stringTooLong
        /// The box size or scale is not finite, or the bitmap would pass `TextLimits`.
        case invalidSize
        /// FreeType, HarfBuzz or fontconfig failed to start (out of memory, no configuration).
        case libraryFailure
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
