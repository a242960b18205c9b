/// A colour in sRGB with straight (not premultiplied) alpha, components in 0...1.
/// Colours interpolate component-wise in sRGB, as UIKit animates them.
public struct RGBAColor: Hashable, Sendable, Codable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0, alpha: 1)
    public static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    public func interpolated(to other: RGBAColor, _ t: Double) -> RGBAColor {
        RGBAColor(
            red: lerp(red, other.red, t), green: lerp(green, other.green, t),
            blue: lerp(blue, other.blue, t), alpha: lerp(alpha, other.alpha, t)
        )
    }

    /// `#RRGGBBAA` in upper case, the form a scene file writes.
    public var hexString: String {
        func byte(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (sRGB, straight alpha); nil for anything else.
    public init?(hex text: String) {
        guard text.hasPrefix("#") else { return nil }
        // ASCII digits only: Character.isHexDigit also accepts the fullwidth
        // forms (U+FF10...), which Int(_:radix:) then refuses.
        var digits: [Double] = []
        for byte in text.utf8.dropFirst() {
            guard let value = Self.hexValue(byte) else { return nil }
            digits.append(Double(value))
        }
        switch digits.count {
        case 3:
            let c = digits.map { $0 * 17 / 255 }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: 1)
        case 6, 8:
            let c = stride(from: 0, to: digits.count, by: 2).map { (digits[$0] * 16 + digits[$0 + 1]) / 255 }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// True when every component is a whole number of 255ths, so `hexString` keeps it exactly.
    public var isExactInHex: Bool {
        func exact(_ v: Double) -> Bool {
            guard v >= 0, v <= 1 else { return false }
            return (v * 255).rounded() / 255 == v
        }
        return exact(red) && exact(green) && exact(blue) && exact(alpha)
    }
}
