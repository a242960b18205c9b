import Synchronization

/// Per-band scratch rows, indexed by absolute target x where noted: coverage
/// (Float), clip coverage (Float), 8-bit alpha, a premultiplied RGBA8 sample
/// row, the current bitmap item's column table and its texel windows (absolute
/// x), per-pixel texel offsets and weights for rotated mappings, shadow column
/// factors (absolute x), a group's layer pixels for one run (`BackedGroupFill`,
/// absolute x, and the alpha of its two items), one blended texel row (as wide as the widest texture level
/// drawn) and the backdrop blur's two line buffers (as long as the longest line blurred).
/// Allocated once and reused, so steady-state rendering allocates nothing per
/// row or per item.
final class RowScratch: @unchecked Sendable {
    private(set) var capacity = 0
    private(set) var coverage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var clipCoverage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    /// The edge alpha of the item being drawn on its steady rows (`SteadyRows`), absolute x; valid once `steadyAlphaReady`.
    private(set) var steadyAlpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    /// The steady rows of the item being drawn, set for each item and band (`RowPainter`).
    var steady = SteadyRows.none
    /// Set when `steadyAlpha` holds the current item's edges; cleared for each item and band (`RowPainter`).
    var steadyAlphaReady = false
    /// Which band draws which rows of the frame (`Rasterizer.drawBand` sets it): where rows ahead lie
    /// (`Rasterizer.rowAhead`).
    var split = BandSplit.even(1)
    private(set) var source = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
    private(set) var columnOffsets = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var columnWeights = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// The texel windows of the eight columns from each column of the table (`TexelWindows.describe`), absolute x.
    private(set) var columnWindows = UnsafeMutablePointer<TexelWindows.Window>.allocate(capacity: 1)
    /// The same for sixteen columns (`TexelWindows.WideWindow`, AVX-512 builds), absolute x.
    private(set) var columnWideWindows = UnsafeMutablePointer<TexelWindows.WideWindow>.allocate(capacity: 1)
    private(set) var pixelOffsets = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var pixelWeightsX = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var pixelWeightsY = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// Per-pixel mip level index of a projected item's samples (`ProjectedSampling`).
    private(set) var pixelLevels = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var shadowColumns = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    /// Three rows of a shadow's corner grid, index x / 2, `shadowGridStride` apart, and the corrections the
    /// grid gives a row, absolute x (`ShadowCornerGrid`).
    private(set) var shadowGrid = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var shadowGridStride = 0
    private(set) var shadowCorrections = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    /// The corner samples of the two kept grid rows (`ShadowCornerGrid`).
    let shadowGridSamples = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 4 * ShadowKernels.maxCornerRows)
    /// RGBA8, absolute x: a group's layer pixels for one run (`BackedGroupFill`).
    private(set) var layerRow = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
    /// Two rows of 8-bit alpha, absolute x: that group's solid's and bitmap's on its steady rows (`BackedGroupFill`).
    private(set) var layerAlpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 2)
    /// The inked texel runs of the bitmap row being drawn (`InkMap.runs`, `BitmapSampler`).
    let inkRuns = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * InkMap.maximumRuns)
    private(set) var texelRowCapacity = 0
    private(set) var texelRow = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// Two lane-interleaved line buffers of the backdrop blur (`GaussianKernels`), 4 vectors per position.
    private(set) var blurLineCapacity = 0
    private(set) var blurLineA = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 4)
    private(set) var blurLineB = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 4)

    init(width: Int = 0) { reserve(width) }

    /// Makes every per-pixel row at least `width` pixels long (contents are not kept).
    func reserve(_ width: Int) {
        guard width > capacity else { return }
        release()
        // Eight spare entries: SIMD loops may store a full vector at the end of a row.
        let n = width + 8
        capacity = width
        coverage = .allocate(capacity: n)
        clipCoverage = .allocate(capacity: n)
        alpha = .allocate(capacity: n)
        steadyAlpha = .allocate(capacity: n)
        source = .allocate(capacity: n * 4)
        columnOffsets = .allocate(capacity: n)
        columnWeights = .allocate(capacity: n)
        columnWindows = .allocate(capacity: n)
        columnWideWindows = .allocate(capacity: n)
        pixelOffsets = .allocate(capacity: n)
        pixelWeightsX = .allocate(capacity: n)
        pixelWeightsY = .allocate(capacity: n)
        pixelLevels = .allocate(capacity: n)
        // Two columns past a band's and whole vectors from there (`ShadowFill.band`), read 32 past (`ShadowCornerGrid`).
        shadowColumns = .allocate(capacity: n + 2 * ShadowCornerGrid.slack)
        shadowGridStride = n / 2 + ShadowCornerGrid.slack
        shadowGrid = .allocate(capacity: 3 * shadowGridStride)
        shadowCorrections = .allocate(capacity: n + ShadowCornerGrid.slack)
        layerRow = .allocate(capacity: n * 4)
        layerAlpha = .allocate(capacity: n * 2)
    }

    /// Makes the blended texel row hold at least `texels` texels.
    func reserveTexelRow(_ texels: Int) {
        guard texels > texelRowCapacity else { return }
        texelRow.deallocate()
        texelRowCapacity = texels
        // Zeroed, with room for the windows past the last texel (`TexelWindows.slackTexels`).
        let count = texels + 8 + TexelWindows.slackTexels
        texelRow = .allocate(capacity: count)
        texelRow.initialize(repeating: 0, count: count)
    }

    /// Makes both blur line buffers hold at least `positions` positions (contents not kept).
    func reserveBlurLines(_ positions: Int) {
        guard positions > blurLineCapacity else { return }
        blurLineA.deallocate()
        blurLineB.deallocate()
        blurLineCapacity = positions
        blurLineA = .allocate(capacity: positions * 4)
        blurLineB = .allocate(capacity: positions * 4)
    }

    private func release() {
        coverage.deallocate()
        clipCoverage.deallocate()
        alpha.deallocate()
        steadyAlpha.deallocate()
        source.deallocate()
        columnOffsets.deallocate()
        columnWeights.deallocate()
        columnWindows.deallocate()
        columnWideWindows.deallocate()
        pixelOffsets.deallocate()
        pixelWeightsX.deallocate()
        pixelWeightsY.deallocate()
        pixelLevels.deallocate()
        shadowColumns.deallocate()
        shadowGrid.deallocate()
        shadowCorrections.deallocate()
        layerRow.deallocate()
        layerAlpha.deallocate()
    }

    deinit {
        release()
        inkRuns.deallocate()
        shadowGridSamples.deallocate()
        texelRow.deallocate()
        blurLineA.deallocate()
        blurLineB.deallocate()
    }
}

/// A thread-safe stack of `RowScratch`, so one renderer can serve concurrent
/// `render` calls while reusing buffers between frames.
final class ScratchPool: Sendable {
    private let stack = Mutex<[RowScratch]>([])

    /// `count` scratch sets, each at least `width` wide; hand them back with `recycle`.
    func take(_ count: Int, width: Int) -> [RowScratch] {
        var taken = stack.withLock { pool -> [RowScratch] in
            let n = min(count, pool.count)
            let got = Array(pool.suffix(n))
            pool.removeLast(n)
            return got
        }
        while taken.count < count { taken.append(RowScratch()) }
        for s in taken { s.reserve(width) }
        return taken
    }

    func recycle(_ scratch: [RowScratch]) {
        stack.withLock { $0.append(contentsOf: scratch) }
    }
}
