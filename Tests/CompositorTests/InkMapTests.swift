import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Ink maps: transparent texels skipped")
struct InkMapTests {
    /// `width x height`, transparent but for random rectangles (opaque, translucent, and one
    /// texel of colour without alpha, which is not transparent), a row of dots 40 texels apart
    /// (more runs than a row keeps), and the last column and row touched; or, `centred`, only
    /// rectangles in the middle half (so the box of inked texels reaches no edge).
    static func sparseBitmap(width: Int, height: Int, seed: UInt64, centred: Bool = false) -> Bitmap {
        var rng = SeededGenerator(seed: seed)
        var b = Bitmap(width: width, height: height)
        func set(_ x: Int, _ y: Int, _ p: (UInt8, UInt8, UInt8, UInt8)) { b.setPixel(x: x, y: y, p) }
        for _ in 0 ..< 9 {
            let w = Int.random(in: 3 ... 160, using: &rng), h = Int.random(in: 2 ... 40, using: &rng)
            let (xs, ys) = centred
                ? (width / 4 ..< width * 3 / 4 - w, height / 4 ..< height * 3 / 4 - h) : (0 ..< width - w, 0 ..< height - h)
            let x0 = Int.random(in: xs, using: &rng), y0 = Int.random(in: ys, using: &rng)
            let a = Bool.random(using: &rng) ? UInt8(255) : UInt8.random(in: 1 ... 254, using: &rng)
            for y in y0 ..< y0 + h {
                for x in x0 ..< x0 + w {
                    set(x, y, (UInt8.random(in: 0 ... a, using: &rng), UInt8.random(in: 0 ... a, using: &rng), 0, a))
                }
            }
        }
        if centred { return b }
        for x in stride(from: 5, to: width, by: 40) { set(x, height / 2, (200, 10, 60, 255)) }
        set(width - 1, 3, (0, 0, 255, 255))
        set(17, height - 1, (255, 255, 0, 255))
        set(width / 3, height / 4, (9, 0, 0, 0))
        return b
    }

