import Testing
import Primitives
import FramePlan
@testable import Compositor

/// The whole pipeline (spans, interior runs, occlusion, SIMD kernels, bands)
/// against a per-pixel scalar reference built from the Double formulas.
@Suite("Pipeline against the scalar reference")
struct PipelineTests {
    /// Every pixel of every item, no spans, no fast paths, no culling.
    static func referenceRender(
        _ list: DisplayList, width: Int, height: Int, background: RGBAColor,
        sources: Rasterizer.Sources
    ) -> Bitmap {
        var target = Bitmap(width: width, height: height)
        Compositor.fill(&target, with: background)
        referenceDraw(list, onto: &target, sources: sources)
        return target
    }

    /// The reference's drawing. A group is drawn independently of the
    /// compositor's layers: its items onto a transparent target-sized bitmap
    /// (recursively), which is then blended pixel by pixel with the coverage of
    /// the group's shape and clips times its opacity.
    /// A backdrop blur at the top level is drawn from the target as it is when
    /// reached: `BackdropRegion.reference` (the scalar Gaussian), replacing the
    /// target with the reference coverage of shape and clips times opacity;
    /// inside a group it draws nothing.
    static func referenceDraw(
        _ list: DisplayList, onto target: inout Bitmap, sources: Rasterizer.Sources, inGroup: Bool = false
    ) {
        let width = target.width
        let height = target.height
        func tuple(_ c: SIMD4<UInt8>) -> (UInt32, UInt32, UInt32, UInt32) {
            (UInt32(c.x), UInt32(c.y), UInt32(c.z), UInt32(c.w))
        }
        for drawItem in list.items {
            if case .group(let content) = drawItem.paint {
                var layer = Bitmap(width: width, height: height)
                referenceDraw(content, onto: &layer, sources: sources, inGroup: true)
                let opacity = Float(drawItem.opacity > 0 ? min(drawItem.opacity, 1) : 0)
                guard let shape = CoverageShape(transform: drawItem.transform, shape: drawItem.shape) else { continue }
                let clips = drawItem.clips.compactMap { CoverageShape(transform: $0.transform, shape: $0.shape) }
                guard clips.count == drawItem.clips.count else { continue }
                let box = shape.bounds.intersection(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
                target.pixels.withUnsafeMutableBufferPointer { buffer in
                    for y in box.y0 ..< box.y1 {
                        for x in box.x0 ..< box.x1 {
                            var coverage = CoverageKernels.referenceCoverage(shape, x: x, y: y)
                            for clip in clips { coverage *= CoverageKernels.referenceCoverage(clip, x: x, y: y) }
                            let a = min(max(coverage * Double(opacity) * 255, 0), 255).rounded()
                            let p = layer.pixel(x: x, y: y)
                            if a > 0 {
                                BlendKernels.blendPixel(
                                    buffer.baseAddress! + (y * width + x) * 4,
                                    (UInt32(p.0), UInt32(p.1), UInt32(p.2), UInt32(p.3)), UInt32(a))
                            }
                        }
                    }
                }
                continue
            }
            guard let item = PreparedItem(drawItem, targetWidth: width, targetHeight: height, sources: sources) else { continue }
            if let region = item.backdrop {
                guard !inGroup else { continue }
                let blurred = region.reference(target.pixels, width: width)
                let w = region.bounds.x1 - region.bounds.x0
                target.pixels.withUnsafeMutableBufferPointer { buffer in
                    for y in item.bounds.y0 ..< item.bounds.y1 {
                        for x in item.bounds.x0 ..< item.bounds.x1 {
                            var coverage = CoverageKernels.referenceCoverage(item.shape, x: x, y: y)
                            for clip in item.clips { coverage *= CoverageKernels.referenceCoverage(clip, x: x, y: y) }
                            let a = min(max(coverage * Double(item.opacity) * 255, 0), 255).rounded()
                            var word = blurred[(y - region.bounds.y0) * w + (x - region.bounds.x0)]
                            if a > 0 {
                                withUnsafeBytes(of: &word) { s in
                                    BlendKernels.replacePixel(
                                        buffer.baseAddress! + (y * width + x) * 4, s.bindMemory(to: UInt8.self).baseAddress!,
                                        UInt32(a))
                                }
                            }
                        }
                    }
                }
                continue
            }
            target.pixels.withUnsafeMutableBufferPointer { buffer in
                for y in item.bounds.y0 ..< item.bounds.y1 {
                    for x in item.bounds.x0 ..< item.bounds.x1 {
                        let reference: (coverage: Double, source: SIMD4<UInt8>)?
                        switch item.fill {
                        case .solid(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .bitmap(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .border(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .shadow(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .gradient(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .layer(let f): reference = f.referencePixel(item, x: x, y: y)  // groups are handled above
                        case .backedGroup(let f): reference = f.referencePixel(item, x: x, y: y)  // groups are handled above
                        case .backdrop(let f): reference = f.referencePixel(item, x: x, y: y)  // handled above
                        case .projected(let f): reference = f.referencePixel(item, x: x, y: y)
                        case .projectedBackdrop(let f): reference = f.referencePixel(item, x: x, y: y)  // never in these lists
                        }
                        guard var coverage = reference?.coverage, let c = reference?.source else { continue }
                        let source = tuple(c)
                        for clip in item.clips { coverage *= CoverageKernels.referenceCoverage(clip, x: x, y: y) }
                        let a = min(max(coverage * Double(item.opacity) * 255, 0), 255).rounded()
                        if a > 0 { BlendKernels.blendPixel(buffer.baseAddress! + (y * width + x) * 4, source, UInt32(a)) }
                    }
                }
            }
        }
    }

    /// `backdrops`: two backdrop blurs among the first 20 items (a pass boundary
    /// each; other items as without them, so lists of the same seed match).
    static func busyList(seed: UInt64, width: Int, height: Int, images: Int, backdrops: Bool = false) -> DisplayList {
        var rng = SeededGenerator(seed: seed)
        var items: [DrawItem] = []
        for i in 0 ..< 40 {
            let rotate = Int.random(in: 0 ..< 3, using: &rng) == 0
            let t = AffineTransform2D.scale(Double.random(in: 0.3 ... 3, using: &rng), Double.random(in: 0.3 ... 3, using: &rng))
                .concatenating(.rotation(rotate ? Double.random(in: -3 ... 3, using: &rng) : 0))
                .concatenating(
                    .translation(
                        Double(Int.random(in: -20 ... width, using: &rng)) + (Bool.random(using: &rng) ? 0.5 : 0),
                        Double(Int.random(in: -20 ... height, using: &rng))))
            let shape = rect(
                Double(Int.random(in: -10 ... 10, using: &rng)), Double.random(in: -10 ... 10, using: &rng),
                Double.random(in: 1 ... 60, using: &rng), Double(Int.random(in: 1 ... 60, using: &rng)),
                radius: Bool.random(using: &rng) ? 0 : Double.random(in: 0 ... 15, using: &rng))
            let color = RGBAColor(
                red: .random(in: 0 ... 1, using: &rng), green: .random(in: 0 ... 1, using: &rng),
                blue: .random(in: 0 ... 1, using: &rng),
                alpha: Bool.random(using: &rng) ? 1 : .random(in: 0.2 ... 1, using: &rng))
            let paint: Paint
            switch Int.random(in: 0 ..< 7, using: &rng) {
            case 0, 1: paint = .bitmap(.image(Int.random(in: 0 ..< images, using: &rng)))
            case 2: paint = .border(width: Double.random(in: 0.5 ... 8, using: &rng), color: color)
            case 3: paint = .shadow(color: color, sigma: Double.random(in: 0 ... 8, using: &rng))
            case 4: paint = .gradient(randomGradient(in: shape.rect, first: color, using: &rng))
            default: paint = .solid(color)
            }
            var clips: [Clip] = []
            if i % 3 == 0 {
                clips.append(
                    Clip(
                        transform: Bool.random(using: &rng) ? .identity : rotation(degrees: 20, about: 60, 60),
                        shape: rect(
                            .random(in: 0 ... 60, using: &rng), .random(in: 0 ... 60, using: &rng),
                            .random(in: 20 ... 100, using: &rng), .random(in: 20 ... 100, using: &rng),
                            radius: .random(in: 0 ... 20, using: &rng))))
            }
            let opacity = Bool.random(using: &rng) ? 1 : Double.random(in: 0.3 ... 1, using: &rng)
            items.append(DrawItem(transform: t, shape: shape, paint: paint, opacity: opacity, clips: clips))
        }
        if backdrops {
            var blurRng = SeededGenerator(seed: seed &+ 500)
            for index in [16, 8] {
                let shape = rect(
                    .random(in: -10 ... Double(width) / 2, using: &blurRng), .random(in: -10 ... Double(height) / 2, using: &blurRng),
                    .random(in: 10 ... Double(width), using: &blurRng), .random(in: 10 ... Double(height), using: &blurRng),
                    radius: .random(in: 0 ... 14, using: &blurRng))
                let clip = Clip(transform: rotation(degrees: 15, about: 70, 60), shape: rect(10, 10, 120, 90, radius: 10))
                let clips = index == 8 ? [clip] : []
                items.insert(
                    DrawItem(
                        transform: .scale(1, .random(in: 0.8 ... 1.5, using: &blurRng)), shape: shape,
                        paint: .backdropBlur(sigma: .random(in: 0.5 ... 6, using: &blurRng)),
                        opacity: index == 8 ? 0.7 : 1, clips: clips),
                    at: index)
            }
        }
        return DisplayList(items: items)
    }

    @Test(
        "Frames match the per-pixel scalar reference (every paint, backdrop blurs, clips, rotations, fractional edges)",
        arguments: [1 as UInt64, 2, 3, 4, 5])
    func matchesReference(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 100)
        let images = [
            randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31),
            randomOpaqueBitmap(width: 40, height: 30, using: &rng),
        ]
        let (w, h) = (150, 120)
        let list = Self.busyList(seed: seed, width: w, height: h, images: images.count, backdrops: true)
        let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7)
        let plan = TestPlan(width: w, height: h, background: background, images: images, frames: [list])
        let fast = FrameRenderer(plan: plan, threads: 2).render(frame: 0)
        let sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: list)
        let reference = Self.referenceRender(list, width: w, height: h, background: background, sources: sources)
        let differences = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        let off = differences.filter { $0 > 1 }.count
        #expect((differences.max() ?? 0) <= 3, "max difference \(differences.max() ?? 0)")
        #expect(Double(off) / Double(differences.count) < 0.002, "\(off) bytes differ by more than 1")
    }

    @Test(
        "Every paint, grouped or not, backdrop blurs included, draws the same bytes for 1, 2, 3 and 5 threads",
        arguments: [1 as UInt64, 2, 3])
    func threadCountsAgree(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 200)
        let images = [
            randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31),
            randomOpaqueBitmap(width: 40, height: 30, using: &rng),
        ]
        let (w, h) = (150, 120)
        let items = Self.busyList(seed: seed, width: w, height: h, images: images.count, backdrops: true).items
        // The second half as a translucent group, so layers are drawn by the bands too.
        let group = DrawItem(
            transform: .identity, shape: rect(5, 5, 140, 110, radius: 9),
            paint: .group(DisplayList(items: Array(items[20...]))), opacity: 0.6)
        let list = DisplayList(items: Array(items[..<20]) + [group])
        let plan = TestPlan(width: w, height: h, background: .black, images: images, frames: [list])
        let one = FrameRenderer(plan: plan, threads: 1).render(frame: 0)
        #expect(coverageSum(one) > 0)
        for threads in [2, 3, 5] { #expect(FrameRenderer(plan: plan, threads: threads).render(frame: 0) == one, "\(threads) threads") }
    }

    @Test("Occlusion culling changes no byte: drawing item by item gives the same frame")
    func occlusionIsExact() {
        var rng = SeededGenerator(seed: 77)
        let image = randomOpaqueBitmap(width: 30, height: 20, using: &rng)
        let items = [
            solidItem(rect(0, 0, 100, 80), RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)),
            DrawItem(transform: .identity, shape: rect(10, 10, 40, 30, radius: 6), paint: .shadow(color: .black, sigma: 4)),
            solidItem(rect(20, 15, 10, 10), .white),  // entirely under the next card: culled
            DrawItem(transform: .identity, shape: rect(10, 10, 40, 30, radius: 6), paint: .bitmap(.image(0))),
            DrawItem(
                transform: .translation(60.5, 20), shape: rect(0, 0, 30, 40, radius: 3), paint: .solid(.white), opacity: 1,
                clips: [Clip(transform: .identity, shape: rect(55, 25, 40, 30, radius: 8))]),
        ]
        let all = draw(items, width: 100, height: 80, background: .black, images: [image])
        #expect(all == drawnOneByOne(items, width: 100, height: 80, images: [image]))
        let sources = Rasterizer.Sources(images: [image], snapshots: [], referencedBy: DisplayList(items: items))
        let prepared = Rasterizer.prepare(DisplayList(items: items), width: 100, height: 80, sources: sources)
        #expect(prepared.items.count == 4)
        #expect(!prepared.items[1].hiddenBy.isEmpty)  // the shadow's middle is under its card
        #expect(!prepared.coversTarget)
        let covered = Rasterizer.prepare(
            DisplayList(items: items + [solidItem(rect(0, 0, 100, 80), .white)]),
            width: 100, height: 80, sources: sources)
        #expect(covered.coversTarget && covered.items.count == 1)
    }

