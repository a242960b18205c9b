#if SHIFTRENDER_AVX512
import _Builtin_intrinsics.intel

/// Sixteen RGBA8 pixels in one AVX-512 register: the `Pixels8` layout twice as
/// wide, and the same arithmetic lane for lane, so every kernel's sixteen-pixel
/// loop gives the bytes its eight-pixel loop gives (the kernel tests compare
/// both with the scalar references, at counts that run each loop).
///
/// Why a second width: on the Intel AVX-512 cores these builds target, the
/// 16-bit multiplies run at half the 256-bit rate, but adds, shifts and logic
/// run on two 512-bit ports against three 256-bit ones, and the front end
/// issues half the instructions. A constant-alpha blend over an L2-resident row
/// ran 1.3x faster sixteen pixels a vector (benchmarks/RESULTS.md).
///
/// Why intrinsics, not `SIMD16<UInt32>`: Swift 6.3 compiles the 16-bit lane
/// shifts of `SIMD32<UInt16>` to per-lane compares and masked shifts, a
/// hundred times slower than `vpsrlw`; its 8-pixel forms compile well, so they stay Swift SIMD.
typealias Pixels16 = __m512i

enum WidePixels {
    @inline(__always)
    static func load(_ p: UnsafeRawPointer) -> Pixels16 { p.loadUnaligned(as: Pixels16.self) }

    @inline(__always)
    static func store(_ v: Pixels16, _ p: UnsafeMutableRawPointer) { p.storeBytes(of: v, as: Pixels16.self) }

    @inline(__always)
    static func splat(_ word: UInt32) -> Pixels16 { _mm512_set1_epi32(Int32(bitPattern: word)) }

    /// The first `count` (0...16) lanes.
    @inline(__always)
    static func lanes(_ count: Int) -> __mmask16 { __mmask16(truncatingIfNeeded: (1 &<< count) &- 1) }

    /// The first `count` pixels at `p`, zeros after; nothing past them is read (masked lanes do not fault).
    @inline(__always)
    static func load(_ p: UnsafeRawPointer, count: Int) -> Pixels16 { _mm512_maskz_loadu_epi32(lanes(count), p) }

    /// Stores the first `count` pixels of `v` at `p`, nothing past them.
    @inline(__always)
    static func store(_ v: Pixels16, _ p: UnsafeMutableRawPointer, count: Int) { _mm512_mask_storeu_epi32(p, lanes(count), v) }

