import Primitives

/// Parses `#RGB`, `#RRGGBB` and `#RRGGBBAA` (sRGB, straight alpha).
enum ColorParser {
    static func parseHex(_ text: String) -> RGBAColor? {
        guard text.hasPrefix("#") else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        func value(_ s: [Character]) -> Double { Double(Int(String(s), radix: 16)!) }
        switch digits.count {
        case 3:
            let c = digits.map { value([$0, $0]) / 255 }
            return RGBAColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
        case 6, 8:
            let c = stride(from: 0, to: digits.count, by: 2).map { value(Array(digits[$0..<$0 + 2])) / 255 }
            return RGBAColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }
}
