/// A half-open rectangle of whole pixels, `x0 ..< x1` by `y0 ..< y1`.
///
/// Every conversion from a floating-point coordinate to a pixel index in this
/// module goes through `clampedIndex`, which maps NaN and out-of-range values to
/// the nearest bound instead of trapping.
struct PixelBox: Equatable, Sendable {
    var x0: Int, y0: Int, x1: Int, y1: Int

    init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    static let empty = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)

    /// Far enough out that no bitmap reaches it, small enough that sums do not overflow.
    static let limit = 1 << 40

    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }

    func intersection(_ other: PixelBox) -> PixelBox {
        let box = PixelBox(
            x0: max(x0, other.x0), y0: max(y0, other.y0),
            x1: min(x1, other.x1), y1: min(y1, other.y1))
        return box.isEmpty ? .empty : box
    }

    var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }

    /// The pixels whose centres `(i + 0.5, j + 0.5)` lie in `[minX, maxX] x [minY, maxY]`.
    static func centres(minX: Double, minY: Double, maxX: Double, maxY: Double) -> PixelBox {
        let box = PixelBox(
            x0: clampedIndex((minX - 0.5).rounded(.up)),
            y0: clampedIndex((minY - 0.5).rounded(.up)),
            x1: clampedIndex((maxX - 0.5).rounded(.down)) + 1,
            y1: clampedIndex((maxY - 0.5).rounded(.down)) + 1)
        return box.isEmpty ? .empty : box
    }
}

/// `Int(value)` clamped to `-limit ... limit`; NaN gives `-limit`. Never traps.
@inline(__always)
func clampedIndex(_ value: Double, limit: Int = PixelBox.limit) -> Int {
    if value > Double(-limit) {
        return value < Double(limit) ? Int(value) : limit
    }
    return -limit
}

/// `value` clamped to 0...1, with NaN mapped to 0 (the comparisons fail for NaN).
@inline(__always)
func clamp01(_ value: Float) -> Float {
    value > 0 ? (value < 1 ? value : 1) : 0
}

/// Rounds a value in 0...255 to the nearest byte (ties to even) without a
/// trapping float-to-integer conversion: adding 1.5 * 2^23 leaves the rounded
/// integer in the low mantissa bits. Callers clamp first; vectorizes cleanly.
@inline(__always)
func roundedByte(_ value: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: (value + 12_582_912).bitPattern)
}
