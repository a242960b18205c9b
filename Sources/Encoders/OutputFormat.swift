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
                throw EncoderError(.unsupportedOutput, path: path, reason: Self.patternAdvice(path))
            default: break
            }
        }
        throw EncoderError(
            .unsupportedOutput, path: path,
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

    /// What to write instead of a `.png` path that names no sequence: a valid
    /// pattern built from it (any `%` conversions in the name taken out, so the
    /// suggestion itself is one), and why a `%` the user wrote did not count.
    static func patternAdvice(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = String(path[(slash.map { path.index(after: $0) } ?? path.startIndex)...].dropLast(4))
        var stem = ""
        var index = name.startIndex
        var conversions: [String] = []
        while index < name.endIndex {
            guard name[index] == "%" else {
                stem.append(name[index])
                index = name.index(after: index)
                continue
            }
            var end = name.index(after: index)
            while end < name.endIndex, "-+ #0123456789.".contains(name[end]) { end = name.index(after: end) }
            if end < name.endIndex, name[end].isLetter { end = name.index(after: end) }
            conversions.append(String(name[index ..< end]))
            index = end
        }
        if !stem.isEmpty, !stem.hasSuffix("_"), !stem.hasSuffix("-") { stem += "_" }
        var advice =
            "a PNG output names a sequence: use a pattern with the frame number, such as "
            + "'\(folder)\(stem)%04d.png', or a directory ending in '/'"
        if conversions.count > 1 {
            advice += " (a pattern holds one frame number, not \(conversions.count))"
        } else if let written = conversions.first {
            advice += " ('\(written)' is not a frame number: write %d, or %0Nd for N digits padded with zeros)"
        } else {
            // Most often one picture was meant.
            advice += "; for one still image, add --at SECONDS, --frame N or --progress P"
        }
        return advice
    }
}
