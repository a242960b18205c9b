/// An image in premultiplied RGBA, 8 bits a channel, rows top to bottom with no
/// padding (`bytesPerRow == width * 4`). Premultiplied because every blend the
/// compositor does (source-over, bilinear sampling) is then a plain weighted sum.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, colour already multiplied by alpha.
    public var pixels: [UInt8]

    public var bytesPerRow: Int { width * 4 }

    /// A bitmap filled with one premultiplied pixel value (transparent black by default).
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)) {
        precondition(width >= 0 && height >= 0, "Bitmap size must not be negative")
        self.width = width
        self.height = height
        if fill == (0, 0, 0, 0) {
            self.pixels = [UInt8](repeating: 0, count: width * height * 4)
        } else {
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = fill.0
                bytes[i + 1] = fill.1
                bytes[i + 2] = fill.2
                bytes[i + 3] = fill.3
            }
            self.pixels = bytes
        }
    }

    /// Wraps existing premultiplied bytes; nil when the count does not match the size.
    public init?(width: Int, height: Int, premultipliedPixels: [UInt8]) {
        guard width >= 0, height >= 0, premultipliedPixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = premultipliedPixels
    }

    /// The premultiplied RGBA bytes at (x, y).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    public mutating func setPixel(x: Int, y: Int, _ value: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let i = (y * width + x) * 4
        pixels[i] = value.r
        pixels[i + 1] = value.g
        pixels[i + 2] = value.b
        pixels[i + 3] = value.a
    }

    /// Builds a premultiplied bitmap from straight-alpha bytes.
    public init?(width: Int, height: Int, straightPixels: [UInt8]) {
        guard width >= 0, height >= 0, straightPixels.count == width * height * 4 else { return nil }
        var bytes = straightPixels
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = Int(bytes[i + 3])
            if a < 255 {
                for c in 0 ..< 3 { bytes[i + c] = UInt8((Int(bytes[i + c]) * a + 127) / 255) }
            }
        }
        self.width = width
        self.height = height
        self.pixels = bytes
    }
}
