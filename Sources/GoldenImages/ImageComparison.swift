public import Primitives

/// The outcome of comparing an image with its golden.
public struct ImageComparison: Sendable, Equatable {
    public var sizesMatch: Bool
    /// Pixels with any channel over the tolerance.
    public var differingPixels: Int
    /// The largest channel difference found (0...255).
    public var maxDifference: Int
    public var tolerance: GoldenTolerance

    public var matches: Bool { sizesMatch && differingPixels == 0 }

    /// Compares premultiplied RGBA8 bytes channel by channel.
    public init(actual: Bitmap, expected: Bitmap, tolerance: GoldenTolerance = .standard) {
        self.tolerance = tolerance
        sizesMatch = actual.width == expected.width && actual.height == expected.height
        guard sizesMatch else {
            differingPixels = max(actual.width * actual.height, expected.width * expected.height)
            maxDifference = 255
            return
        }
        var differing = 0
        var largest = 0
        let limit = tolerance.maxChannelDifference
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                var i = 0
                while i < a.count {
                    var pixelWorst = 0
                    for c in 0 ..< 4 { pixelWorst = max(pixelWorst, abs(Int(a[i + c]) - Int(e[i + c]))) }
                    if pixelWorst > limit { differing += 1 }
                    largest = max(largest, pixelWorst)
                    i += 4
                }
            }
        }
        differingPixels = differing
        maxDifference = largest
    }

    /// A one-line account for messages.
    public func summary(actualSize: (Int, Int), expectedSize: (Int, Int)) -> String {
        if !sizesMatch {
            return "size \(actualSize.0)x\(actualSize.1) differs from the golden's \(expectedSize.0)x\(expectedSize.1)"
        }
        if matches { return "matches (largest channel difference \(maxDifference), tolerance \(tolerance.maxChannelDifference))" }
        let pixels = "\(differingPixels) pixel\(differingPixels == 1 ? "" : "s")"
        return "\(pixels) differ by more than \(tolerance.maxChannelDifference) (largest \(maxDifference))"
    }
}

extension ImageComparison {
    /// An image of where they differ: the golden dimmed to grey, with every
    /// difference painted red, magnified (x 8) so that one level of error shows.
    public static func diffImage(actual: Bitmap, expected: Bitmap) -> Bitmap {
        let width = max(actual.width, expected.width)
        let height = max(actual.height, expected.height)
        var out = Bitmap(width: width, height: height, fill: (0, 0, 0, 255))
        for y in 0 ..< height {
            for x in 0 ..< width {
                let inA = x < actual.width && y < actual.height
                let inE = x < expected.width && y < expected.height
                guard inA && inE else {
                    out.setPixel(x: x, y: y, (255, 0, 255, 255))
                    continue
                }
                let a = actual.pixel(x: x, y: y)
                let e = expected.pixel(x: x, y: y)
                let d = channelDifference(a, e)
                let luma: Int = Int(e.r) * 54 + Int(e.g) * 183 + Int(e.b) * 19
                let grey = UInt8(luma / 768)
                if d == 0 {
                    out.setPixel(x: x, y: y, (grey, grey, grey, 255))
                } else {
                    let red = UInt8(min(255, 64 + d * 8))
                    out.setPixel(x: x, y: y, (red, grey / 2, grey / 2, 255))
                }
            }
        }
        return out
    }

    private static func channelDifference(
        _ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8),
        _ e: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
    ) -> Int {
        let dr = abs(Int(a.r) - Int(e.r))
        let dg = abs(Int(a.g) - Int(e.g))
        let db = abs(Int(a.b) - Int(e.b))
        let da = abs(Int(a.a) - Int(e.a))
        return max(max(dr, dg), max(db, da))
    }
}
