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

    /// Sixteen adjacent pixels' windows, for the sixteen-pixel sampling loop of AVX-512 builds
    /// (`WidePixels`): one 512-bit permute of one window (a span of up to 15 texels) or of two
    /// (up to 31, all a level's minification leaves) gives each vector, where the two eight-pixel
    /// `Window`s took two or four 256-bit permutes, their indices widened twice and the halves joined.
    struct WideWindow {
        /// Byte offset of the first window in the row.
        var start: Int32
        /// 0: one window; 1: two; 2: neither (the eight-pixel `Window`s).
        var form: Int32
        /// Each lane's texel from `start`, 0...31.
        var lanes: SIMD16<UInt8>
    }

    /// Texels a row must stay readable for past its last sampled texel pair.
    /// The windows end at most eight texels past the largest offset's texel: one
    /// window ends eight past the smallest, two windows (a span of eight or more)
    /// sixteen past it. So 8 (7 is the least; `TexelWindowsTests` under ASan finds 6 short).
    /// Sixteen (`WideWindow`): one window or two of sixteen, ending sixteen past the smallest
    /// offset's texel or thirty-two past it for a span of sixteen or more, so 15 at least.
    #if SHIFTRENDER_AVX512
    static let slackTexels = 16
    #else
    static let slackTexels = 8
    #endif

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

    /// The smaller of a run's first and last offset and their distance: where its windows start and how far they reach
    /// (monotone offsets lie between the two).
    @inline(__always)
    private static func lowAndSpan(_ first: Int32, _ last: Int32) -> (low: Int32, span: Int32) {
        first < last ? (first, last &- first) : (last, first &- last)
    }

    /// The windows of the eight lanes `offsets[0 ..< 8]` (monotone, as the invariants ask).
    @inline(__always)
    static func describe(_ offsets: UnsafePointer<Int32>) -> Window {
        let (low, span) = lowAndSpan(offsets[0], offsets[7])
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
            #if SHIFTRENDER_AVX512
            windows[i] = describeNarrowed(offsets + i)
            #else
            windows[i] = describe(offsets + i)
            #endif
            i &+= 1
        }
    }

    #if SHIFTRENDER_AVX512
    /// `describe` of one column's eight lanes with the lanes narrowed in one `vpmovdb`
    /// (the scalar form's eight shifts and ors cost a column table about 3x the instructions).
    @inline(__always)
    private static func describeNarrowed(_ offsets: UnsafePointer<Int32>) -> Window {
        let (low, span) = lowAndSpan(offsets[0], offsets[7])
        guard span <= 15 * 4 else { return .stitched }
        let relative = _mm256_sub_epi32(UnsafeRawPointer(offsets).loadUnaligned(as: __m256i.self), _mm256_set1_epi32(low))
        // The scalar form keeps each lane's low byte of `relative >> 2`: so does the truncating narrow.
        let lanes = _mm_cvtsi128_si64(_mm256_cvtepi32_epi8(_mm256_srli_epi32(relative, 2)))
        return Window(start: low, form: span <= 7 * 4 ? 0 : 1, lanes: UInt64(bitPattern: lanes))
    }
    #endif

    #if SHIFTRENDER_AVX512
    /// The `WideWindow` of every sixteen columns `i ..< i + 16` that lie within `0 ..< count`
    /// (`windows[i]` for `i <= count - 16`), offsets monotone as for `describe`.
    static func describeWide(_ offsets: UnsafePointer<Int32>, count: Int, into windows: UnsafeMutablePointer<WideWindow>) {
        var i = 0
        while i &+ 16 <= count {
            let (low, span) = lowAndSpan(offsets[i], offsets[i &+ 15])
            if span <= 31 * 4 {
                // Offsets that break the invariant pick wrong texels of the same windows (5 bits), never other memory.
                let relative = _mm512_sub_epi32(UnsafeRawPointer(offsets + i).loadUnaligned(as: __m512i.self), _mm512_set1_epi32(low))
                let lanes = _mm512_cvtepi32_epi8(_mm512_and_si512(_mm512_srli_epi32(relative, 2), _mm512_set1_epi32(31)))
                windows[i] = WideWindow(start: low, form: span <= 15 * 4 ? 0 : 1, lanes: unsafeBitCast(lanes, to: SIMD16<UInt8>.self))
            } else {
                windows[i] = WideWindow(start: 0, form: 2, lanes: .zero)
            }
            i &+= 1
        }
    }

    /// The texel pairs a `WideWindow` describes: `left[k]` the texel lane `k` names, `right[k]` the one after
    /// it; nil for the form that has none.
    @inline(__always)
    static func windowedWide(_ row: UnsafeRawPointer, _ w: WideWindow) -> (left: Pixels16, right: Pixels16)? {
        guard w.form < 2 else { return nil }
        let index = _mm512_cvtepu8_epi32(unsafeBitCast(w.lanes, to: __m128i.self))
        let window = row + Int(w.start)
        if w.form == 0 {
            return (
                _mm512_permutexvar_epi32(index, WidePixels.load(window)),
                _mm512_permutexvar_epi32(index, WidePixels.load(window + 4)))
        }
        return (
            _mm512_permutex2var_epi32(WidePixels.load(window), index, WidePixels.load(window + 64)),
            _mm512_permutex2var_epi32(WidePixels.load(window + 4), index, WidePixels.load(window + 68)))
    }
    #endif

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