    /// Sixteen alpha bytes (the first `count` of them read, zeros after), one 32-bit lane each.
    @inline(__always)
    static func alphaLanes(_ p: UnsafePointer<UInt8>, count: Int = 16) -> Pixels16 {
        _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(lanes(count), p))
    }

    /// Two `Pixels8`, `low` in lanes 0...7.
    @inline(__always)
    static func join(_ low: Pixels8, _ high: Pixels8) -> Pixels16 {
        unsafeBitCast(SIMD16<UInt32>(lowHalf: low, highHalf: high), to: Pixels16.self)
    }

    /// `doubled`: the low 16 bits of each 32-bit lane in both halves.
    @inline(__always)
    static func doubled(_ w: Pixels16) -> Pixels16 { _mm512_or_si512(w, _mm512_slli_epi32(w, 16)) }

    /// `x >> 8` per 16-bit lane: its high byte moved down, zero above.
    @inline(__always)
    static func highBytesDown(_ x: Pixels16) -> Pixels16 { _mm512_srli_epi16(x, 8) }

    /// `x << 8` per 16-bit lane.
    @inline(__always)
    static func lowBytesUp(_ x: Pixels16) -> Pixels16 { _mm512_slli_epi16(x, 8) }

    /// `div255` per 16-bit lane, before its last shift: `t + (t >> 8)` for `t = x + 128`, whose high byte is the quotient.
    @inline(__always)
    private static func quotientHigh(_ x: Pixels16) -> Pixels16 {
        let t = _mm512_add_epi16(x, _mm512_set1_epi16(128))
        return _mm512_add_epi16(t, highBytesDown(t))
    }

    /// `div255` per 16-bit lane.
    @inline(__always)
    static func div255(_ x: Pixels16) -> Pixels16 { highBytesDown(quotientHigh(x)) }

    /// Red/blue and green/alpha quotients joined: `div255(rb) | div255(ga) << 8` per 32-bit lane, the green/alpha
    /// quotient masked where it already stands (the high byte of `quotientHigh`) instead of shifted down and back.
    @inline(__always)
    private static func joinQuotients(_ rb: Pixels16, _ ga: Pixels16) -> Pixels16 {
        _mm512_or_si512(div255(rb), _mm512_and_si512(quotientHigh(ga), _mm512_set1_epi32(-0x00FF_0100)))
    }

    @inline(__always)
    private static func redBlue(_ v: Pixels16) -> Pixels16 { _mm512_and_si512(v, _mm512_set1_epi32(0x00FF_00FF)) }

    @inline(__always)
    private static func greenAlpha(_ v: Pixels16) -> Pixels16 { highBytesDown(v) }

    /// `lerp(_:_:doubledWeight:)`, the same `vpmulhrsw` form (weights 0...255).
    @inline(__always)
    static func lerp(_ p: Pixels16, _ q: Pixels16, doubledWeight w1: Pixels16) -> Pixels16 {
        stepToward(p, q, factor: stepFactor(doubledWeight: w1))
    }

    /// The `stepToward` factor of `lerp`'s doubled weights: `128 w` per 16-bit lane.
    @inline(__always)
    static func stepFactor(doubledWeight w1: Pixels16) -> Pixels16 { _mm512_slli_epi16(w1, 7) }

    /// `stepToward(_:_:factor:)` of `PixelVectors.swift`, sixteen pixels: `p + mulhrs(q - p, factor)` per channel.
    @inline(__always)
    static func stepToward(_ p: Pixels16, _ q: Pixels16, factor: Pixels16) -> Pixels16 {
        _mm512_or_si512(
            stepHalves(redBlue(p), redBlue(q), factor), lowBytesUp(stepHalves(greenAlpha(p), greenAlpha(q), factor)))
    }

    /// `p + mulhrs(q - p, factor)` per 16-bit lane: one channel half of `stepToward`.
    @inline(__always)
    private static func stepHalves(_ p: Pixels16, _ q: Pixels16, _ factor: Pixels16) -> Pixels16 {
        _mm512_add_epi16(p, _mm512_mulhrs_epi16(_mm512_sub_epi16(q, p), factor))
    }

    /// `stepToward(d, stepToward(p, q, factor: toward), factor: blend)`: the step from `p` to `q` left in its two
    /// halves for the step from `d` (it lies between `p` and `q`, so each 16-bit lane holds a byte), not joined
    /// and split again: the bilinear sample and the opaque blend of `horizontalOver` in 18 instructions, not 24.
    @inline(__always)
    static func stepTowardTwice(
        _ p: Pixels16, _ q: Pixels16, factor toward: Pixels16, from d: Pixels16, factor blend: Pixels16
    ) -> Pixels16 {
        let rb = stepHalves(redBlue(d), stepHalves(redBlue(p), redBlue(q), toward), blend)
        let ga = stepHalves(greenAlpha(d), stepHalves(greenAlpha(p), greenAlpha(q), toward), blend)
        return _mm512_or_si512(rb, lowBytesUp(ga))
    }

    /// `BlendKernels.over`: the source already multiplied (`srb`, `sga`), `inv2` = `255 - sa` doubled.
    @inline(__always)
    static func over(_ d: Pixels16, _ srb: Pixels16, _ sga: Pixels16, _ inv2: Pixels16) -> Pixels16 {
        joinQuotients(
            _mm512_add_epi16(srb, _mm512_mullo_epi16(redBlue(d), inv2)),
            _mm512_add_epi16(sga, _mm512_mullo_epi16(greenAlpha(d), inv2)))
    }

    /// `BlendKernels.blend8`: `a` the coverage per 32-bit lane (0...255).
    @inline(__always)
    static func blend(_ d: Pixels16, _ s: Pixels16, _ a: Pixels16) -> Pixels16 {
        let a2 = doubled(a)
        let srb = _mm512_mullo_epi16(redBlue(s), a2)
        let sga = _mm512_mullo_epi16(greenAlpha(s), a2)
        let sa = div255(_mm512_srli_epi32(sga, 16))
        return over(d, srb, sga, doubled(_mm512_sub_epi32(_mm512_set1_epi32(255), sa)))
    }

    /// `BlendKernels.blendOpaque8(_:_:factor:)`: `factor` the alpha's (`OpaqueAlphaFactors`) in every 16-bit lane.
    @inline(__always)
    static func blendOpaque(_ d: Pixels16, _ s: Pixels16, factor: Pixels16) -> Pixels16 { stepToward(d, s, factor: factor) }


    /// `BlendKernels.blendFull8`.
    @inline(__always)
    static func blendFull(_ d: Pixels16, _ s: Pixels16) -> Pixels16 {
        let inv2 = doubled(_mm512_sub_epi32(_mm512_set1_epi32(255), _mm512_srli_epi32(s, 24)))
        return _mm512_add_epi32(s, joinQuotients(_mm512_mullo_epi16(redBlue(d), inv2), _mm512_mullo_epi16(greenAlpha(d), inv2)))
    }

    /// `v`'s first `count` pixels moved up to lanes `by ..< by + count` (0 <= by, by + count <= 16), zeros elsewhere.
    @inline(__always)
    static func movedUp(_ v: Pixels16, by k: Int, count: Int) -> Pixels16 {
        let iota = unsafeBitCast(SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), to: Pixels16.self)
        let index = _mm512_sub_epi32(iota, _mm512_set1_epi32(Int32(truncatingIfNeeded: k)))
        return _mm512_maskz_permutexvar_epi32(lanes(k &+ count) & ~lanes(k), index, v)
    }

    /// Whether every pixel of `a` is the one of `b`.
    @inline(__always)
    static func equal(_ a: Pixels16, _ b: Pixels16) -> Bool {
        let difference = _mm512_xor_si512(a, b)
        return _mm512_test_epi32_mask(difference, difference) == 0
    }

    /// Whether every pixel's alpha is 255.
    @inline(__always)
    static func isOpaque(_ s: Pixels16) -> Bool {
        let opaque = _mm512_set1_epi32(-0x0100_0000)
        return _mm512_test_epi32_mask(_mm512_andnot_si512(s, opaque), opaque) == 0
    }
}
#endif
