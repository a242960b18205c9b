/// Where the frames of a PNG sequence go and what they are called.
///
/// Two forms, picked by the output path:
/// - a directory (`frames/`): `frame_00000.png`, `frame_00001.png`...,
///   numbers zero-padded to five digits: enough for the 100 000 frames the
///   tool renders at most, so they sort in frame order, and every chunk of
///   one clip (`--frames 0-499`, `--frames 500-999`) names its frames alike;
/// - a pattern (`out/f_%04d.png`): printf's `%d` or `%0Nd` in the file name,
///   as FFmpeg's image2 reads and writes them (`ffmpeg -i out/f_%04d.png`).
///
/// Frames are numbered from 0.
public struct PNGFrameNaming: Sendable, Hashable {
    /// The directory the frames go in, without a trailing slash ("." for the
    /// current one).
    public let directory: String
    /// The file name before the number and after it.
    public let prefix: String
    public let suffix: String
    /// Numbers are zero-padded to at least this many digits.
    public let minimumDigits: Int
    /// True for a pattern; false for a directory of `frame_*.png`.
    public let isPattern: Bool

    /// A directory's naming: `frame_00000.png`...
    public static func directory(_ path: String) -> PNGFrameNaming {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return PNGFrameNaming(
            directory: trimmed, prefix: "frame_", suffix: ".png", minimumDigits: 5,
            isPattern: false)
    }

    /// The naming a pattern path asks for, or nil when `path` is not one: its
    /// last component ends in `.png` (any case) and holds exactly one `%d` or
    /// `%0Nd` (N 1...9), and no other `%`; the directory part holds none.
    public static func pattern(_ path: String) -> PNGFrameNaming? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !directory.contains("%"), name.lowercased().hasSuffix(".png"),
            let percent = name.firstIndex(of: "%")
        else { return nil }
        let prefix = String(name[..<percent])
        var rest = name[name.index(after: percent)...]
        var digits = 1
        if rest.first == "0" {
            rest = rest.dropFirst()
            guard let width = rest.first?.wholeNumberValue, width >= 1 else { return nil }
            digits = width
            rest = rest.dropFirst()
        }
        guard rest.first == "d" else { return nil }
        let suffix = String(rest.dropFirst())
        guard !suffix.contains("%") else { return nil }
        return PNGFrameNaming(
            directory: directory, prefix: prefix, suffix: suffix, minimumDigits: digits,
            isPattern: true)
    }

    /// The file name of frame `index`: its number zero-padded to
    /// `minimumDigits`, as printf's `%0Nd` (a larger number takes more digits).
    public func name(_ index: Int) -> String {
        let number = String(index)
        return prefix + String(repeating: "0", count: max(0, minimumDigits - number.count)) + number + suffix
    }

    /// True for the names this naming produces (a directory's `frame_` and at
    /// least five digits, a pattern's prefix, digits and suffix).
    public func isMember(_ name: String) -> Bool {
        guard name.count > prefix.count + suffix.count, name.hasPrefix(prefix), name.hasSuffix(suffix) else {
            return false
        }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        return digits.count >= minimumDigits && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    /// The path of frame `index` under `base` (the directory, or where its
    /// files are written until they are moved into place).
    func path(_ index: Int, in base: String) -> String {
        base + "/" + name(index)
    }

    /// The file-name part of a pattern, as messages quote it
    /// (`f_%04d.png`; a directory's is `frame_*.png`).
    public var patternText: String {
        isPattern ? prefix + (minimumDigits > 1 ? "%0\(minimumDigits)d" : "%d") + suffix : "frame_*.png"
    }
}
