/// Names of temporary outputs: `.` + stem + `.partial-` + token, where the
/// stem is the target's name and the token random base-36.
///
/// The stem is a pure function of the target's name, so a later run finds a
/// dead writer's leftovers by name alone. A name too long to fit NAME_MAX with
/// the decoration becomes a prefix cut on a UTF-8 boundary plus a hash of the
/// whole name: still deterministic, still distinct per target.
enum TemporaryName {
    static let marker = ".partial-"
    /// Tokens written are this long; tokens of 1...13 characters are
    /// recognised, as earlier versions wrote `UInt64.random` in base 36.
    static let tokenLength = 10
    private static let longestToken = 13
    /// The stem of the temporary folder a file set writes inside an existing folder.
    static let insideFolderStem = "new-files"

    /// The stem for temporaries of the target named `name`.
    static func stem(for name: String) -> String {
        let decoration = 1 + marker.utf8.count + tokenLength
        let room = FileProblem.nameMax - decoration
        let bytes = Array(name.utf8)
        guard bytes.count > room else { return name }
        let hash = "~" + hexadecimal(fnv1a(bytes))
        var cut = room - hash.utf8.count
        // Back off to the first byte of a UTF-8 sequence (continuation bytes are 10xxxxxx).
        while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return String(decoding: bytes[..<cut], as: UTF8.self) + hash
    }

    /// A fresh temporary name for `stem`.
    static func make(stem: String) -> String {
        let space: UInt64 = 3_656_158_440_062_976  // 36^10
        let token = String(UInt64.random(in: 0 ..< space), radix: 36)
        return "." + stem + marker + String(repeating: "0", count: tokenLength - token.count) + token
    }

    /// True for names `make(stem:)` gives (and earlier versions gave) for `stem`.
    static func matches(_ name: String, stem: String) -> Bool {
        let head = "." + stem + marker
        // Bytes, not Characters: file names are compared as the kernel does.
        guard name.utf8.count > head.utf8.count, name.utf8.starts(with: head.utf8) else { return false }
        let token = name.utf8.dropFirst(head.utf8.count)
        return token.count <= longestToken && token.allSatisfy { (48 ... 57).contains($0) || (97 ... 122).contains($0) }
    }

    /// 64-bit FNV-1a: tiny, stable across runs and platforms (Swift's
    /// `Hasher` is seeded per process, so it cannot name files).
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
