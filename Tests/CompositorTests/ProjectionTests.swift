import Testing
import Primitives
import FramePlan
@testable import Compositor

/// Projected items (`DrawItem.projection`): geometry against Core Animation's
/// matrix worked by hand, perspective-correct sampling, the SIMD sampler
/// against its Double reference, thread determinism, 2-D output untouched,
/// groups and snapshots, and bad input.
@Suite("Projected items")
struct ProjectionTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A layer of `size` whose anchor (its centre) sits at `position`, under
    /// `rotation` then `perspective(d)`: CA's `translate(-anchor) . rotation . perspective . translate(position)`.
    static func projection(
        size: (Double, Double), position: (Double, Double), rotation: Transform3D, perspective d: Double
    ) -> Homography {
        Transform3D.translation(-size.0 / 2, -size.1 / 2, 0)
            .concatenating(rotation)
            .concatenating(.perspective(d))
            .concatenating(.translation(position.0, position.1, 0))
            .flattened
    }

    static func rotateY(_ degrees: Double) -> Transform3D { .rotation(degrees * .pi / 180, axis: 0, 1, 0) }
    static func rotateX(_ degrees: Double) -> Transform3D { .rotation(degrees * .pi / 180, axis: 1, 0, 0) }

    static func alpha(_ b: Bitmap, _ x: Int, _ y: Int) -> Double { Double(b.pixel(x: x, y: y).a) / 255 }

    /// Where alpha crosses 0.5 along row `y` between columns `from` and `to`
    /// (pixel centres at x + 0.5, linear between them).
    static func crossing(_ b: Bitmap, row y: Int, from: Int, to: Int) -> Double? {
        let step = from < to ? 1 : -1
        var x = from
        while x != to {
            let a0 = alpha(b, x, y)
            let a1 = alpha(b, x + step, y)
            if (a0 - 0.5) * (a1 - 0.5) <= 0 && a0 != a1 {
                return Double(x) + 0.5 + Double(step) * (0.5 - a0) / (a1 - a0)
            }
            x += step
        }
        return nil
    }

    // MARK: (a) Geometry against the matrix

    @Test("rotateY 60 degrees with perspective 500 lands where Core Animation's matrix puts the edges")
    func rotateYEdges() {
        // A 200 x 100 layer, anchor at its centre, positioned at the centre (200, 150) of a 400 x 300 canvas.
        // Row vectors: a local point (x, y) becomes (X, Y) = (x - 100, y - 50) after translate(-anchor).
        // rotation(60 deg about y) has rows (c, 0, -s, 0), (0, 1, 0, 0), (s, 0, c, 0), (0, 0, 0, 1)
        // (c = cos 60 = 0.5, s = sin 60 = 0.8660254), so (X, Y, 0, 1) -> (X c, Y, -X s, 1): the right
        // edge (X > 0) gets z < 0, away from the eye at z = +500.
        // perspective(500) sets m34 = -1/500: w = 1 - z / 500 = 1 + X s / 500.
        // translate(200, 150) adds (200 w, 150 w), so the image is
        //   x' = 200 + X c / (1 + X s / 500),   y' = 150 + Y / (1 + X s / 500).
        // Right edge X = 100: w = 1 + 86.60254 / 500 = 1.1732051, x' = 200 + 50 / 1.1732051 = 242.61829,
        //   height 100 / w = 85.23659 (shorter: farther away).
        // Left edge X = -100: w = 1 - 0.1732051 = 0.8267949, x' = 200 - 50 / 0.8267949 = 139.52551,
        //   height 100 / w = 120.94898.
        // The top and bottom edges stay straight lines, so the height at column centre x is linear between
        // them: slope (85.23659 - 120.94898) / (242.61829 - 139.52551) = -0.3464102 per pixel;
        //   x = 141.5: 120.94898 - 1.97449 * 0.3464102 = 120.26499;
        //   x = 240.5: 120.94898 - 100.97449 * 0.3464102 = 85.97039.
        let h = Self.projection(size: (200, 100), position: (200, 150), rotation: Self.rotateY(60), perspective: 500)
        let item = DrawItem(transform: .identity, shape: rect(0, 0, 200, 100), paint: .solid(Self.red), projection: h)
        let frame = draw([item], width: 400, height: 300)
        let left = Self.crossing(frame, row: 150, from: 130, to: 200)
        let right = Self.crossing(frame, row: 150, from: 260, to: 200)
        #expect(left.map { abs($0 - 139.52551) <= 0.5 } == true, "left edge at \(String(describing: left))")
        #expect(right.map { abs($0 - 242.61829) <= 0.5 } == true, "right edge at \(String(describing: right))")
        func columnHeight(_ x: Int) -> Double { (0 ..< 300).reduce(0) { $0 + Self.alpha(frame, x, $1) } }
        #expect(abs(columnHeight(141) - 120.26499) <= 0.5, "left height \(columnHeight(141))")
        #expect(abs(columnHeight(240) - 85.97039) <= 0.5, "right height \(columnHeight(240))")
        // Interior is exactly the colour.
        #expect(frame.pixel(x: 190, y: 150) == (255, 0, 0, 255))
    }

    // MARK: (f) Perspective-correct sampling

    @Test("A checkerboard on a tilted plane: each cell's projected centre shows that cell (affine would miss)")
    func perspectiveCorrectSampling() {
        // A 4 x 4 board of 16-texel cells, each its own colour, stretched over a 240 x 240 layer
        // (60 units a cell), tilted back by rotateX 60 degrees with perspective 300, at (200, 200).
        let cells = 4
        var board = Bitmap(width: 64, height: 64)
        func colour(_ i: Int, _ j: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            (UInt8(40 + 60 * i), UInt8(40 + 60 * j), UInt8((i + j) % 2 == 0 ? 255 : 0), 255)
        }
        for y in 0 ..< 64 {
            for x in 0 ..< 64 { board.setPixel(x: x, y: y, colour(x / 16, y / 16)) }
        }
        let h = Self.projection(size: (240, 240), position: (200, 200), rotation: Self.rotateX(60), perspective: 300)
        let item = DrawItem(transform: .identity, shape: rect(0, 0, 240, 240), paint: .bitmap(.image(0)), projection: h)
        let frame = draw([item], width: 400, height: 400, images: [board])
        // The four corners' images, for the affine (bilinear-in-screen) guess an affine sampler would make.
        let corners = [Point(x: 0, y: 0), Point(x: 240, y: 0), Point(x: 0, y: 240), Point(x: 240, y: 240)].compactMap(h.apply)
        #expect(corners.count == 4)
        var affineMisses = 0
        for j in 0 ..< cells {
            for i in 0 ..< cells {
                let u = (Double(i) + 0.5) / Double(cells)
                let v = (Double(j) + 0.5) / Double(cells)
                guard let centre = h.apply(Point(x: u * 240, y: v * 240)) else {
                    Issue.record("cell centre behind the eye")
                    continue
                }
                let p = frame.pixel(x: Int(centre.x), y: Int(centre.y))
                #expect(p == colour(i, j), "cell \(i),\(j) at \(centre)")
                // What screen-space interpolation of the corners would sample for this cell's centre.
                let top = (corners[0].x + (corners[1].x - corners[0].x) * u, corners[0].y + (corners[1].y - corners[0].y) * u)
                let bottom = (corners[2].x + (corners[3].x - corners[2].x) * u, corners[2].y + (corners[3].y - corners[2].y) * u)
                let guess = (top.0 + (bottom.0 - top.0) * v, top.1 + (bottom.1 - top.1) * v)
                if frame.pixel(x: Int(guess.0), y: Int(guess.1)) != colour(i, j) { affineMisses += 1 }
            }
        }
        // The tilt is strong enough that affine interpolation lands in the wrong cell somewhere.
        #expect(affineMisses > 0)
    }

    // MARK: (c) SIMD against the scalar reference

    static func layerFill(
        _ item: DrawItem, width: Int, height: Int, images: [Bitmap], threads: Int = 1
    ) -> (PreparedItem, ProjectedLayerFill)? {
        let sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: DisplayList(items: [item]))
        var items: [PreparedItem] = []
        PreparedItem.append(
            item, target: PixelBox(x0: 0, y0: 0, x1: width, y1: height), sources: sources, depth: 0, threads: threads,
            into: &items)
        guard let first = items.first, case .projected(let fill) = first.fill else { return nil }
        return (first, fill)
    }

    @Test("The SIMD coordinate and gather passes match the Double reference (interior, edges, levels, behind the eye)")
    func simdMatchesReference() throws {
        var rng = SeededGenerator(seed: 17)
        let image = randomBitmap(width: 97, height: 61, using: &rng)
        let (w, h) = (320, 240)
        // Strong tilt (several mip levels on the far side) and a plane crossing the eye plane (dead pixels).
        let cases: [Homography] = [
            Self.projection(size: (300, 200), position: (160, 140), rotation: Self.rotateX(75), perspective: 250),
            Self.projection(size: (600, 200), position: (160, 120), rotation: Self.rotateY(70), perspective: 150),
            Self.projection(size: (200, 150), position: (150, 110), rotation: Self.rotateY(-35), perspective: 900),
        ]
        let scratch = RowScratch(width: w)
        var levelsSeen = Set<Int>()
        var (live, dead, compared, skipped) = (0, 0, 0, 0)
        for (k, projection) in cases.enumerated() {
            let size = k == 1 ? (600.0, 200.0) : k == 0 ? (300.0, 200.0) : (200.0, 150.0)
            let item = DrawItem(
                transform: .identity, shape: rect(0, 0, size.0, size.1), paint: .bitmap(.image(0)), projection: projection)
            let (_, fill) = try #require(Self.layerFill(item, width: w, height: h, images: [image]))
            let texels = fill.layer.texels
            for y in stride(from: 0, to: h, by: 3) {
                // Whole rows, including pixels outside the outline and behind the eye; odd starts and counts.
                let x0 = y % 5
                let count = w - x0 - y % 7
                ProjectedSampling.coordinates(
                    texels, y: y, x0: x0, count: count, offsets: scratch.pixelOffsets, levels: scratch.pixelLevels,
                    weightsX: scratch.pixelWeightsX, weightsY: scratch.pixelWeightsY, live: scratch.coverage)
                ProjectedSampling.gather(
                    texels, offsets: scratch.pixelOffsets, levels: scratch.pixelLevels, weightsX: scratch.pixelWeightsX,
                    weightsY: scratch.pixelWeightsY, count: count, into: UnsafeMutableRawPointer(scratch.source))
                for i in 0 ..< count {
                    let r = ProjectedSampling.referencePixel(texels, x: x0 + i, y: y)
                    if r.nearBoundary {
                        skipped += 1
                        continue
                    }
                    compared += 1
                    let kernelLive = scratch.coverage[i] == 1
                    #expect(kernelLive == r.live, "live at \(x0 + i), \(y), case \(k)")
                    guard r.live, kernelLive else {
                        dead += 1
                        continue
                    }
                    live += 1
                    levelsSeen.insert(r.level.x * 16 + r.level.y)
                    let level = Int(scratch.pixelLevels[i])
                    #expect(level == r.level.x * (texels.maxLevelY + 1) + r.level.y, "level at \(x0 + i), \(y)")
                    let kernel = UnsafeRawPointer(scratch.source).load(fromByteOffset: 4 * i, as: UInt32.self)
                    for c in 0 ..< 4 {
                        let a = Int((kernel >> (8 * c)) & 0xFF)
                        let b = Int((r.sample >> (8 * c)) & 0xFF)
                        if abs(a - b) > 2 {
                            Issue.record("sample \(x0 + i), \(y) case \(k): \(a) vs \(b)")
                        }
                    }
                }
            }
        }
        // Every path was exercised, and ambiguity was rare.
        #expect(live > 10_000 && dead > 10_000, "live \(live), dead \(dead)")
        #expect(levelsSeen.count >= 3, "levels \(levelsSeen)")
        #expect(skipped * 200 < compared, "skipped \(skipped) of \(compared)")
    }

    @Test("Projected clip coverage: Float rows match the Double reference; an affine map gives CoverageShape's")
    func projectedShapeMatchesReference() throws {
        let h = Self.projection(size: (200, 160), position: (150, 120), rotation: Self.rotateY(50), perspective: 400)
        let shape = try #require(ProjectedShape(transform: .translation(10, 5), shape: rect(0, 0, 180, 140, radius: 30), projection: h))
        var out = [Float](repeating: 0, count: 300)
        var worst = 0.0
        for y in 0 ..< 240 {
            out.withUnsafeMutableBufferPointer { shape.coverageRow(y: y, x0: 0, count: 300, into: $0.baseAddress!) }
            for x in 0 ..< 300 { worst = max(worst, abs(Double(out[x]) - shape.referenceCoverage(x: x, y: y))) }
        }
        #expect(worst < 1e-3, "worst \(worst)")
        // Affine: rotation about (100, 80) as a homography against CoverageShape's exact-model coverage.
        let t = rotation(degrees: 25, about: 100, 80)
        let projected = try #require(
            ProjectedShape(transform: .identity, shape: rect(20, 30, 150, 90, radius: 12), projection: Homography(affine: t)))
        let affine = try #require(CoverageShape(transform: t, shape: rect(20, 30, 150, 90, radius: 12)))
        var worstAffine = 0.0
        for y in 0 ..< 200 {
            for x in 0 ..< 220 {
                worstAffine = max(
                    worstAffine, abs(projected.referenceCoverage(x: x, y: y) - CoverageKernels.referenceCoverage(affine, x: x, y: y)))
            }
        }
        #expect(worstAffine < 1e-9, "worst \(worstAffine)")
    }

    // MARK: (d) Threads, (b) 2-D output untouched

    static func projectedList() -> (DisplayList, [Bitmap]) {
        var rng = SeededGenerator(seed: 5)
        let image = randomBitmap(width: 50, height: 40, using: &rng)
        let h1 = Self.projection(size: (200, 120), position: (120, 90), rotation: Self.rotateY(55), perspective: 300)
        let h2 = Self.projection(size: (160, 160), position: (260, 170), rotation: Self.rotateX(-40), perspective: 350)
        let clip = Clip(transform: .identity, shape: rect(20, 10, 300, 200, radius: 20))
        let projectedClip = Clip(transform: .identity, shape: rect(10, 10, 140, 140, radius: 30), projection: h2)
        let nested = DisplayList(items: [
            DrawItem(transform: .identity, shape: rect(0, 0, 160, 160, radius: 24), paint: .solid(Self.blue)),
            DrawItem(transform: .translation(30, 30), shape: rect(0, 0, 100, 100), paint: .bitmap(.image(0))),
        ])
        let items = [
            solidItem(rect(0, 0, 340, 240), RGBAColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 1)),
            DrawItem(
                transform: .identity, shape: rect(0, 0, 200, 120, radius: 16), paint: .bitmap(.image(0)), opacity: 0.9,
                clips: [clip], projection: h1),
            DrawItem(transform: .identity, shape: rect(0, 0, 160, 160), paint: .group(nested), opacity: 0.7, projection: h2),
            DrawItem(
                transform: .translation(20, 20), shape: rect(0, 0, 120, 120), paint: .solid(Self.red), opacity: 0.5,
                clips: [projectedClip], projection: h2),
            DrawItem(
                transform: .identity, shape: rect(0, 0, 200, 120),
                paint: .shadow(color: .init(red: 0, green: 0, blue: 0, alpha: 0.5), sigma: 6),
                projection: h1),
        ]
        return (DisplayList(items: items), [image])
    }

    @Test("Projected items (paints, groups, clips) draw byte-identically with 1 and 4 threads")
    func threadDeterminism() {
        let (list, images) = Self.projectedList()
        let one = draw(list.items, width: 340, height: 240, images: images, threads: 1)
        let four = draw(list.items, width: 340, height: 240, images: images, threads: 4)
        #expect(one.pixels == four.pixels)
        // Something of each projected item was drawn (not all background).
        #expect(one.pixel(x: 120, y: 90) != (51, 204, 77, 255))
        #expect(one.pixel(x: 260, y: 170) != (51, 204, 77, 255))
    }

    /// A flip's two full-canvas faces (a bitmap, and a group of a gradient card with a shadow), 480 x 360.
    static func flipFaces() -> (DisplayList, [Bitmap]) {
        var rng = SeededGenerator(seed: 9)
        let image = randomBitmap(width: 60, height: 45, using: &rng)
        let front = Self.projection(size: (480, 360), position: (240, 180), rotation: Self.rotateY(35), perspective: 700)
        let back = Self.projection(size: (480, 360), position: (240, 180), rotation: Self.rotateX(-30), perspective: 600)
        let gradient = GradientPaint(
            kind: .axial, colors: [Self.red, Self.blue], locations: [0, 1], start: Point(x: 0, y: 0), end: Point(x: 400, y: 300))
        let card = DisplayList(items: [
            DrawItem(
                transform: .translation(40, 40), shape: rect(0, 0, 400, 280, radius: 24),
                paint: .shadow(color: .init(red: 0, green: 0, blue: 0, alpha: 0.6), sigma: 10)),
            DrawItem(transform: .translation(40, 40), shape: rect(0, 0, 400, 280, radius: 24), paint: .gradient(gradient)),
        ])
        return (
            DisplayList(items: [
                DrawItem(transform: .identity, shape: rect(0, 0, 480, 360), paint: .bitmap(.image(0)), projection: front),
                DrawItem(transform: .identity, shape: rect(0, 0, 480, 360), paint: .group(card), opacity: 0.8, projection: back),
            ]), [image]
        )
    }

    @Test("A renderer's reused texture storage changes no byte: frames in turn equal a fresh renderer's")
    func reusedStorage() {
        let (list, images) = Self.flipFaces()
        // The same faces turned further: other plane sizes, so blocks are reused at other sizes.
        let turned = DisplayList(items: list.items.enumerated().map { i, item in
            var item = item
            item.projection = Self.projection(
                size: (480, 360), position: (240, 180), rotation: i == 0 ? Self.rotateY(60) : Self.rotateX(-10),
                perspective: 650)
            return item
        })
        let plan = TestPlan(width: 480, height: 360, background: .white, images: images, frames: [list, turned, list])
        for threads in [1, 3] {
            let fresh = (0 ..< 3).map { FrameRenderer(plan: plan, threads: threads).render(frame: $0) }
            let renderer = FrameRenderer(plan: plan, threads: threads)
            for round in 0 ..< 2 {
                for f in [2, 1, 0] { #expect(renderer.render(frame: f) == fresh[f], "frame \(f), round \(round), \(threads) threads") }
            }
            #expect(fresh[0] == fresh[2] && fresh[0] != fresh[1])
        }
    }

    @Test("Texture storage pool: a block comes back for requests it fits within half again, and at most 16 wait")
    func texturePoolBounds() {
        let pool = TexturePool()
        let (a, capacity) = pool.take(1000)
        #expect(capacity >= 1000)
        pool.give(a, capacity: capacity)
        let (b, again) = pool.take(900)
        #expect(b == a && again == capacity)
        pool.give(b, capacity: again)
        let (c, other) = pool.take(capacity * 3)  // too large for the waiting block: a new one
        #expect(c != a && other >= capacity * 3)
        let (d, _) = pool.take(capacity / 4)  // the waiting block would waste more than half: a new one
        #expect(d != a)
        pool.give(c, capacity: other)
        pool.give(d, capacity: capacity / 4)
        let blocks = (0 ..< 20).map { _ in pool.take(64) }
        for (p, n) in blocks { pool.give(p, capacity: n) }
        #expect(pool.waiting <= TexturePool.maxFree)
    }

    @Test("Plane layers drawn with 4 threads: the same layer bytes as 1 thread, and the same frames")
    func planeLayerThreads() throws {
        let (list, images) = Self.flipFaces()
        for item in list.items {
            let (_, one) = try #require(Self.layerFill(item, width: 480, height: 360, images: images, threads: 1))
            let (_, four) = try #require(Self.layerFill(item, width: 480, height: 360, images: images, threads: 4))
            let a = one.layer.chain.base
            let b = four.layer.chain.base
            // Tall enough for four bands of 16-row chunks, so the 4-thread layer really is drawn in four.
            #expect(a.height >= 4 * Rasterizer.chunkRows && a.width == b.width && a.height == b.height)
            let bytesA = Array(UnsafeRawBufferPointer(start: a.base, count: a.rowBytes * (a.height + 1)))
            let bytesB = Array(UnsafeRawBufferPointer(start: b.base, count: b.rowBytes * (b.height + 1)))
            #expect(bytesA == bytesB)
            #expect(bytesA.contains { $0 != 0 })
        }
        let plan = TestPlan(width: 480, height: 360, background: .white, images: images, frames: [list])
        let frame1 = FrameRenderer(plan: plan, threads: 1).render(frame: 0)
        #expect(FrameRenderer(plan: plan, threads: 4).render(frame: 0) == frame1)
        let drawn4 = draw(list.items, width: 480, height: 360, background: .white, images: images, threads: 4)
        #expect(drawn4 == frame1)
        #expect(frame1.pixel(x: 240, y: 180) != (255, 255, 255, 255))
    }

    @Test("Affine items draw the same bytes whether or not a projected item is in the list")
    func affineUntouched() {
        let affine = [
            solidItem(rect(10, 10, 120, 80, radius: 12), Self.red, transform: rotation(degrees: 20, about: 70, 50)),
            solidItem(rect(40, 60, 90, 90), Self.blue, opacity: 0.6),
        ]
        let h = Self.projection(size: (100, 100), position: (280, 120), rotation: Self.rotateY(45), perspective: 300)
        let projected = DrawItem(transform: .identity, shape: rect(0, 0, 100, 100), paint: .solid(Self.blue), projection: h)
        let plain = draw(affine, width: 360, height: 200)
        let mixed = draw([affine[0], projected, affine[1]], width: 360, height: 200)
        // The projected square lies right of x = 200 (its image: x' = 280 +- 50 cos 45 / w, w in 1 -+ 0.118).
        for y in 0 ..< 200 {
            for x in 0 ..< 200 { #expect(plain.pixel(x: x, y: y) == mixed.pixel(x: x, y: y)) }
        }
        #expect(mixed.pixel(x: 280, y: 120) == (0, 0, 255, 255))
    }

    @Test("An exactly affine projection through the projected path matches the affine path")
    func affineProjectionMatches() {
        // Scale 2 then translate by whole pixels: layer density 2, texel centres land on pixel centres.
        let t = AffineTransform2D.scale(2, 2).concatenating(.translation(31, 17))
        let local = AffineTransform2D.translation(3.25, 4.5)
        var rng = SeededGenerator(seed: 9)
        let image = randomBitmap(width: 30, height: 20, using: &rng)
        for paint in [Paint.solid(Self.red), .bitmap(.image(0))] {
            let direct = DrawItem(transform: local.concatenating(t), shape: rect(0, 0, 60, 40, radius: 8), paint: paint)
            var projected = DrawItem(transform: local, shape: rect(0, 0, 60, 40, radius: 8), paint: paint)
            projected.projection = Homography(affine: t)
            let a = draw([direct], width: 200, height: 140, images: [image])
            let b = draw([projected], width: 200, height: 140, images: [image])
            let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2, "worst \(worst)")
        }
        // A rotation: resampled edges are softer, but the area and the interior agree.
        let r = rotation(degrees: 30, about: 100, 70)
        let direct = solidItem(rect(40, 30, 120, 80), Self.red, transform: r)
        let projected = DrawItem(
            transform: .identity, shape: rect(40, 30, 120, 80), paint: .solid(Self.red), projection: Homography(affine: r))
        let a = draw([direct], width: 200, height: 140)
        let b = draw([projected], width: 200, height: 140)
        #expect(abs(coverageSum(a) - coverageSum(b)) < 0.002 * coverageSum(a), "\(coverageSum(a)) vs \(coverageSum(b))")
        #expect(b.pixel(x: 100, y: 70) == (255, 0, 0, 255))
    }

    // MARK: Groups and snapshots

    @Test("A projected group is one plane layer: overlapping items do not show through each other")
    func projectedGroupIsOneLayer() {
        let h = Self.projection(size: (200, 200), position: (150, 150), rotation: Self.rotateY(30), perspective: 600)
        let nested = DisplayList(items: [solidItem(rect(0, 0, 140, 140), Self.red), solidItem(rect(60, 60, 140, 140), Self.blue)])
        let group = DrawItem(transform: .identity, shape: rect(0, 0, 200, 200), paint: .group(nested), opacity: 0.5, projection: h)
        let frame = draw([group], width: 300, height: 300)
        // Plane point (100, 100) (the overlap, blue on top) is the anchor: it lands on (150, 150).
        // Group opacity: blue at 0.5, premultiplied (0, 0, 128, 128), no red showing through.
        #expect(frame.pixel(x: 150, y: 150) == (0, 0, 128, 128))
    }

    @Test("A projected group's items move into its plane layer with it, whatever the plane's units")
    func projectedGroupItemsFollowTheLayer() {
        // The engine writes a 3-D view's parts in plane units k times its points (k = 4 here), with the
        // projection scaled by 1/k: the same picture as plane units of 1, so the same pixels up to resampling.
        let h = Self.projection(size: (200, 200), position: (150, 150), rotation: Self.rotateY(30), perspective: 600)
        func group(unit k: Double) -> DrawItem {
            let nested = DisplayList(items: [
                solidItem(rect(0, 0, 200 * k, 200 * k), Self.red), solidItem(rect(100 * k, 0, 100 * k, 200 * k), Self.blue),
            ])
            let toPoints = Homography(affine: .scale(1 / k, 1 / k)).concatenating(h)
            return DrawItem(
                transform: .identity, shape: rect(0, 0, 200 * k, 200 * k), paint: .group(nested), opacity: 0.5,
                projection: toPoints)
        }
        let unit = draw([group(unit: 1)], width: 300, height: 300)
        let fourfold = draw([group(unit: 4)], width: 300, height: 300)
        #expect(abs(coverageSum(unit) - coverageSum(fourfold)) < 0.002 * coverageSum(unit))
        // Left of the anchor the red half, right of it the blue half, at group opacity 0.5.
        #expect(fourfold.pixel(x: 120, y: 150) == (128, 0, 0, 128))
        #expect(fourfold.pixel(x: 180, y: 150) == (0, 0, 128, 128))
    }

    @Test("A projected item inside a 2-D group, and inside a snapshot, draws as it does directly")
    func nestedAndSnapshot() {
        let h = Self.projection(size: (120, 80), position: (100, 70), rotation: Self.rotateY(40), perspective: 400)
        let item = DrawItem(transform: .identity, shape: rect(0, 0, 120, 80, radius: 10), paint: .solid(Self.red), projection: h)
        let direct = draw([item], width: 200, height: 140)
        // A group of opacity 1 with a clip far outside: layered (clips), but the layer is read with coverage 1.
        let clip = Clip(transform: .identity, shape: rect(-10, -10, 220, 160))
        let group = DrawItem(
            transform: .identity, shape: rect(0, 0, 200, 140), paint: .group(DisplayList(items: [item])), clips: [clip])
        let grouped = draw([group], width: 200, height: 140)
        #expect(grouped.pixels == direct.pixels)
        let snapshot = SnapshotDescription(name: "s", pixelWidth: 200, pixelHeight: 140, content: DisplayList(items: [item]))
        #expect(Compositor.rasterize(snapshot, images: []).pixels == direct.pixels)
        #expect(coverageSum(direct) > 1000)
    }

    // MARK: (e) Bad input

    /// Every pixel premultiplied-valid (colour <= alpha): what a NaN leaking into bytes would break first.
    static func wellFormed(_ b: Bitmap) -> Bool {
        for i in stride(from: 0, to: b.pixels.count, by: 4) {
            let alpha = b.pixels[i + 3]
            if b.pixels[i] > alpha || b.pixels[i + 1] > alpha || b.pixels[i + 2] > alpha { return false }
        }
        return true
    }

    @Test("Bad projections draw nothing or their visible part, never trap or produce invalid pixels")
    func badInput() {
        let shape = rect(0, 0, 200, 100)
        func frame(_ h: Homography, clips: [Clip] = []) -> Bitmap {
            draw(
                [DrawItem(transform: .identity, shape: shape, paint: .solid(Self.red), clips: clips, projection: h)],
                width: 300, height: 200)
        }
        let empty = Bitmap(width: 300, height: 200)
        let nan = Homography(m11: .nan, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let infinite = Homography(m11: 1, m12: 0, m13: .infinity, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let singular = Homography(m11: 1, m12: 2, m13: 0, m21: 2, m22: 4, m23: 0, m31: 0, m32: 0, m33: 1)
        let zero = Homography(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0)
        // W = -1 everywhere: the whole plane behind the eye.
        let behind = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: -1)
        for h in [nan, infinite, singular, zero, behind] { #expect(frame(h).pixels == empty.pixels, "\(h)") }
        // A projected clip with a bad map clips everything away.
        let good = Self.projection(size: (200, 100), position: (150, 100), rotation: Self.rotateY(20), perspective: 500)
        #expect(frame(good, clips: [Clip(transform: .identity, shape: shape, projection: nan)]).pixels == empty.pixels)

        // Crossing the eye plane: rotateY 80 with the eye 60 points away; the near half (X < 0, where
        // w = 1 + X sin 80 / 60 < 0 for X < -60.9) is behind the eye. Only the visible part is drawn.
        let crossing = Self.projection(size: (200, 100), position: (150, 100), rotation: Self.rotateY(80), perspective: 60)
        let c = frame(crossing)
        #expect(Self.wellFormed(c))
        #expect(coverageSum(c) > 100)
        // Huge magnification next to the eye: the layer is capped, the frame stays well formed.
        let near = Self.projection(size: (200, 100), position: (150, 100), rotation: Self.rotateY(89.9), perspective: 100.0001)
        let n = frame(near)
        #expect(Self.wellFormed(n))
        let item = DrawItem(transform: .identity, shape: shape, paint: .solid(Self.red), projection: near)
        if let (_, fill) = Self.layerFill(item, width: 300, height: 200, images: []) {
            #expect(fill.layer.texels.width <= PlaneLayer.maxSide && fill.layer.texels.height <= PlaneLayer.maxSide)
            #expect(fill.layer.texels.width * fill.layer.texels.height <= PlaneLayer.maxTexels)
        }
        // Absurd values: no trap.
        let huge = Homography(m11: 1e300, m12: 0, m13: 1e-300, m21: 0, m22: 1e300, m23: 0, m31: 0, m32: 0, m33: 1)
        #expect(Self.wellFormed(frame(huge)))
    }
}
