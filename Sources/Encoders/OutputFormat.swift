#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of output this module writes, and which one a path asks for.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// H.264 video in MP4: a path ending in `.mp4`.
    case mp4
    /// One PNG per frame: a path ending in `/`, or naming an existing directory.
    case pngSequence

    /// The supported outputs, for messages and help text.
    public static let supportedDescription =
        "a path ending in .mp4 (H.264 video), or a directory (a path ending in '/', "
        + "or an existing directory) for a PNG sequence"

    /// The format `path` asks for. Throws `.unsupportedOutput` listing the
    /// supported outputs when it asks for none of them.
    public static func detect(path: String) throws -> OutputFormat {
        if path.hasSuffix("/") { return .pngSequence }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return .pngSequence }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex,
           name[name.index(after: dot)...].lowercased() == "mp4" {
            return .mp4
        }
        throw EncoderError(.unsupportedOutput, path: path,
                           reason: "unsupported output; use \(supportedDescription)")
    }

    /// A new encoder for this format writing to `path`.
    public func encoder(path: String, settings: VideoSettings) throws -> any FrameEncoder {
        switch self {
        case .mp4: return try MP4Encoder(path: path, settings: settings)
        case .pngSequence: return try PNGSequenceEncoder(directory: path, settings: settings)
        }
    }

    /// The encoder the path asks for: `.mp4` -> `MP4Encoder`, a directory ->
    /// `PNGSequenceEncoder`, anything else throws a message listing the
    /// supported outputs.
    public static func encoder(forOutputPath path: String, settings: VideoSettings) throws -> any FrameEncoder {
        try detect(path: path).encoder(path: path, settings: settings)
    }
}
