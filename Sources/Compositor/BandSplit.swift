/// Which band draws which chunk of rows (`Rasterizer.chunkRows` rows each): chunks are dealt out in a fixed
/// pattern of `period` chunks, interleaved so that the busy part of the frame, top or bottom, is shared, and
/// each band gets its share of every stretch of rows. Evenly (`even`: band `k` of `n` takes chunks
/// `k, k + n, ...`), or by shares (`init(shares:)`), which `FrameRenderer` sets from how long each band took
/// on the last frame.
///
/// Why shares: on a shared machine two cores do not run at the same speed for long, and a frame waits for its
/// slowest band. Timing the bench scene's bands one after another gave them equal work; drawn in parallel,
/// either took up to 45% longer than the other for stretches of many frames, whichever core the host slowed
/// (benchmarks/RESULTS.md). Dealing out chunks rather than stealing them keeps each band's set-up to one per
/// item, where bands taking strips as they free up set items up again for every strip and cost 7% more CPU.
/// Which band draws a row never changes its bytes (`Rasterizer`), so the split is free to follow the timing.
struct BandSplit: Sendable, Equatable {
    static let period = 64

    let bands: Int
    /// `owners[c % period]`: the band drawing chunk `c`; empty for the even split.
    private let owners: [UInt8]

    static func even(_ bands: Int) -> BandSplit { BandSplit(bands: max(1, bands), owners: []) }

    private init(bands: Int, owners: [UInt8]) {
        self.bands = bands
        self.owners = owners
    }

    /// `shares.count` bands, band `k` dealt about `shares[k]` of every `period` chunks, spread by smooth
    /// weighted round robin (a band whose share rounds to no chunk draws nothing: the others draw every row).
    /// Shares that are not finite and positive give the even split.
    init(shares: [Double]) {
        let n = max(1, min(shares.count, Self.period))
        guard n > 1, shares.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            self = .even(n)
            return
        }
        let total = shares.prefix(n).reduce(0, +)
        let weights = shares.prefix(n).map { $0 / total }
        var credit = [Double](repeating: 0, count: n)
        var owners = [UInt8](repeating: 0, count: Self.period)
        for c in 0 ..< Self.period {
            for k in 0 ..< n { credit[k] += weights[k] }
            var best = 0
            for k in 1 ..< n where credit[k] > credit[best] { best = k }
            credit[best] -= 1
            owners[c] = UInt8(best)
        }
        self.init(bands: n, owners: owners)
    }

    /// The band drawing chunk `chunk` (0 or more).
    @inline(__always)
    func owner(ofChunk chunk: Int) -> Int {
        owners.isEmpty ? chunk % bands : Int(owners[chunk % Self.period])
    }

    /// The split for the next frame after this one's bands took `seconds`: each band's share in proportion to
    /// the speed it showed (its share over its time), half-way from this split, each between half and one and a
    /// half times the even share. This split again when a time is not usable.
    func next(after seconds: [Double]) -> BandSplit {
        guard bands > 1, seconds.count == bands, seconds.allSatisfy({ $0.isFinite && $0 > 0 }) else { return self }
        let current = shares
        let speeds = (0 ..< bands).map { current[$0] / seconds[$0] }
        let total = speeds.reduce(0, +)
        let even = 1 / Double(bands)
        return BandSplit(shares: (0 ..< bands).map { k in
            min(1.5 * even, max(0.5 * even, 0.5 * current[k] + 0.5 * speeds[k] / total))
        })
    }

    /// Each band's share of the chunks.
    var shares: [Double] {
        (0 ..< bands).map { k in Double((0 ..< Self.period).filter { owner(ofChunk: $0) == k }.count) / Double(Self.period) }
    }
}
