import Foundation

/// How shiftrender writes JSON for people and tools: `info --json`,
/// `info --memory --json` and the studio's answers. Pretty-printed, keys
/// sorted so two reports diff cleanly, one final newline; written in one place
/// so that the studio's `/info.json` is byte for byte what `info --json` prints.
public enum ReportJSON {
    public static func data(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    public static func text(_ value: some Encodable) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }
}
