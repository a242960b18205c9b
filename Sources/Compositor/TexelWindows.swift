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
/// The windows of each eight pixels are worked out once per column of a column
/// table (`describe`, by `BitmapSampler` beside `Sampling.prepareColumns`) and kept as a
/// `Window`: the rows of an item read the same columns, and working the windows
/// out from the offsets in every row cost the fused sampling loop about a fifth
/// of its instructions (with its per-blend loops, benchmarks/RESULTS.md). Not
/// for copied tables (`describe(_:count:into:stitchedOnly:)`).
///
/// AVX2 only when the module is compiled for it (`SHIFTRENDER_AVX2`, set with
/// `-target-cpu haswell` or an AVX-512 CPU in Package.swift): Swift SIMD has no variable permute, and
/// the intrinsic does not compile for the baseline target. Elsewhere, and for
/// spans wider than two windows, the stitched loads remain (`texelPairs`);
/// `TexelWindowsTests` compares both with it.
enum TexelWindows {
    /// Where eight adjacent pixels' texel pairs lie in a row: the windows' start
    /// and each lane's texel within them, or that they need the stitched loads.
    struct Window {
        /// Byte offset of the first window in the row.
        var start: Int32
        /// 0: one window (a span of up to 7 texels); 1: two windows (up to 15); 2: neither, stitched loads.
        var form: Int32
        /// Each lane's texel from `start`, 0...15, one byte per lane (lane 0 lowest).
        var lanes: UInt64

        /// The stitched form: the texel pairs loaded one by one.
        static let stitched = Window(start: 0, form: 2, lanes: 0)
    }

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

    /// `pairs` with the windows already worked out: `window` is `describe(offsets)`.
    @inline(__always)
    static func pairs(_ row: UnsafeRawPointer, _ offsets: UnsafePointer<Int32>, _ window: Window) -> (left: Pixels8, right: Pixels8) {
        windowed(row, window) ?? stitched(row, offsets)
    }

    /// The windows of the eight lanes `offsets[0 ..< 8]` (monotone, as the invariants ask).
    @inline(__always)
    static func describe(_ offsets: UnsafePointer<Int32>) -> Window {
        let first = offsets[0]
        let last = offsets[7]
        let low = first < last ? first : last
        let span = first < last ? last &- first : first &- last
        guard isWindowed, span <= 15 * 4 else { return .stitched }
        var lanes: UInt64 = 0
        // A byte each: offsets that break the invariant pick wrong texels of the same windows, never other memory.
        for k in 0 ..< 8 { lanes |= UInt64(UInt8(truncatingIfNeeded: (offsets[k] &- low) &>> 2)) << (8 * UInt64(k)) }
        return Window(start: low, form: span <= 7 * 4 ? 0 : 1, lanes: lanes)
    }

    /// `describe` of every eight columns `i ..< i + 8` that lie within `0 ..< count` (`windows[i]` for `i <= count - 8`).
    /// `stitchedOnly`: the stitched form for all of them, without working the windows out (for a table whose
    /// rows are nearly all copied, where working them out cost more than the few sampled runs saved).
    static func describe(
        _ offsets: UnsafePointer<Int32>, count: Int, into windows: UnsafeMutablePointer<Window>, stitchedOnly: Bool = false
    ) {
        if stitchedOnly {
            windows.update(repeating: .stitched, count: max(0, count &- 7))
            return
        }
        var i = 0
        while i &+ 8 <= count {
            windows[i] = describe(offsets + i)
            i &+= 1
        }
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
        windowed(row, describe(offsets))
    }

    /// The texel pairs a `Window` describes; nil for the stitched form (or a build without AVX2).
    @inline(__always)
    static func windowed(_ row: UnsafeRawPointer, _ w: Window) -> (left: Pixels8, right: Pixels8)? {
        #if SHIFTRENDER_AVX2
        guard w.form < 2 else { return nil }
        let index = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(Int64(bitPattern: w.lanes)))
        let window = row + Int(w.start)
        if w.form == 0 {
            let left = _mm256_permutevar8x32_epi32(window.loadUnaligned(as: __m256i.self), index)
            let right = _mm256_permutevar8x32_epi32((window + 4).loadUnaligned(as: __m256i.self), index)
            return (unsafeBitCast(left, to: Pixels8.self), unsafeBitCast(right, to: Pixels8.self))
        }
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
