#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif

/// The texels a separable bilinear pass needs for eight adjacent pixels, each
/// pixel's left texel and the one after it, fetched as contiguous windows of
/// the texel row and permuted into place.
///
/// Why: a column table's offsets for eight pixels are monotone (`prepareColumns`
/// steps one texel coordinate by a constant per pixel), and with the mip level
/// chosen so one pixel spans fewer than two texels, eight pixels span at most
/// fifteen texels. So instead of eight scalar 64-bit loads stitched into a
/// vector and split into even and odd lanes (`Sampling.texelPairs`: 8 loads, 4
/// unpacks, 2 inserts, then a deinterleave of 6 shuffles), one window of eight
/// texels and the same window one texel on give both vectors through two AVX2
/// `vpermd` (magnified or near unit scale), or two windows each and a blend
/// (minified within a level). The transition benchmark's plan without shadows and
/// borders executes 14% fewer instructions in `horizontalOver` this way; timings
/// are in benchmarks/RESULTS.md. Same texels, so the same bytes.
///
/// Invariants:
/// - `offsets` (byte offsets, `4 * texel`) are monotone over the eight lanes,
///   increasing or decreasing; then every lane lies between the first and the
///   last. Offsets that are not give wrong texels but never read outside the
///   windows, which start at the smaller of the first and last offset.
/// - A row read this way is readable for `slackTexels` texels past the last
///   texel an offset names plus one (`Texture` and `RowScratch.texelRow`
///   allocate that much more, zeroed). The windows' extra lanes are discarded.
///
/// AVX2 only when the module is compiled for it (`SHIFTRENDER_AVX2`, set with
/// `-target-cpu haswell` or an AVX-512 CPU in Package.swift): Swift SIMD has no variable permute, and
/// the intrinsic does not compile for the baseline target. Elsewhere, and for
/// spans wider than two windows, the stitched loads remain (`texelPairs`);
/// `TexelWindowsTests` compares both with it.
enum TexelWindows {
    /// Texels a row must stay readable for past its last sampled texel pair.
    /// The windows end at most eight texels past the largest offset's texel: one
    /// window ends eight past the smallest, two windows (a span of eight or more)
    /// sixteen past it. So 8 (7 is the least; `TexelWindowsTests` under ASan finds 6 short).
    static let slackTexels = 8

    /// Whether this build has the windowed form (`permuted` never nil for spans within two windows).
    #if SHIFTRENDER_AVX2
    static let isWindowed = true
    #else
    static let isWindowed = false
    #endif

    /// `left[k]` = the texel at `row + offsets[k]`, `right[k]` = the one after it.
    @inline(__always)
    static func pairs(_ row: UnsafeRawPointer, _ offsets: UnsafePointer<Int32>) -> (left: Pixels8, right: Pixels8) {
        permuted(row, offsets) ?? stitched(row, offsets)
    }

    /// The portable form: eight 64-bit loads of texel pairs, split into lanes.
    @inline(__always)
    static func stitched(_ row: UnsafeRawPointer, _ offsets: UnsafePointer<Int32>) -> (left: Pixels8, right: Pixels8) {
        let pairs = Sampling.texelPairs(row, offsets)
        return (pairs.evenHalf, pairs.oddHalf)
    }

    /// The windowed form, or nil when the eight offsets span more than two windows (or the build has no AVX2).
    @inline(__always)
    static func permuted(_ row: UnsafeRawPointer, _ offsets: UnsafePointer<Int32>) -> (left: Pixels8, right: Pixels8)? {
        #if SHIFTRENDER_AVX2
        let lanes = UnsafeRawPointer(offsets).loadUnaligned(as: SIMD8<Int32>.self)
        let first = lanes[0]
        let last = offsets[7]
        let low = first < last ? first : last
        let span = first < last ? last &- first : first &- last
        let index = unsafeBitCast((lanes &- low) &>> 2, to: __m256i.self)
        let window = row + Int(low)
        if span <= 7 * 4 {
            let left = _mm256_permutevar8x32_epi32(window.loadUnaligned(as: __m256i.self), index)
            let right = _mm256_permutevar8x32_epi32((window + 4).loadUnaligned(as: __m256i.self), index)
            return (unsafeBitCast(left, to: Pixels8.self), unsafeBitCast(right, to: Pixels8.self))
        }
        guard span <= 15 * 4 else { return nil }
        // vpermd reads the low three bits of each index: lanes 8 and up take the second window.
        let second = _mm256_cmpgt_epi32(index, _mm256_set1_epi32(7))
        func pick(_ start: UnsafeRawPointer) -> Pixels8 {
            let near = _mm256_permutevar8x32_epi32(start.loadUnaligned(as: __m256i.self), index)
            let far = _mm256_permutevar8x32_epi32((start + 32).loadUnaligned(as: __m256i.self), index)
            return unsafeBitCast(_mm256_blendv_epi8(near, far, second), to: Pixels8.self)
        }
        return (pick(window), pick(window + 4))
        #else
        return nil
        #endif
    }
}