    @Test("A row's chunk bits are set exactly where a texel of the chunk is not zero (every tail length)")
    func scanMatchesReference() {
        var rng = SeededGenerator(seed: 0x1_4C)
        for texels in Array(1 ... 70) + [1023, 1024, 1025, 1921] {
            for density in [0, 1, 5, 60] {
                var row = [UInt32](repeating: 0, count: texels + 16)
                for i in 0 ..< texels where Int.random(in: 0 ..< 100, using: &rng) < density {
                    // Any byte may carry the ink, alpha or not.
                    row[i] = UInt32(UInt8.random(in: 1 ... 255, using: &rng)) << (8 * UInt32.random(in: 0 ... 3, using: &rng))
                }
                let words = InkMap.wordsPerRow(texels: texels)
                var mask = [UInt64](repeating: .max, count: words)
                row.withUnsafeBytes { raw in
                    mask.withUnsafeMutableBufferPointer {
                        InkMap.scan(raw.baseAddress!, texels: texels, into: $0.baseAddress!, words: words)
                    }
                    let expected = InkMap.scanReference(raw.baseAddress!, texels: texels)
                    let bits = (0 ..< words * 64).map { mask[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
                    #expect(Array(bits.prefix(expected.count)) == expected, "\(texels) texels, density \(density)")
                    #expect(!bits.dropFirst(expected.count).contains(true), "\(texels) texels: bits past the row")
                }
            }
        }
    }

    /// The runs `InkMap.runs` should give for per-chunk flags, worked out one chunk at a time.
    static func referenceRuns(_ inked: [Bool], first: Int, last: Int) -> [Int32] {
        var runs: [(Int, Int)] = []
        var chunk = first / InkMap.chunkTexels
        let lastChunk = last / InkMap.chunkTexels
        while chunk <= lastChunk {
            guard inked[chunk] else {
                chunk += 1
                continue
            }
            let start = chunk
            var end = chunk + 1
            var gap = 0
            chunk += 1
            while chunk <= lastChunk {
                if inked[chunk] {
                    end = chunk + 1
                    gap = 0
                } else {
                    gap += 1
                    if gap == InkMap.minimumGapChunks { break }
                }
                chunk += 1
            }
            runs.append((start, end))
        }
        if runs.count > InkMap.maximumRuns {
            runs = Array(runs.prefix(InkMap.maximumRuns - 1)) + [(runs[InkMap.maximumRuns - 1].0, runs.last!.1)]
        }
        return runs.flatMap { [Int32($0.0 * InkMap.chunkTexels), Int32($0.1 * InkMap.chunkTexels)] }
    }

    @Test("Runs of one row or two rows or-ed: whole chunks, narrow gaps kept, at most maximumRuns, any texel range")
    func runsMatchReference() {
        var rng = SeededGenerator(seed: 0x2_4C)
        for chunks in [1, 3, 64, 65, 130, 200] {
            let words = (chunks + 63) / 64
            for density in [0, 3, 20, 50, 90, 100] {
                var storage = [UInt64](repeating: 0, count: 2 * words)
                var flags = [[Bool]](repeating: [Bool](repeating: false, count: chunks), count: 2)
                for r in 0 ..< 2 {
                    for c in 0 ..< chunks where Int.random(in: 0 ..< 100, using: &rng) < density {
                        flags[r][c] = true
                        storage[r * words + c / 64] |= 1 << UInt64(c % 64)
                    }
                }
                let texels = chunks * InkMap.chunkTexels
                storage.withUnsafeMutableBufferPointer { buffer in
                    let map = InkMap(wordsPerRow: words, words: buffer.baseAddress!, rows: 2, texels: texels)
                    var out = [Int32](repeating: -1, count: 2 * InkMap.maximumRuns)
                    for _ in 0 ..< 12 {
                        let first = Int.random(in: 0 ..< texels, using: &rng)
                        let last = Int.random(in: first ..< texels, using: &rng)
                        for pair in [false, true] {
                            let inked = pair ? zip(flags[0], flags[1]).map { $0 || $1 } : flags[1]
                            let n = out.withUnsafeMutableBufferPointer {
                                map.runs(row: 1, and: pair ? 0 : nil, texels: first, last, into: $0.baseAddress!)
                            }
                            let expected = Self.referenceRuns(inked, first: first, last: last)
                            #expect(Array(out.prefix(2 * n)) == expected, "\(chunks) chunks, \(density)%, \(first)...\(last)")
                        }
                    }
                }
            }
        }
    }

    @Test("A texture keeps an ink map unless it is opaque or made without one; its levels have their own")
    func textureInk() {
        let sparse = Self.sparseBitmap(width: 300, height: 90, seed: 7)
        let chain = MipChain(sparse)
        #expect(chain.base.ink != nil && chain.level(1, 2).ink != nil)
        #expect(MipChain(sparse, tracksInk: false).base.ink == nil && MipChain(sparse, tracksInk: false).level(1, 0).ink == nil)
        var opaque = sparse
        for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
        #expect(MipChain(opaque).base.ink == nil)
        // The padding row repeats the last row's bits; a row with nothing is all clear.
        let base = chain.base
        let ink = base.ink!
        for w in 0 ..< ink.wordsPerRow {
            #expect(ink.words[base.height * ink.wordsPerRow + w] == ink.words[(base.height - 1) * ink.wordsPerRow + w])
        }
        #expect(ink.words[base.height / 2 * ink.wordsPerRow] != 0)
    }

    /// `list` drawn over a translucent background, its images as chains with or without ink maps.
    static func render(_ list: DisplayList, width: Int, height: Int, images: [Bitmap], tracksInk: Bool, threads: Int) -> Bitmap {
        let sources = Rasterizer.Sources(images: images.map { MipChain($0, tracksInk: tracksInk) }, snapshots: [])
        let prepared = Rasterizer.prepare(list, width: width, height: height, sources: sources, threads: threads)
        let backdrop = RGBAColor(red: 0.3, green: 0.6, blue: 0.2, alpha: 0.7)
        return drawBanded(prepared, width: width, height: height, threads: threads, backdrop: backdrop)
    }

    @Test(
        "Ink maps give the bytes of sampling every texel (copy, scaled, mirrored, rotated, clipped; over a group's solid)",
        arguments: [1, 3])
    func inkedDrawingIsExact(threads: Int) {
        let (w, h) = (720, 200)
        let sparse = Self.sparseBitmap(width: w, height: h, seed: 0x3_4C)
        let centred = Self.sparseBitmap(width: w, height: h, seed: 5, centred: true)
        let source = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        let placements: [(String, AffineTransform2D)] = [
            ("copy", .translation(3, 5)),
            ("fractional", .translation(10.5, 7.25)),
            ("magnified", AffineTransform2D.scale(1.5, 1.5).concatenating(.translation(-40.3, 2.6))),
            ("minified", AffineTransform2D.scale(0.7, 0.7).concatenating(.translation(12.2, 30.1))),
            ("mip level", AffineTransform2D.scale(0.3, 0.45).concatenating(.translation(100.6, 20))),
            ("stretched", AffineTransform2D.scale(1.3, 0.45).concatenating(.translation(-5, 140.5))),
            ("mirrored", AffineTransform2D.scale(-0.9, 1).concatenating(.translation(700.4, 10))),
            ("rotated", AffineTransform2D.scale(0.8, 0.8).concatenating(rotation(degrees: 7, about: 300, 100))),
            ("rotated further", AffineTransform2D.scale(1.2, 0.5).concatenating(rotation(degrees: -35, about: 380, 130))),
            ("rotated, minified", AffineTransform2D.scale(0.35, 0.35).concatenating(rotation(degrees: 100, about: 200, 60))),
        ]
        let clip = Clip(transform: .identity, shape: rect(30, 12, 600, 230, radius: 40))
        // The centred image's box of inked texels cuts rotated rows on every side.
        let cases = placements.map { (sparse, $0.0, $0.1) } + placements.filter { $0.0.hasPrefix("rotated") }.map { (centred, $0.0, $0.1) }
        for (image, name, transform) in cases {
            for opacity in [1, 0.55] {
                for (radius, clips) in [(0.0, [Clip]()), (23, [clip])] {
                    let shape = RoundedRect(rect: source, cornerRadius: radius)
                    let bitmap = DrawItem(transform: transform, shape: shape, paint: .bitmap(.image(0)), opacity: opacity, clips: clips)
                    // A screen cross-fading: its solid, then its snapshot at opacity 1, in a translucent group.
                    let solid = solidItem(shape, RGBAColor(red: 0.9, green: 0.8, blue: 0.1), transform: transform)
                    let unit = DrawItem(transform: transform, shape: shape, paint: .bitmap(.image(0)), clips: clips)
                    let screen = GroupTests.group([solid, unit], shape, opacity: opacity * 0.8, transform: transform)
                    for list in [[bitmap], [screen]] {
                        let display = DisplayList(items: list)
                        let inked = Self.render(display, width: 760, height: 260, images: [image], tracksInk: true, threads: threads)
                        let plain = Self.render(display, width: 760, height: 260, images: [image], tracksInk: false, threads: threads)
                        #expect(inked == plain, "\(name), opacity \(opacity), radius \(radius), \(list[0] == screen ? "group" : "item")")
                    }
                    if name == "copy" && radius == 0 {
                        // The group's rows are drawn without its layer, the samples over the solid's colour.
                        let sources = Rasterizer.Sources(images: [MipChain(image)], snapshots: [])
                        let prepared = Rasterizer.prepare(DisplayList(items: [screen]), width: 760, height: 260, sources: sources)
                        #expect(prepared.items.contains { if case .bitmap(let f) = $0.fill { f.backing != nil } else { false } })
                    }
                }
            }
        }
    }
}
