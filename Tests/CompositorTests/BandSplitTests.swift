import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Band split")
struct BandSplitTests {
    static func counts(_ split: BandSplit) -> [Int] {
        (0 ..< split.bands).map { k in (0 ..< BandSplit.period).filter { split.owner(ofChunk: $0) == k }.count }
    }

    @Test("Even: band k of n draws chunks k, k + n, ...; by shares: about each share of every 64 chunks, interleaved")
    func dealing() {
        for n in 1 ... 4 {
            let even = BandSplit.even(n)
            #expect((0 ..< 200).allSatisfy { even.owner(ofChunk: $0) == $0 % n })
        }
        let skewed = BandSplit(shares: [3, 1])
        #expect(Self.counts(skewed) == [48, 16])
        // Interleaved: band 1 gets one chunk in every four, not a block of sixteen.
        let second = (0 ..< BandSplit.period).filter { skewed.owner(ofChunk: $0) == 1 }
        #expect(zip(second, second.dropFirst()).allSatisfy { $1 - $0 == 4 })
        #expect(Self.counts(BandSplit(shares: [0.5, 0.3, 0.2])) == [32, 19, 13])
        // Not usable: even.
        #expect(BandSplit(shares: [1, .nan]) == .even(2) && BandSplit(shares: [0, 1]) == .even(2))
    }

    @Test("The next split gives the faster band more rows, half-way, within half and 1.5 times the even share")
    func following() {
        // Band 0 took half as long: speeds 1 : 0.5, so 2/3 of the rows; half-way from 1/2 is 7/12 (37.3 of 64).
        let next = BandSplit.even(2).next(after: [0.001, 0.002])
        #expect(Self.counts(next) == [37, 27])
        // A band that stays ten times slower ends at the bound, 1.5 times the even share.
        var split = BandSplit.even(2)
        for _ in 0 ..< 20 { split = split.next(after: [0.001, 0.010]) }
        #expect(Self.counts(split) == [48, 16])
        // Times that cannot be used keep the split.
        #expect(split.next(after: [0, 0.01]) == split && split.next(after: [.infinity, 1]) == split && split.next(after: [1]) == split)
    }

    @Test("A row ahead is the row the same band draws two rows later, with an uneven split too")
    func rowsAheadFollowTheBand() {
        let rows = 5 ..< 5 + 70 * Rasterizer.chunkRows
        for split in [BandSplit(shares: [0.7, 0.3]), BandSplit(shares: [0.2, 0.5, 0.3])] {
            var drawn = Set<Int>()
            for band in 0 ..< split.bands {
                var order: [Int] = []
                Rasterizer.forEachRow(of: band, in: split, rows: rows) { order.append($0) }
                #expect(drawn.isDisjoint(with: order))
                drawn.formUnion(order)
                for (k, y) in order.enumerated().dropLast(2) {
                    #expect(Rasterizer.rowAhead(y, by: 2, split: split) == order[k + 2], "band \(band), row \(y)")
                }
            }
            #expect(drawn == Set(rows))
        }
    }

    @Test("Any split draws the same bytes", arguments: [1 as UInt64, 2])
    func sameBytes(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31)]
        let (w, h) = (157, 221)
        let list = GroupTests.groupedList(seed: seed, width: w, height: h, images: images.count)
        let sources = Rasterizer.Sources(images: images.map(Rasterizer.Sources.chain), snapshots: [])
        let prepared = Rasterizer.prepare(list, width: w, height: h, sources: sources)
        func drawn(_ split: BandSplit) -> Bitmap {
            var target = Bitmap(width: w, height: h)
            Rasterizer.drawBanded(
                prepared, background: SIMD4(10, 20, 30, 255), target: &target,
                scratch: (0 ..< split.bands).map { _ in RowScratch(width: w) }, layers: LayerPool(), split: split)
            return target
        }
        let even = drawn(.even(1))
        #expect(coverageSum(even) > 0)
        for split in [BandSplit(shares: [0.8, 0.2]), BandSplit(shares: [0.2, 0.8]), BandSplit(shares: [0.1, 0.3, 0.6])] {
            #expect(drawn(split) == even)
        }
    }
}
