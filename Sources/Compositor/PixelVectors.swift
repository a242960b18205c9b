#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif

/// The vector layout every pixel kernel shares: eight RGBA8 pixels, one per
/// 32-bit lane (`Pixels8`), split with a `0x00FF00FF` mask into red/blue and
/// green/alpha so that each channel sits alone in a 16-bit half
/// (`Channels16`). All products of a channel and an 8-bit weight then fit 16
/// bits, and the arithmetic is 16-bit lane-wise (SSE2 `pmullw`, AVX2 `vpmullw`):
/// no widening, no shuffles. Eight pixels because that is one AVX2 register
/// (`-target-cpu haswell`); on baseline SSE2 LLVM splits it into two. The
/// AVX-512 targets run the busiest loops sixteen pixels a vector, the same
/// arithmetic (`WidePixelVectors.swift`), and these for what is left over.
typealias Pixels8 = SIMD8<UInt32>
typealias Channels16 = SIMD16<UInt16>

@inline(__always)
func halves(_ v: Pixels8) -> Channels16 { unsafeBitCast(v, to: Channels16.self) }

@inline(__always)
func lanes(_ v: Channels16) -> Pixels8 { unsafeBitCast(v, to: Pixels8.self) }

/// A 16-bit lane value `w` (0...256) placed in both halves of each 32-bit lane.
@inline(__always)
func doubled(_ w: Pixels8) -> Channels16 { halves(w | (w &<< 16)) }

/// `x / 255` rounded to nearest, exact for `x <= 255 * 255 + 127`.
///
/// With AVX2 one `vpmulhuw`: with `t = x + 128`, `(t + (t >> 8)) >> 8` is `(t * 257) >> 16` (the low
/// byte of `t` adds less than one to `t + floor(t / 256)`, a whole number, which cannot carry it past a
/// multiple of 256), so the high half of `t * 257` is the quotient: two instructions instead of four.
@inline(__always)
func div255(_ x: Channels16) -> Channels16 {
    let t = x &+ 128
    #if SHIFTRENDER_AVX2
    return unsafeBitCast(_mm256_mulhi_epu16(unsafeBitCast(t, to: __m256i.self), _mm256_set1_epi16(257)), to: Channels16.self)
    #else
    return (t &+ (t &>> 8)) &>> 8
    #endif
}

/// Scalar `div255`, same rounding.
@inline(__always)
func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// Eight bytes as one 32-bit lane each: one `vpmovzxbd` with AVX2. Elsewhere
/// built from scalars on purpose: the `SIMD8<UInt32>(truncatingIfNeeded:
/// SIMD8<UInt8>)` widening compiled to an out-of-line call on the baseline
/// target; and Swift 6.3 compiles the scalar form to about twenty shifts and
/// inserts even for Haswell, which the per-pixel-alpha blends (shadows, edges)
/// paid on every eight pixels.
@inline(__always)
func byteLanes(_ p: UnsafePointer<UInt8>) -> Pixels8 {
    #if SHIFTRENDER_AVX2
    let bytes = _mm_cvtsi64_si128(Int64(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)))
    return unsafeBitCast(_mm256_cvtepu8_epi32(bytes), to: Pixels8.self)
    #else
    portableByteLanes(p)
    #endif
}

/// Whether the eight pixels of `a` are those of `b`: one compare and one mask test with AVX2, where
/// Swift 6.3 left `all(a .== b)` eight compares and branches.
@inline(__always)
func samePixels(_ a: Pixels8, _ b: Pixels8) -> Bool {
    #if SHIFTRENDER_AVX2
    let equal = _mm256_cmpeq_epi32(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self))
    return _mm256_movemask_epi8(equal) == -1
    #else
    a == b
    #endif
}

/// `byteLanes` from scalars, on every build (the AVX2 form's test reference).
@inline(__always)
func portableByteLanes(_ p: UnsafePointer<UInt8>) -> Pixels8 {
    Pixels8(
        UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]),
        UInt32(p[4]), UInt32(p[5]), UInt32(p[6]), UInt32(p[7]))
}

