import Primitives

/// Parses `#RGB`, `#RRGGBB` and `#RRGGBBAA` (sRGB, straight alpha).
enum ColorParser {
    static func parseHex(_ text: String) -> RGBAColor? {
        guard text.hasPrefix("#") else { return nil }
        // ASCII digits only: Character.isHexDigit also accepts the fullwidth
        // forms (U+FF10...), which Int(_:radix:) then refuses.
        let digits = text.utf8.dropFirst().map { hexValue($0) }
        guard !digits.contains(nil) else { return nil }
        let d = digits.map { Double($0!) }
        switch d.count {
        case 3:
            let c = d.map { $0 * 17 / 255 }
            return RGBAColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
        case 6, 8:
            let c = stride(from: 0, to: d.count, by: 2).map { (d[$0] * 16 + d[$0 + 1]) / 255 }
            return RGBAColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
