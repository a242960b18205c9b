/// Why an encoder or joiner could not write its output, as one line naming
/// the path: `cannot write 'out/intro.mp4': H.264 yuv420p needs even width
/// and height; ...` (`cannot read '...'` for a file that could not be read).
public struct EncoderError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The path names no output this module writes.
        case unsupportedOutput
        /// Size, frame rate, CRF or preset cannot be used.
        case invalidSettings
        /// The target's directory is missing or not writable, or the target is in the way.
        case targetNotWritable
        /// The target (a file, or a file a PNG sequence would write) is already
        /// there, and overwriting was not allowed.
        case targetNotEmpty
        /// A frame whose size differs from the settings.
        case frameMismatch
        /// FFmpeg, libpng or the file system failed while writing.
        case writeFailed
        /// The encoder was used after it finished or failed.
        case misuse
        /// `cancel()` stopped the encoder or joiner: nothing was written and the
        /// target is as it was.
        case cancelled
        /// The parts given to `VideoChunkJoiner` do not make one video as they
        /// are: a gap, an overlap, other settings, a part without a label.
        /// The reason names the parts involved.
        case cannotJoin
        /// A file to read is missing or is not a video FFmpeg reads; `path` names it.
        case unreadable
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

    public var description: String { "cannot \(kind == .unreadable ? "read" : "write") '\(path)': \(reason)" }

    /// The error for any call during or after `cancel()`.
    static func cancelled(path: String) -> EncoderError {
        EncoderError(.cancelled, path: path, reason: "cancelled; nothing was written and the target is as it was")
    }

    /// The error for a frame offered after the encoder stopped taking them.
    static func noMoreFrames(path: String, earlierFailure: String?) -> EncoderError {
        let state = earlierFailure.map { "it failed earlier (\($0))" } ?? "it was finished"
        return EncoderError(.misuse, path: path, reason: "the encoder takes no more frames: \(state)")
    }
}
