/// A colour in sRGB with straight (not premultiplied) alpha, components in 0...1.
/// Colours interpolate component-wise in sRGB, as UIKit animates them.
public struct RGBAColor: Hashable, Sendable, Codable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
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
}
