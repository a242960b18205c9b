/// Why an encoder could not write its output, as one line naming the path:
/// `cannot write 'out/intro.mp4': H.264 yuv420p needs even width and height; ...`.
public struct EncoderError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The path names no output this module writes.
        case unsupportedOutput
        /// Size, frame rate, CRF or preset cannot be used.
        case invalidSettings
        /// The target's directory is missing or not writable, or the target is in the way.
        case targetNotWritable
        /// A PNG directory that already holds files.
        case targetNotEmpty
        /// A frame whose size differs from the settings.
        case frameMismatch
        /// FFmpeg, libpng or the file system failed while writing.
        case writeFailed
        /// The encoder was used after it finished, failed or was cancelled.
        case misuse
    }

    public let kind: Kind
    /// The output path as the caller gave it.
    public let path: String
    public let reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write '\(path)': \(reason)" }

    /// The error for a frame offered after the encoder stopped taking them.
    static func noMoreFrames(path: String, earlierFailure: String?) -> EncoderError {
        let state = earlierFailure.map { "it failed earlier (\($0))" } ?? "it was finished or cancelled"
        return EncoderError(.misuse, path: path, reason: "the encoder takes no more frames: \(state)")
    }
}
