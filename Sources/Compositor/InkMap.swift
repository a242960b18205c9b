/// Where a texture's rows hold anything: per texel row (the padding row and
/// column included), one bit per chunk of 16 texels (64 bytes, a cache line of
/// a row), set when a texel of the chunk is not all zeros.
///
/// Why: a snapshot is its view's content drawn onto a transparent bitmap, so
/// most of a card's or a header's snapshot is transparent texels around a few
/// labels. A bilinear sample of transparent texels is exactly 0 (every lerp of
/// zeros is zero), and source-over of 0 leaves the target as it was, at any
/// alpha (`div255(d * 255) == d`). So the separable sampler (`BitmapSampler`)
/// blends only the texel runs a row's two texel rows ink, and leaves the other
/// pixels alone, or, for a bitmap laid over its group's solid (`BitmapFill.backing`),
/// fills them with that colour: the same bytes, without sampling. The
/// benchmark transition's snapshots, a third of its sampled pixels, are about
/// nine-tenths transparent (benchmarks/RESULTS.md has the figures).
///
/// Why chunks of 16 and not runs of texels: a row's mask is one or two words
/// (a 1920-texel row has 121 chunks), made in the pass that writes the texture
/// and cheap to combine for a pair of rows; a run of clear texels shorter than a
/// chunk saves too little to be worth a split of the row anyway.
///
/// Nil for opaque textures (every chunk is inked) and for plane layers, whose
/// samplers (`ProjectedSampling`) do not read it.
struct InkMap {
    static let chunkTexels = 16
    private static let chunksPerWord = 64
    /// Clear gaps narrower than this many chunks stay inside a run (a split costs a kernel call and two ragged ends).
    static let minimumGapChunks = 2
    /// Runs a row is cut into at most (`BitmapSampler` keeps them in the band's scratch); the rest merge into the last.
    static let maximumRuns = 16

    let wordsPerRow: Int
    /// `wordsPerRow` words per texel row, `height + 1` rows; owned by the texture.
    let words: UnsafeMutablePointer<UInt64>
    /// The texels of inked chunks, as half-open ranges of texel columns and rows (padding included);
    /// empty when nothing is inked. Rotated mappings, which cross rows, cut their rows to it.
    let box: (columns: Range<Int>, rows: Range<Int>)

    /// The map of `rows` rows of `wordsPerRow` words each at `words`, rows `texels` texels wide.
    init(wordsPerRow: Int, words: UnsafeMutablePointer<UInt64>, rows: Int, texels: Int) {
        self.wordsPerRow = wordsPerRow
        self.words = words
        var firstRow = rows, lastRow = -1
        var any = [UInt64](repeating: 0, count: wordsPerRow)
        for y in 0 ..< rows {
            var inked = false
            for w in 0 ..< wordsPerRow where words[y * wordsPerRow + w] != 0 {
                any[w] |= words[y * wordsPerRow + w]
                inked = true
            }
            if inked {
                firstRow = min(firstRow, y)
                lastRow = y
            }
        }
        guard let first = any.firstIndex(where: { $0 != 0 }), let last = any.lastIndex(where: { $0 != 0 }) else {
            box = (0 ..< 0, 0 ..< 0)
            return
        }
        let firstChunk = first * Self.chunksPerWord + any[first].trailingZeroBitCount
        let lastChunk = last * Self.chunksPerWord + (Self.chunksPerWord - 1 - any[last].leadingZeroBitCount)
        box = (firstChunk * Self.chunkTexels ..< min((lastChunk + 1) * Self.chunkTexels, texels), firstRow ..< lastRow + 1)
    }

    /// Words for `texels` texels a row (width plus padding).
    static func wordsPerRow(texels: Int) -> Int {
        (texels + chunkTexels * chunksPerWord - 1) / (chunkTexels * chunksPerWord)
    }

    /// Sets `mask`'s bits for the chunks of `row` (`texels` texels) that are not all zeros.
    static func scan(_ row: UnsafeRawPointer, texels: Int, into mask: UnsafeMutablePointer<UInt64>, words: Int) {
        mask.update(repeating: 0, count: words)
        let fullChunks = texels / chunkTexels
        for chunk in 0 ..< fullChunks {
            // Or-folded to one 64-bit word (SIMD `!=` compares lane by lane in scalar code).
            let v = row.loadUnaligned(fromByteOffset: chunk &* 64, as: SIMD8<UInt64>.self)
            let h = v.lowHalf | v.highHalf
            let q = h.lowHalf | h.highHalf
            if q[0] | q[1] != 0 { mask[chunk / chunksPerWord] |= 1 &<< UInt64(chunk % chunksPerWord) }
        }
        var tail: UInt32 = 0
        for texel in fullChunks &* chunkTexels ..< texels { tail |= row.load(fromByteOffset: texel &* 4, as: UInt32.self) }
        if tail != 0 { mask[fullChunks / chunksPerWord] |= 1 &<< UInt64(fullChunks % chunksPerWord) }
    }

    /// Reference form of `scan`, one texel at a time: the bit of chunk `k` is set when any texel of it is not zero.
    static func scanReference(_ row: UnsafeRawPointer, texels: Int) -> [Bool] {
        stride(from: 0, to: texels, by: chunkTexels).map { start in
            (start ..< min(start + chunkTexels, texels)).contains { row.load(fromByteOffset: $0 * 4, as: UInt32.self) != 0 }
        }
    }

    /// Row `y`'s word `word`, or-ed with row `y2`'s.
    @inline(__always)
    private func word(_ word: Int, _ y: Int, _ y2: Int?) -> UInt64 {
        let w = words[y &* wordsPerRow &+ word]
        guard let y2 else { return w }
        return w | words[y2 &* wordsPerRow &+ word]
    }

    /// The first chunk in `from ..< end` whose bit is `set` (in rows `y`, `y2` or-ed), or `end`.
    @inline(__always)
    private func next(_ set: Bool, from: Int, end: Int, _ y: Int, _ y2: Int?) -> Int {
        var chunk = from
        while chunk < end {
            let shift = UInt64(chunk % Self.chunksPerWord)
            var w = word(chunk / Self.chunksPerWord, y, y2)
            if !set { w = ~w }
            w >>= shift
            if w != 0 { return min(chunk + w.trailingZeroBitCount, end) }
            chunk += Self.chunksPerWord - Int(shift)
        }
        return end
    }

    /// The inked texel runs of row `y`, with row `y2` too if given, that meet texels
    /// `first ... last`: half-open texel ranges, ascending, written as pairs into `runs`
    /// (room for `maximumRuns`); returns how many. A run covers whole chunks (so it may reach
    /// outside `first ... last`); clear gaps narrower than `minimumGapChunks` are kept inside runs.
    func runs(row y: Int, and y2: Int?, texels first: Int, _ last: Int, into runs: UnsafeMutablePointer<Int32>) -> Int {
        let end = last / Self.chunkTexels + 1
        var count = 0
        var start = next(true, from: first / Self.chunkTexels, end: end, y, y2)
        while start < end {
            var stop = next(false, from: start, end: end, y, y2)
            var following = next(true, from: stop, end: end, y, y2)
            while following < end && following - stop < Self.minimumGapChunks {
                stop = next(false, from: following, end: end, y, y2)
                following = next(true, from: stop, end: end, y, y2)
            }
            if count == Self.maximumRuns {
                runs[2 * count - 1] = Int32(stop * Self.chunkTexels)
            } else {
                runs[2 * count] = Int32(start * Self.chunkTexels)
                runs[2 * count + 1] = Int32(stop * Self.chunkTexels)
                count += 1
            }
            start = following
        }
        return count
    }
}
