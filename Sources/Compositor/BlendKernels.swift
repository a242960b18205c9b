/// Premultiplied source-over on rows of RGBA8 pixels:
/// `dst = src * a + dst * (1 - srcAlpha * a)` with `a` the 8-bit coverage
/// (coverage x opacity), in 16-bit integers with one rounding per channel:
///
///     sa   = div255(src.a * a)                      // the alpha actually laid down
///     dst' = div255(src * a + dst * (255 - sa))     // every channel, alpha included
///
/// where `div255(x) = (x + 128 + ((x + 128) >> 8)) >> 8` is `x / 255` rounded
/// to nearest. Contract: sources are premultiplied (`src.c <= src.a`; solid
/// colours are by construction, `Sampling` preserves it for premultiplied images). Then the sum is
/// at most `255 * 255 + 127` and `div255` of it still fits 16 bits exactly.
/// (A malformed source only garbles its own channel: lanes wrap, never trap.) Error
/// against real-number source-over is at most 1/255 (half from rounding `sa`,
/// half from the final rounding). Consequences the tests pin down: a fully
/// covered opaque source is written exactly; coverage 0 leaves `dst` exactly
/// unchanged; 50 % white over opaque black is 128.
///
/// Each kernel has a scalar reference (`...Reference`) and a SIMD version
/// (four pixels per step, see the layout note below) that must match it bit
/// for bit.
enum BlendKernels {
    // MARK: Scalar references

    @inline(__always)
    static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Source-over of one pixel `s` (premultiplied) at coverage `a` onto `d`.
    @inline(__always)
    static func blendPixel(_ d: UnsafeMutablePointer<UInt8>, _ s: (UInt32, UInt32, UInt32, UInt32), _ a: UInt32) {
        let sa = div255(s.3 &* a)
        let inv = 255 &- sa
        d[0] = UInt8(truncatingIfNeeded: div255(s.0 &* a &+ UInt32(d[0]) &* inv))
        d[1] = UInt8(truncatingIfNeeded: div255(s.1 &* a &+ UInt32(d[1]) &* inv))
        d[2] = UInt8(truncatingIfNeeded: div255(s.2 &* a &+ UInt32(d[2]) &* inv))
        d[3] = UInt8(truncatingIfNeeded: div255(s.3 &* a &+ UInt32(d[3]) &* inv))
    }

    /// `dst[i] = src[i] * alpha[i] over dst[i]`, one pixel at a time.
    static func sourceOverReference(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
                                    alpha: UnsafePointer<UInt8>, count: Int) {
        for i in 0 ..< count {
            let a = UInt32(alpha[i])
            if a == 0 { continue }
            let s = src + 4 * i
            blendPixel(dst + 4 * i, (UInt32(s[0]), UInt32(s[1]), UInt32(s[2]), UInt32(s[3])), a)
        }
    }

    /// `dst[i] = color * alpha[i] over dst[i]`, one pixel at a time.
    static func sourceOverSolidReference(dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
                                         alpha: UnsafePointer<UInt8>, count: Int) {
        let c = (UInt32(color.x), UInt32(color.y), UInt32(color.z), UInt32(color.w))
        for i in 0 ..< count {
            let a = UInt32(alpha[i])
            if a == 0 { continue }
            blendPixel(dst + 4 * i, c, a)
        }
    }

    // MARK: SIMD kernels
    //
    // Layout: one pixel per 32-bit lane (`SIMD4<UInt32>`, four pixels), split into
    // the red/blue and green/alpha byte pairs with a 0x00FF00FF mask, so every
    // channel sits in its own 16-bit half and all arithmetic is 16-bit lane-wise
    // (`SIMD8<UInt16>` views: pmullw, shifts, adds; SSE2 only, no shuffles).
    // The first cut used `SIMD16<UInt16>` (four pixels as 16 lanes) with per-pixel
    // alpha broadcasts and `SIMD16<UInt16>(truncatingIfNeeded:)` widening; on the
    // baseline x86-64 target (SSE2, no pshufb) the widening compiled to an
    // out-of-line call and the broadcasts to 64-bit multiplies or lane inserts:
    // 2.0-2.9 ns/px. This form: 1.4 ns/px, scalar reference 3.6-3.9 ns/px
    // (KernelBenchmark, 1920-px rows; command in `Compositor.swift`).

    @inline(__always)
    static func halves(_ v: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(v, to: SIMD8<UInt16>.self) }
    @inline(__always)
    static func lanes(_ v: SIMD8<UInt16>) -> SIMD4<UInt32> { unsafeBitCast(v, to: SIMD4<UInt32>.self) }

    @inline(__always)
    static func div255(_ x: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Four coverage bytes as one 32-bit lane each.
    @inline(__always)
    static func coverageLanes(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt32> {
        SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
    }

    /// Source-over of four pixels: `s`, `d` one pixel per lane, `a` coverage per lane (0...255).
    @inline(__always)
    static func blend4(_ d: SIMD4<UInt32>, _ s: SIMD4<UInt32>, _ a: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let a2 = halves(a | (a &<< 16))
        let srb = halves(s & mask) &* a2               // r*a, b*a
        let sga = halves((s &>> 8) & mask) &* a2       // g*a, alpha*a
        let sa = div255(halves(lanes(sga) &>> 16))     // alpha laid down, low half of each lane
        let inv = lanes(255 &- sa) & 0xFFFF
        let inv2 = halves(inv | (inv &<< 16))
        let rb = div255(srb &+ halves(d & mask) &* inv2)
        let ga = div255(sga &+ halves((d &>> 8) & mask) &* inv2)
        return lanes(rb) | (lanes(ga) &<< 8)
    }

    /// SIMD version of `sourceOverReference`; bit-identical to it for
    /// premultiplied sources (colour <= alpha; `Sampling` preserves it).
    static func sourceOver(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
                           alpha: UnsafePointer<UInt8>, count: Int) {
        var i = 0
        while i &+ 4 <= count {
            if UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt32.self) != 0 {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: SIMD4<UInt32>.self)
                let out = blend4(d.loadUnaligned(as: SIMD4<UInt32>.self), s, coverageLanes(alpha + i))
                d.storeBytes(of: out, as: SIMD4<UInt32>.self)
            }
            i &+= 4
        }
        if i < count { sourceOverReference(dst: dst + 4 * i, src: src + 4 * i, alpha: alpha + i, count: count - i) }
    }

    /// SIMD version of `sourceOverSolidReference`; bit-identical to it for a premultiplied colour.
    static func sourceOverSolid(dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
                                alpha: UnsafePointer<UInt8>, count: Int) {
        let s = SIMD4<UInt32>(repeating: unsafeBitCast(color, to: UInt32.self))
        // Opaque colour at full coverage is a plain store (the formula gives exactly `s`).
        let opaqueRun: UInt32 = color.w == 255 ? 0xFFFF_FFFF : 0
        var i = 0
        while i &+ 4 <= count {
            let a4 = UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt32.self)
            if a4 == opaqueRun {
                UnsafeMutableRawPointer(dst + 4 &* i).storeBytes(of: s, as: SIMD4<UInt32>.self)
            } else if a4 != 0 {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let out = blend4(d.loadUnaligned(as: SIMD4<UInt32>.self), s, coverageLanes(alpha + i))
                d.storeBytes(of: out, as: SIMD4<UInt32>.self)
            }
            i &+= 4
        }
        if i < count { sourceOverSolidReference(dst: dst + 4 * i, color: color, alpha: alpha + i, count: count - i) }
    }
}
