#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of output this module writes, and which one a path asks for.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// H.264 in MP4 (`VideoFileEncoder`): a path ending in `.mp4`.
    case mp4
    /// ProRes 4444 in QuickTime, alpha kept (`VideoFileEncoder`): `.mov`.
    case mov
    /// VP9 in WebM, alpha kept (`VideoFileEncoder`): `.webm`.
    case webm
    /// A looping animated GIF (`GIFEncoder`): `.gif`.
    case gif
    /// One PNG per frame (`PNGSequenceEncoder`): a path ending in `/`, an
    /// existing directory, or a pattern like `out/f_%04d.png`.
    case pngSequence

    /// The supported outputs, for messages and help text.
    public static let supportedDescription =
        "a path ending in .mp4 (H.264), .mov (ProRes 4444), .webm (VP9) or .gif, "
        + "a directory (a path ending in '/', or an existing directory) for a PNG sequence, "
        + "or a PNG pattern such as out/f_%04d.png"

    /// The format `path` asks for. Throws `.unsupportedOutput` listing the
    /// supported outputs when it asks for none of them.
    public static func detect(path: String) throws -> OutputFormat {
        if path.hasSuffix("/") { return .pngSequence }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return .pngSequence }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let ext = name[name.index(after: dot)...].lowercased()
            switch ext {
            case "mp4": return .mp4
            case "mov": return .mov
            case "webm": return .webm
            case "gif": return .gif
            case "png":
                if PNGFrameNaming.pattern(path) != nil { return .pngSequence }
                throw EncoderError(.unsupportedOutput, path: path, reason:
                    "a PNG output names a sequence: use a pattern with the frame number, such as "
                    + "'\(path.dropLast(4))_%04d.png', or a directory ending in '/'")
            default: break
            }
        }
        throw EncoderError(.unsupportedOutput, path: path,
                           reason: "unsupported output; use \(supportedDescription)")
    }

    /// A new encoder for this format writing to `path`.
    public func encoder(path: String, settings: VideoSettings) throws -> any FrameEncoder {
        switch self {
        case .mp4, .mov, .webm: return try VideoFileEncoder(path: path, format: self, settings: settings)
        case .gif: return try GIFEncoder(path: path, settings: settings)
        case .pngSequence: return try PNGSequenceEncoder(directory: path, settings: settings)
        }
    }

    /// The encoder the path asks for (see `detect`); anything else throws a
    /// message listing the supported outputs.
    public static func encoder(forOutputPath path: String, settings: VideoSettings) throws -> any FrameEncoder {
        try detect(path: path).encoder(path: path, settings: settings)
    }
}