/// `(p * (256 - w) + q * w + 128) >> 8` per channel; `w` in 0...255 per lane (`Sampling.axis` never gives 256).
@inline(__always)
func lerp(_ p: Pixels8, _ q: Pixels8, _ w: Pixels8) -> Pixels8 {
    lerp(p, q, doubledWeight: doubled(w))
}

/// `lerp` with the weights already `doubled` (a column table keeps them so).
///
/// With AVX2 it is `p + mulhrs(q - p, 128 * w)` per channel (`stepToward`): `p * 256` is whole in 256ths, so
/// `(p * 256 + (q - p) * w + 128) >> 8` is `p + floor(((q - p) * w + 128) / 256)`, and `vpmulhrsw`
/// gives `floor((x * y + 2^14) / 2^15)`, the same for `x = q - p`, `y = 128 * w`. Two multiplies per
/// eight pixels instead of four, and eleven other instructions instead of fourteen; `128 * w` fits a
/// signed 16-bit lane only for `w <= 255`, hence the weights' range. The portable form multiplies both
/// texels (SSE2 has no `pmulhrsw`); the scalar `lerp` is the reference both match.
@inline(__always)
func lerp(_ p: Pixels8, _ q: Pixels8, doubledWeight w1: Channels16) -> Pixels8 {
    #if SHIFTRENDER_AVX2
    stepToward(p, q, factor: _mm256_slli_epi16(unsafeBitCast(w1, to: __m256i.self), 7))
    #else
    let mask = Pixels8(repeating: 0x00FF_00FF)
    let w0 = halves(Pixels8(repeating: 0x0100_0100) &- lanes(w1))
    let rb = (halves(p & mask) &* w0 &+ halves(q & mask) &* w1 &+ 128) &>> 8
    let ga = halves((p &>> 8) & mask) &* w0 &+ halves((q &>> 8) & mask) &* w1 &+ 128
    return lanes(rb) | (lanes(ga) & 0xFF00_FF00)
    #endif
}

#if SHIFTRENDER_AVX2
/// `p + mulhrs(q - p, factor)` per channel, `vpmulhrsw` being `floor((x * factor + 2^14) / 2^15)` per signed 16-bit
/// lane: the vector `lerp` (factor `128 * w`) and the opaque blend (`OpaqueAlphaFactors`) are both this step.
@inline(__always)
func stepToward(_ p: Pixels8, _ q: Pixels8, factor: __m256i) -> Pixels8 {
    let from = unsafeBitCast(p, to: __m256i.self)
    let to = unsafeBitCast(q, to: __m256i.self)
    let mask = _mm256_set1_epi32(0x00FF_00FF)
    let fromRB = _mm256_and_si256(from, mask)
    let rb = _mm256_add_epi16(fromRB, _mm256_mulhrs_epi16(_mm256_sub_epi16(_mm256_and_si256(to, mask), fromRB), factor))
    let fromGA = _mm256_srli_epi16(from, 8)
    let ga = _mm256_add_epi16(fromGA, _mm256_mulhrs_epi16(_mm256_sub_epi16(_mm256_srli_epi16(to, 8), fromGA), factor))
    return unsafeBitCast(_mm256_or_si256(rb, _mm256_slli_epi16(ga, 8)), to: Pixels8.self)
}
#endif

/// Scalar `lerp` of one pixel (two channels per 16-bit half of a 32-bit word), same rounding.
@inline(__always)
func lerp(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
    let w0 = 256 &- w
    let rb = (((p & 0x00FF_00FF) &* w0 &+ (q & 0x00FF_00FF) &* w &+ 0x0080_0080) &>> 8) & 0x00FF_00FF
    let ga = (((p &>> 8) & 0x00FF_00FF) &* w0 &+ ((q &>> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
    return rb | ga
}
