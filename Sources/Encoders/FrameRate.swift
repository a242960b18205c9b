/// A frame rate as an exact rational, the form containers store: 30 fps is
/// 30/1, NTSC 29.97 is 30000/1001. Each frame lasts `denominator/numerator`
/// seconds, and that is the video's time base, so frame i is at pts i.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// The highest rate accepted, well above any display's.
    public static let maximumFramesPerSecond = 1000.0

    /// nil unless both parts are positive and the rate is at most 1000 fps.
    /// The fraction is stored reduced.
    public init?(numerator: Int, denominator: Int) {
        guard numerator > 0, denominator > 0,
            Double(numerator) / Double(denominator) <= Self.maximumFramesPerSecond,
            numerator <= Int(Int32.max), denominator <= Int(Int32.max)
        else { return nil }
        let divisor = Self.gcd(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// The rational for a rate given in frames per second: whole numbers
    /// exactly (30 -> 30/1), the NTSC family as n*1000/1001 (29.97 -> 30000/1001,
    /// 23.976 -> 24000/1001, 59.94 -> 60000/1001), anything else as the closest
    /// fraction with a denominator up to 1000 (12.5 -> 25/2). nil when the rate
    /// is not a positive finite number up to 1000.
    public init?(framesPerSecond fps: Double) {
        guard fps.isFinite, fps > 0, fps <= Self.maximumFramesPerSecond else { return nil }
        let whole = fps.rounded()
        if whole >= 1, abs(fps - whole) < 1e-6 {
            self.init(numerator: Int(whole), denominator: 1)
            return
        }
        let ntsc = (fps * 1.001).rounded()
        if ntsc >= 1, abs(fps * 1.001 - ntsc) < 1e-3 {
            self.init(numerator: Int(ntsc) * 1000, denominator: 1001)
            return
        }
        let (n, d) = Self.closestFraction(to: fps, maximumDenominator: 1000)
        self.init(numerator: n, denominator: d)
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// "30/1", "30000/1001": how ffprobe prints a rate.
    public var description: String { "\(numerator)/\(denominator)" }

    /// Seconds from the start of the video to the end of frame `count - 1`.
    public func duration(ofFrames count: Int) -> Double {
        Double(count) * Double(denominator) / Double(numerator)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// Best rational approximation by continued fractions (last convergent or
    /// semiconvergent with denominator within the bound).
    private static func closestFraction(to x: Double, maximumDenominator: Int) -> (Int, Int) {
        var (h0, h1, k0, k1) = (0, 1, 1, 0)  // previous and current convergents h/k
        var value = x
        for _ in 0 ..< 64 {
            let a = Int(value.rounded(.down))
            let k2 = a * k1 + k0
            if k2 > maximumDenominator {
                // Largest semiconvergent that still fits, if it is closer.
                let t = (maximumDenominator - k0) / k1
                let (hs, ks) = (t * h1 + h0, t * k1 + k0)
                if t > 0, abs(Double(hs) / Double(ks) - x) < abs(Double(h1) / Double(k1) - x) {
                    return (hs, ks)
                }
                break
            }
            (h0, h1) = (h1, a * h1 + h0)
            (k0, k1) = (k1, k2)
            let fraction = value - Double(a)
            if fraction < 1e-12 || abs(Double(h1) / Double(k1) - x) < 1e-12 { break }
            value = 1 / fraction
        }
        return (max(h1, 1), max(k1, 1))
    }
}
