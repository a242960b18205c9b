import Primitives

/// A straight-alpha sRGB colour as the premultiplied 8-bit channels text is
/// drawn in (each channel clamped to 0...1, NaN as 0).
struct PremultipliedColor {
    var red: Int, green: Int, blue: Int, alpha: Int

    init(_ color: RGBAColor) {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        let a = unit(color.alpha)
        func byte(_ v: Double) -> Int { Int((v * 255).rounded()) }
        self.red = byte(unit(color.red) * a)
        self.green = byte(unit(color.green) * a)
        self.blue = byte(unit(color.blue) * a)
        self.alpha = byte(a)
    }
}

extension Bitmap {
    /// Composites `coverage` in `color` with its pen at pixel (`x`, `y`) (baseline), source-over,
    /// clipped to the bitmap. Integer arithmetic, rounded to nearest, so every machine gets the same bytes.
    mutating func drawCoverage(_ coverage: GlyphCoverage, x: Int, y: Int, color: PremultipliedColor) {
        let left = x + coverage.left, top = y - coverage.top
        let x0 = max(left, 0), x1 = min(left + coverage.width, width)
        let y0 = max(top, 0), y1 = min(top + coverage.height, height)
        guard x0 < x1, y0 < y1 else { return }
        let bitmapWidth = width
        coverage.alpha.withUnsafeBufferPointer { alpha in
            pixels.withUnsafeMutableBufferPointer { out in
                for row in y0 ..< y1 {
                    let source = (row - top) * coverage.width - left
                    let destination = row * bitmapWidth * 4
                    for column in x0 ..< x1 {
                        let c = Int(alpha[source + column])
                        guard c > 0 else { continue }
                        let sa = (c * color.alpha + 127) / 255
                        let keep = 255 - sa
                        let i = destination + column * 4
                        out[i] = UInt8(min(255, (c * color.red + 127) / 255 + (Int(out[i]) * keep + 127) / 255))
                        out[i + 1] = UInt8(min(255, (c * color.green + 127) / 255 + (Int(out[i + 1]) * keep + 127) / 255))
                        out[i + 2] = UInt8(min(255, (c * color.blue + 127) / 255 + (Int(out[i + 2]) * keep + 127) / 255))
                        out[i + 3] = UInt8(min(255, sa + (Int(out[i + 3]) * keep + 127) / 255))
                    }
                }
            }
        }
    }
}
