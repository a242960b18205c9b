public import Primitives

/// Straight-alpha conversion for encoders that keep transparency (PNG, ProRes
/// 4444...): `c' = round(c * 255 / a)` with ties up, `a = 0` giving 0, exactly
/// as `Bitmap.unpremultipliedPixels()` (the scalar reference).
///
/// SIMD form: eight pixels per step; the division becomes a multiply by a
/// per-alpha reciprocal `M[a] = round(255 * 2^24 / a)` gathered from a
/// 256-entry table, `c' = (min(c, a) * M[a] + 2^23 + 256) >> 24`. The `+ 256`
/// makes it exact for every premultiplied `(c, a)` (checked exhaustively by a
/// test); `min(c, a)` keeps malformed input in range (it gives 255, as the
/// reference does) and the product below 2^32.
extension Compositor {
    static let reciprocals: [UInt32] = (0 ... 255).map { a in
        a == 0 ? 0 : UInt32((255 * Double(1 << 24) / Double(a)).rounded())
    }

    /// Straight-alpha RGBA8 bytes of `bitmap` written to `out` (resized to fit).
    public static func unpremultiply(_ bitmap: Bitmap, into out: inout [UInt8]) {
        let count = bitmap.width * bitmap.height
        precondition(bitmap.pixels.count == count * 4, "malformed bitmap")
        if out.count != count * 4 { out = [UInt8](repeating: 0, count: count * 4) }
        bitmap.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                reciprocals.withUnsafeBufferPointer { table in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let m = table.baseAddress else { return }
                    unpremultiplyRow(s, into: d, count: count, reciprocals: m)
                }
            }
        }
    }

    /// Straight-alpha RGBA8 bytes of `bitmap`.
    public static func unpremultiplied(_ bitmap: Bitmap) -> [UInt8] {
        var out: [UInt8] = []
        unpremultiply(bitmap, into: &out)
        return out
    }

    static func unpremultiplyRow(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer, count: Int,
                                 reciprocals m: UnsafePointer<UInt32>) {
        let byte = Pixels8(repeating: 0xFF), bias = Pixels8(repeating: (1 << 23) + 256)
        var i = 0
        while i &+ 8 <= count {
            let p = src.loadUnaligned(fromByteOffset: 4 &* i, as: Pixels8.self)
            let a = p &>> 24
            if a == Pixels8(repeating: 255) {
                dst.storeBytes(of: p, toByteOffset: 4 &* i, as: Pixels8.self)
            } else {
                let r = Pixels8(m[Int(a[0])], m[Int(a[1])], m[Int(a[2])], m[Int(a[3])],
                                m[Int(a[4])], m[Int(a[5])], m[Int(a[6])], m[Int(a[7])])
                let c0 = (pointwiseMin(p & byte, a) &* r &+ bias) &>> 24
                let c1 = (pointwiseMin((p &>> 8) & byte, a) &* r &+ bias) &>> 24
                let c2 = (pointwiseMin((p &>> 16) & byte, a) &* r &+ bias) &>> 24
                dst.storeBytes(of: c0 | (c1 &<< 8) | (c2 &<< 16) | (a &<< 24), toByteOffset: 4 &* i, as: Pixels8.self)
            }
            i &+= 8
        }
        while i < count {
            let p = src.load(fromByteOffset: 4 &* i, as: UInt32.self)
            let a = p &>> 24, r = m[Int(a)]
            let c0 = (min(p & 0xFF, a) &* r &+ (1 << 23) &+ 256) &>> 24
            let c1 = (min((p &>> 8) & 0xFF, a) &* r &+ (1 << 23) &+ 256) &>> 24
            let c2 = (min((p &>> 16) & 0xFF, a) &* r &+ (1 << 23) &+ 256) &>> 24
            dst.storeBytes(of: c0 | (c1 &<< 8) | (c2 &<< 16) | (a &<< 24), toByteOffset: 4 &* i, as: UInt32.self)
            i &+= 1
        }
    }
}