    @Test("An item under a grid of opaque cards skips every card's box, not only the largest: no byte changes")
    func severalHidingBoxesAreExact() {
        var rng = SeededGenerator(seed: 78)
        let wallpaper = randomOpaqueBitmap(width: 37, height: 23, using: &rng)
        let translucent = RGBAColor(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.6)
        var items = [
            DrawItem(transform: .scale(3.1, 3.3), shape: rect(0, 0, 37, 23, radius: 4), paint: .bitmap(.image(0))),
            DrawItem(transform: .identity, shape: rect(4, 30, 100, 12, radius: 6), paint: .shadow(color: .black, sigma: 3)),
        ]
        // Cards overlapping each other and the rows of the shadow; one translucent, which hides nothing.
        for (index, (x, y)) in [(3, 3), (31.5, 5), (58, 2.25), (86, 9), (20, 40), (50.5, 47), (80, 40)].enumerated() {
            let color = index == 4 ? translucent : RGBAColor(red: Double(index) / 7, green: 0.3, blue: 0.9, alpha: 1)
            items.append(solidItem(rect(x, y, 25, 30, radius: 5), color))
        }
        let all = draw(items, width: 115, height: 80, background: .black, images: [wallpaper])
        let oneByOne = drawnOneByOne(items, width: 115, height: 80, images: [wallpaper])
        #expect(maxDifference(all.pixels, oneByOne.pixels) == 0)
        let sources = Rasterizer.Sources(images: [wallpaper], snapshots: [], referencedBy: DisplayList(items: items))
        let prepared = Rasterizer.prepare(DisplayList(items: items), width: 115, height: 80, sources: sources)
        #expect(prepared.items[0].hiddenBy.count == 6)
        // Left to right: `RowPainter` sweeps them once per row (out of order it would draw hidden pixels too).
        #expect(prepared.items[0].hiddenBy.map(\.x0) == prepared.items[0].hiddenBy.map(\.x0).sorted())
        #expect(prepared.items[1].hiddenBy.count >= 3)
        for threads in [2, 3] {
            let banded = draw(items, width: 115, height: 80, background: .black, images: [wallpaper], threads: threads)
            #expect(maxDifference(banded.pixels, all.pixels) == 0, "\(threads) threads")
        }
    }
}
