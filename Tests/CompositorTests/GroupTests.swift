import Testing
import Primitives
import FramePlan
@testable import Compositor

/// `.group` paints: group opacity (the items on a transparent layer, the layer
/// drawn with the item's opacity inside its shape and clips).
@Suite("Group opacity")
struct GroupTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1)

    static func group(
        _ items: [DrawItem], _ shape: RoundedRect, opacity: Double, clips: [Clip] = [],
        transform: AffineTransform2D = .identity
    ) -> DrawItem {
        DrawItem(transform: transform, shape: shape, paint: .group(DisplayList(items: items)), opacity: opacity, clips: clips)
    }

    /// Two overlapping opaque squares: red (4...24) under blue (14...34).
    static let squares = [solidItem(rect(4, 4, 20, 20), red), solidItem(rect(14, 14, 20, 20), blue)]

    static func tuple(_ p: (UInt8, UInt8, UInt8, UInt8)) -> [Int] { [Int(p.0), Int(p.1), Int(p.2), Int(p.3)] }

    /// Every group in `list`, wrapped at random into groups (nested, translucent,
    /// clipped, some of opacity 1 with a whole-pixel shape that is drawn inline).
    static func groupedList(seed: UInt64, width: Int, height: Int, images: Int) -> DisplayList {
        var rng = SeededGenerator(seed: seed &+ 1000)
        let flat = PipelineTests.busyList(seed: seed, width: width, height: height, images: images).items
        func wrap(_ items: ArraySlice<DrawItem>, depth: Int) -> [DrawItem] {
            var out: [DrawItem] = []
            var i = items.startIndex
            while i < items.endIndex {
                let n = Int.random(in: 1 ... 6, using: &rng)
                let end = min(items.endIndex, i + n)
                if n >= 2 && Int.random(in: 0 ..< 3, using: &rng) > 0 {
                    let inner = depth < 2 ? wrap(items[i ..< end], depth: depth + 1) : Array(items[i ..< end])
                    let opacity: Double = [1, 0.5, .random(in: 0.2 ... 0.95, using: &rng)][Int.random(in: 0 ..< 3, using: &rng)]
                    let shape: RoundedRect
                    switch Int.random(in: 0 ..< 3, using: &rng) {
                    case 0: shape = rect(0, 0, Double(width), Double(height))
                    case 1:
                        shape = rect(
                            .random(in: 0 ... 40, using: &rng), .random(in: 0 ... 40, using: &rng),
                            .random(in: 40 ... 120, using: &rng), .random(in: 40 ... 100, using: &rng),
                            radius: .random(in: 0 ... 12, using: &rng))
                    default: shape = rect(-5, -5, Double(width + 10), Double(height + 10), radius: 30)
                    }
                    var clips: [Clip] = []
                    if Int.random(in: 0 ..< 3, using: &rng) == 0 {
                        clips.append(
                            Clip(
                                transform: rotation(degrees: .random(in: -30 ... 30, using: &rng), about: 70, 60),
                                shape: rect(
                                    .random(in: 0 ... 50, using: &rng), .random(in: 0 ... 50, using: &rng),
                                    .random(in: 30 ... 110, using: &rng), .random(in: 30 ... 90, using: &rng),
                                    radius: .random(in: 0 ... 20, using: &rng))))
                    }
                    out.append(group(inner, shape, opacity: opacity, clips: clips))
                } else {
                    out.append(contentsOf: items[i ..< end])
                }
                i = end
            }
            return out
        }
        return DisplayList(items: wrap(flat[...], depth: 0))
    }

    @Test("Overlapping opaque items in a 0.5 group do not show through each other (unlike 0.5 each)")
    func overlapDoesNotShowThrough() {
        let grouped = draw([Self.group(Self.squares, rect(0, 0, 40, 40), opacity: 0.5)], width: 40, height: 40, background: .white)
        let overlap = Self.tuple(grouped.pixel(x: 18, y: 18))
        let topOnly = Self.tuple(grouped.pixel(x: 30, y: 30))
        let bottomOnly = Self.tuple(grouped.pixel(x: 8, y: 8))
        #expect(overlap == topOnly)
        #expect(topOnly == [128, 128, 255, 255] || topOnly == [127, 127, 255, 255], "blue at 0.5 over white: \(topOnly)")
        #expect(bottomOnly[0] == 255 && abs(bottomOnly[1] - 128) <= 1 && abs(bottomOnly[2] - 128) <= 1)
        #expect(Self.tuple(grouped.pixel(x: 1, y: 1)) == [255, 255, 255, 255])
        // Each item at 0.5 instead: red shows through blue in the overlap.
        let separate = draw(
            Self.squares.map {
                var i = $0
                i.opacity = 0.5
                return i
            }, width: 40, height: 40, background: .white)
        #expect(Self.tuple(separate.pixel(x: 18, y: 18)) != Self.tuple(separate.pixel(x: 30, y: 30)))
        #expect(Self.tuple(separate.pixel(x: 30, y: 30)) == topOnly)
        #expect(Self.tuple(separate.pixel(x: 18, y: 18))[0] > 40)
    }

    @Test(
        "A group of opacity 1 (no clips, whole-pixel shape) is byte-identical to its items drawn directly",
        arguments: [1 as UInt64, 2, 3])
    func opacityOneIsDirect(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 100)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31)]
        let (w, h) = (150, 120)
        let items = PipelineTests.busyList(seed: seed, width: w, height: h, images: images.count).items
        let bg = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7)
        let direct = draw(items, width: w, height: h, background: bg, images: images)
        let canvas = rect(0, 0, Double(w), Double(h))
        let grouped = draw(
            [
                Self.group(Array(items[..<20]), canvas, opacity: 1),
                Self.group([Self.group(Array(items[20...]), canvas, opacity: 1)], canvas, opacity: 1),
            ],
            width: w, height: h, background: bg, images: images, threads: 3)
        #expect(grouped == direct)
        // Through a layer (a rounded shape far outside the content): the same up to rounding.
        let layered = draw(
            [Self.group(items, rect(-50, -50, Double(w + 100), Double(h + 100), radius: 20), opacity: 1)],
            width: w, height: h, background: bg, images: images)
        #expect(maxDifference(layered.pixels, direct.pixels) <= 2)
    }

    @Test("Nested groups multiply: 0.5 inside 0.5 is 0.25 of the content within 1/255")
    func nestedGroups() {
        let white = solidItem(rect(2, 2, 16, 16), .white)
        let inner = Self.group([white, solidItem(rect(6, 6, 8, 8), .white)], rect(0, 0, 20, 20), opacity: 0.5)
        let b = draw([Self.group([inner], rect(0, 0, 20, 20), opacity: 0.5)], width: 20, height: 20, background: .black)
        for y in 0 ..< 20 {
            for x in 0 ..< 20 {
                let p = Self.tuple(b.pixel(x: x, y: y))
                let inside = (2 ..< 18).contains(x) && (2 ..< 18).contains(y)
                if inside {
                    #expect(abs(Double(p[0]) - 63.75) <= 1 && p[0] == p[1] && p[1] == p[2] && p[3] == 255, "\(p) at \(x),\(y)")
                } else {
                    #expect(p == [0, 0, 0, 255])
                }
            }
        }
        // On a transparent target, alpha 0.25 too.
        let clear = draw([Self.group([inner], rect(0, 0, 20, 20), opacity: 0.5)], width: 20, height: 20)
        #expect(abs(Int(clear.pixel(x: 10, y: 10).3) - 64) <= 1)
    }

    @Test("Clips and the shape of a group item restrict the whole group")
    func clipsRestrictGroup() {
        let clip = Clip(transform: .identity, shape: rect(10, 10, 12, 8))
        let g = Self.group(Self.squares, rect(0, 0, 40, 40), opacity: 0.5, clips: [clip])
        let b = draw([g], width: 40, height: 40, background: .white)
        let reference = draw([Self.group(Self.squares, rect(0, 0, 40, 40), opacity: 0.5)], width: 40, height: 40, background: .white)
        for y in 0 ..< 40 {
            for x in 0 ..< 40 {
                let inClip = (10 ..< 22).contains(x) && (10 ..< 18).contains(y)
                #expect(Self.tuple(b.pixel(x: x, y: y)) == (inClip ? Self.tuple(reference.pixel(x: x, y: y)) : [255, 255, 255, 255]))
            }
        }
        // The shape (under its transform) bounds the layer: half the squares.
        let half = draw(
            [Self.group(Self.squares, rect(0, 0, 10, 40), opacity: 0.5, transform: .translation(10, 0))],
            width: 40, height: 40, background: .white)
        for y in 0 ..< 40 {
            for x in 0 ..< 40 {
                let inShape = (10 ..< 20).contains(x)
                #expect(Self.tuple(half.pixel(x: x, y: y)) == (inShape ? Self.tuple(reference.pixel(x: x, y: y)) : [255, 255, 255, 255]))
            }
        }
        // A rotated clip with soft edges: coverage times opacity, as for any item (vs the scalar reference).
        let rotated = Clip(transform: rotation(degrees: 20, about: 20, 20), shape: rect(8, 8, 24, 24, radius: 5))
        let list = DisplayList(items: [Self.group(Self.squares, rect(0, 0, 40, 40), opacity: 0.7, clips: [rotated])])
        var fast = Bitmap(width: 40, height: 40)
        Compositor.fill(&fast, with: .white)
        Compositor.draw(list, onto: &fast, images: [])
        let ref = PipelineTests.referenceRender(
            list, width: 40, height: 40, background: .white,
            sources: Rasterizer.Sources(images: [], snapshots: []))
        #expect(maxDifference(fast.pixels, ref.pixels) <= 1)
    }

    @Test("Groups in a busy random list match the scalar reference", arguments: [1 as UInt64, 2, 3, 4])
    func matchesReference(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 100)
        let images = [
            randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31),
            randomOpaqueBitmap(width: 40, height: 30, using: &rng),
        ]
        let (w, h) = (150, 120)
        let list = Self.groupedList(seed: seed, width: w, height: h, images: images.count)
        let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7)
        let plan = TestPlan(width: w, height: h, background: background, images: images, frames: [list])
        let fast = FrameRenderer(plan: plan, threads: 2).render(frame: 0)
        let sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: list)
        #expect(Rasterizer.prepare(list, width: w, height: h, sources: sources).layers.count >= 2)
        let reference = PipelineTests.referenceRender(list, width: w, height: h, background: background, sources: sources)
        let differences = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        let off = differences.filter { $0 > 1 }.count
        #expect((differences.max() ?? 0) <= 3, "max difference \(differences.max() ?? 0)")
        #expect(Double(off) / Double(differences.count) < 0.002, "\(off) bytes differ by more than 1")
    }

    @Test("1 and 4 threads give byte-identical frames with groups; pooled layers are reused", arguments: [1 as UInt64, 2, 3])
    func threadsAreByteIdentical(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31)]
        let (w, h) = (157, 121)
        let list = Self.groupedList(seed: seed, width: w, height: h, images: images.count)
        let other = Self.groupedList(seed: seed + 50, width: w, height: h, images: images.count)
        let plan = TestPlan(
            width: w, height: h, background: RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7),
            images: images, frames: [list, other])
        let one = FrameRenderer(plan: plan, threads: 1)
        let four = FrameRenderer(plan: plan, threads: 4)
        let a = one.render(frame: 0)
        #expect(coverageSum(a) > 0)
        #expect(a == four.render(frame: 0))
        #expect(one.render(frame: 1) == four.render(frame: 1))
        var again = Bitmap(width: w, height: h)
        four.render(frame: 0, into: &again)  // layers from the pool, dirty from frame 1
        #expect(again == a)
        var c = Bitmap(width: w, height: h)
        Compositor.fill(&c, with: plan.canvas.background)
        Compositor.draw(list, onto: &c, images: images, threads: 7)
        #expect(c == a)
        // Steady state: the same frame again takes its layers from the pool, which does not grow.
        let pool = LayerPool()
        let prepared = Rasterizer.prepare(
            list, width: w, height: h, sources: Rasterizer.Sources(images: images, snapshots: [], referencedBy: list))
        #expect(!prepared.layers.isEmpty)
        var target = Bitmap(width: w, height: h)
        Rasterizer.drawBanded(prepared, background: nil, target: &target, scratch: [RowScratch(width: w)], layers: pool)
        let held = pool.freeBytes
        #expect(held > 0)
        Rasterizer.drawBanded(prepared, background: nil, target: &target, scratch: [RowScratch(width: w)], layers: pool)
        #expect(pool.freeBytes == held)
    }

    @Test("Groups inside a snapshot's display list are drawn (Compositor.rasterize and FrameRenderer)")
    func groupsInSnapshots() {
        var rng = SeededGenerator(seed: 9)
        let image = randomOpaqueBitmap(width: 8, height: 8, using: &rng)
        let content = DisplayList(items: [
            solidItem(rect(0, 0, 40, 40), .white),
            Self.group(
                Self.squares + [DrawItem(transform: .identity, shape: rect(30, 2, 8, 8), paint: .bitmap(.image(0)))],
                rect(0, 0, 40, 40), opacity: 0.5),
        ])
        let snapshot = SnapshotDescription(name: "grouped", pixelWidth: 40, pixelHeight: 40, content: content)
        let raster = Compositor.rasterize(snapshot, images: [image])
        #expect(Self.tuple(raster.pixel(x: 18, y: 18)) == Self.tuple(raster.pixel(x: 30, y: 30)))
        #expect(Self.tuple(raster.pixel(x: 30, y: 30)) != [255, 255, 255, 255])
        // The image inside the group is found and drawn at half opacity over white.
        let texel = image.pixel(x: 2, y: 2)
        let drawn = raster.pixel(x: 32, y: 4)
        #expect(abs(Int(drawn.0) - (Int(texel.0) + 255 + 1) / 2) <= 1)
        var direct = Bitmap(width: 40, height: 40)
        Compositor.draw(content, onto: &direct, images: [image])
        #expect(raster == direct)
        let plan = TestPlan(width: 40, height: 40, images: [image], snapshots: [snapshot, snapshot], frames: [])
        #expect(FrameRenderer(plan: plan, threads: 2).snapshotBitmap(1) == raster)
    }

    @Test("Degenerate, NaN and empty groups draw nothing and never trap")
    func degenerateGroupsDrawNothing() {
        let nan = Double.nan
        let inf = Double.infinity
        let content = Self.squares
        var deep = solidItem(rect(0, 0, 12, 12), .white)
        for _ in 0 ..< 40 { deep = Self.group([deep], rect(0, 0, 12, 12), opacity: 0.9) }
        let bad: [DrawItem] = [
            Self.group([], rect(0, 0, 12, 12), opacity: 0.5),
            Self.group([], rect(0, 0, 12, 12), opacity: 1),
            Self.group([Self.group([], rect(0, 0, 12, 12), opacity: 0.5)], rect(0, 0, 12, 12), opacity: 0.5),
            Self.group(content, rect(0, 0, 12, 12), opacity: nan),
            Self.group(content, rect(0, 0, 12, 12), opacity: 0),
            Self.group(content, rect(0, 0, 12, 12), opacity: -1),
            Self.group(content, rect(nan, 0, 12, 12), opacity: 0.5),
            Self.group(content, rect(0, 0, 0, 12), opacity: 0.5),
            Self.group(content, rect(0, 0, 12, 12), opacity: 1, transform: .scale(0, 1)),
            Self.group(content, rect(0, 0, 12, 12), opacity: 1, transform: AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: nan, ty: 0)),
            Self.group(content, rect(0, 0, inf, 12), opacity: 0.5),
            Self.group(content, rect(100, 100, 12, 12), opacity: 0.5),  // outside the target
            Self.group(
                content, rect(0, 0, 12, 12), opacity: 0.5,
                clips: [Clip(transform: AffineTransform2D(a: nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), shape: rect(0, 0, 5, 5))]),
            Self.group(content, rect(0, 0, 12, 12), opacity: 0.5, clips: [Clip(transform: .identity, shape: rect(20, 20, 4, 4))]),
            Self.group(
                [solidItem(rect(0, 0, 12, 12), .white, opacity: nan), solidItem(rect(0, 0, nan, 12), .white)],
                rect(0, 0, 12, 12), opacity: 0.5),
            Self.group(content, rect(0, 0, 12, 12, radius: nan), opacity: 0.5, transform: .scale(1e-13, 1e-13)),
            deep,  // nested deeper than `LayerFill.maxGroupDepth`
        ]
        let bg = RGBAColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1)
        let b = draw(bad, width: 12, height: 12, background: bg, threads: 3)
        #expect(b == draw([], width: 12, height: 12, background: bg))
        let plan = TestPlan(width: 12, height: 12, background: bg, frames: [DisplayList(items: bad)])
        #expect(FrameRenderer(plan: plan, threads: 2).render(frame: 0) == b)
        let prepared = Rasterizer.prepare(
            DisplayList(items: bad), width: 12, height: 12, sources: Rasterizer.Sources(images: [], snapshots: []))
        #expect(prepared.items.isEmpty && prepared.layers.isEmpty)
    }

    @Test("A group hidden under a later opaque item is culled with its layer; a covering group skips the background")
    func occlusion() {
        let sources = Rasterizer.Sources(images: [], snapshots: [])
        let g = Self.group(Self.squares, rect(0, 0, 40, 40), opacity: 0.5)
        let hidden = Rasterizer.prepare(
            DisplayList(items: [g, solidItem(rect(0, 0, 40, 40), .white)]), width: 40, height: 40, sources: sources)
        #expect(hidden.items.count == 1 && hidden.layers.isEmpty)
        let shown = Rasterizer.prepare(DisplayList(items: [g]), width: 40, height: 40, sources: sources)
        // The layer is the union of its items' bounds (which include the coverage-0 ring around whole-pixel edges).
        #expect(shown.layers.count == 1 && shown.layers[0].box == PixelBox(x0: 3, y0: 3, x1: 35, y1: 35))
        // Inside the layer, an opaque item covering it means no clearing; the result is unaffected.
        let covered = Self.group([solidItem(rect(0, 0, 40, 40), .white)] + Self.squares, rect(0, 0, 40, 40), opacity: 0.5)
        let b = draw([covered], width: 40, height: 40, background: .black)
        #expect(Self.tuple(b.pixel(x: 1, y: 1)) == [128, 128, 128, 255])
        #expect(Self.tuple(b.pixel(x: 18, y: 18)) == Self.tuple(b.pixel(x: 30, y: 30)))
    }

    @Test("A layer is not cleared under an opaque item's box: stale pooled bytes never reach the frame")
    func stalePoolBytes() {
        let half = RGBAColor(red: 0.2, green: 0.9, blue: 0.4, alpha: 0.5)
        let list = DisplayList(items: [
            Self.group(
                [
                    solidItem(rect(2, 2, 30, 12, radius: 3), half),  // partly under the opaque card
                    solidItem(rect(6, 6, 24, 24), Self.red),  // opaque: its box is not cleared
                    solidItem(rect(20, 10, 16, 16, radius: 4), half),
                ], rect(0, 0, 40, 40), opacity: 0.6)
        ])
        let sources = Rasterizer.Sources(images: [], snapshots: [])
        let prepared = Rasterizer.prepare(list, width: 40, height: 40, sources: sources)
        #expect(prepared.layers.count == 1 && prepared.layers[0].keepBox != nil)
        let pool = LayerPool()
        let poisoned = pool.lend([GroupLayer(box: PixelBox(x0: 0, y0: 0, x1: 40, y1: 40), content: prepared.layers[0].content)])
        poisoned[0].base.update(repeating: 0xA7, count: poisoned[0].capacity)
        pool.recycle(poisoned, from: [])
        var stale = Bitmap(width: 40, height: 40)
        Compositor.fill(&stale, with: .white)
        Rasterizer.drawBanded(prepared, background: nil, target: &stale, scratch: [RowScratch(width: 40)], layers: pool)
        var fresh = Bitmap(width: 40, height: 40)
        Compositor.fill(&fresh, with: .white)
        Compositor.draw(list, onto: &fresh, images: [])
        #expect(stale == fresh)
        let ref = PipelineTests.referenceRender(list, width: 40, height: 40, background: .white, sources: sources)
        #expect(maxDifference(fresh.pixels, ref.pixels) <= 1)
    }

    /// Draws `list` through `Rasterizer` with `threads` bands, its groups' rows bypassing their layers or not.
    static func render(
        _ list: DisplayList, width: Int, height: Int, images: [Bitmap], threads: Int, bypass: Bool
    ) -> (Bitmap, Rasterizer.PreparedList) {
        var sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: list)
        sources.bypassesLayers = bypass
        let prepared = Rasterizer.prepare(list, width: width, height: height, sources: sources, threads: threads)
        let backdrop = RGBAColor(red: 0.1, green: 0.3, blue: 0.2, alpha: 0.8)
        return (drawBanded(prepared, width: width, height: height, threads: threads, backdrop: backdrop), prepared)
    }

    @Test(
        "Rows drawn without a group's layer give the layer's bytes (a screen over its background, scaled or 1:1; a sole opaque item)",
        arguments: [1, 4])
    func bypassGivesTheLayersBytes(threads: Int) {
        var rng = SeededGenerator(seed: 0xB7_9A55)
        let images = [
            randomBitmap(width: 60, height: 45, using: &rng), randomOpaqueBitmap(width: 50, height: 40, using: &rng),
            randomBitmap(width: 100, height: 60, using: &rng),
        ]
        let (w, h) = (160, 120)
        let paper = RGBAColor(red: 0.9, green: 0.95, blue: 1)
        // A screen fading in: its background, its snapshot stretched over it (translucent texels), a control on top.
        let screen = Self.group(
            [
                solidItem(rect(0, 0, 160, 120), paper),
                DrawItem(transform: .identity, shape: rect(0, 0, 160, 120), paint: .bitmap(.image(0))),
                solidItem(rect(20, 50, 30, 15, radius: 3), Self.red),
            ], rect(0, 0, 160, 120), opacity: 0.6)
        // A band at a fractional height: an opaque photo over a solid, a translucent badge; its edge rows stay layered.
        let band = Self.group(
            [
                solidItem(rect(0, 0, 160, 60), Self.blue),
                DrawItem(transform: .identity, shape: rect(0, 0, 160, 60), paint: .bitmap(.image(1))),
                solidItem(rect(100, 8, 30, 12, radius: 4), RGBAColor(red: 1, green: 1, blue: 0, alpha: 0.5)),
            ], rect(0, 0, 160, 60), opacity: 0.45, transform: AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 30.4))
        // A snapshot drawn 1:1 at a whole-pixel offset (its texels copied, then laid over the colour).
        let offset = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 30, ty: 40)
        let unscaled = Self.group(
            [
                solidItem(rect(0, 0, 100, 60), paper, transform: offset),
                DrawItem(transform: offset, shape: rect(0, 0, 100, 60), paint: .bitmap(.image(2))),
            ], rect(0, 0, 100, 60), opacity: 0.7, transform: offset)
        for (name, list) in [("screen", [screen]), ("band", [band]), ("both", [screen, band]), ("unscaled", [unscaled])] {
            let (layered, _) = Self.render(DisplayList(items: list), width: w, height: h, images: images, threads: threads, bypass: false)
            let (direct, prepared) = Self.render(
                DisplayList(items: list), width: w, height: h, images: images, threads: threads, bypass: true)
            #expect(prepared.items.contains { !$0.excluded.isEmpty }, "\(name): no rows bypassed")
            let same = direct == layered
            #expect(same, "\(name): max difference \(maxDifference(direct.pixels, layered.pixels))")
        }
    }

    /// A card's content: clear but for a few inked bars (text), so that ink runs cut the rows.
    static func cardContent(width: Int, height: Int, using rng: inout SeededGenerator) -> Bitmap {
        var content = Bitmap(width: width, height: height)
        let ink = randomBitmap(width: width, height: height, using: &rng)
        for (x0, y0, x1, y1) in [(3, 4, 40, 9), (3, 14, 25, 17), (0, height - 6, width, height), (width - 20, 20, width - 2, 34)] {
            for y in y0 ..< y1 {
                for x in x0 ..< x1 {
                    for c in 0 ..< 4 { content.pixels[(y * width + x) * 4 + c] = ink.pixels[(y * width + x) * 4 + c] }
                }
            }
        }
        return content
    }

    @Test("A group of a solid and a bitmap over it (a card's content, a translucent bar) drawn straight gives the layer's bytes",
          arguments: [1, 3])
    func backedGroupGivesTheLayersBytes(threads: Int) {
        var rng = SeededGenerator(seed: 0xCA_4D)
        let images = [Self.cardContent(width: 64, height: 48, using: &rng), randomBitmap(width: 30, height: 20, using: &rng)]
        let (w, h) = (160, 120)
        let paper = RGBAColor(red: 0.97, green: 0.96, blue: 0.9)
        let glass = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.18)
        let at = AffineTransform2D(a: 1.5, b: 0, c: 0, d: 1.5, tx: 10.3, ty: 7.6)
        func card(
            _ t: AffineTransform2D, solidRadius: Double, bitmapRadius: Double, image: Int, clips: [Clip] = [],
            colour: RGBAColor = paper
        ) -> [DrawItem] {
            [
                solidItem(rect(0, 0, 70.4, 50.2, radius: solidRadius), colour, transform: t, clips: clips),
                DrawItem(transform: t, shape: rect(0, 0, 70.4, 50.2, radius: bitmapRadius), paint: .bitmap(.image(image)), clips: clips),
            ]
        }
        let box = rect(0, 0, 160, 120)
        let clip = Clip(transform: .identity, shape: rect(30.5, 0, 100, 90, radius: 12))
        let unscaled = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 40, ty: 30)
        let cases: [(String, [DrawItem])] = [
            ("rounded card, sharp snapshot", [Self.group(card(at, solidRadius: 9, bitmapRadius: 0, image: 0), box, opacity: 0.55)]),
            ("cross-fade over the card", [solidItem(rect(0, 0, 70.4, 50.2, radius: 9), .white, transform: at)]
                + [Self.group(card(at, solidRadius: 9, bitmapRadius: 0, image: 0), box, opacity: 0.3),
                   Self.group(card(at, solidRadius: 9, bitmapRadius: 0, image: 1), box, opacity: 0.7)]),
            ("same corners, clipped", [Self.group(card(at, solidRadius: 6, bitmapRadius: 6, image: 1, clips: [clip]), box, opacity: 0.8)]),
            ("1:1 at a whole-pixel offset", [Self.group(card(unscaled, solidRadius: 5, bitmapRadius: 2, image: 0), box, opacity: 0.4)]),
            ("translucent bar, cross-fading", [
                Self.group(card(at, solidRadius: 9, bitmapRadius: 0, image: 0, colour: glass), box, opacity: 0.35),
                Self.group(card(at, solidRadius: 9, bitmapRadius: 0, image: 1, colour: glass), box, opacity: 0.65),
            ]),
        ]
        for (name, list) in cases {
            let drawn = DisplayList(items: list)
            let (layered, plain) = Self.render(drawn, width: w, height: h, images: images, threads: threads, bypass: false)
            let (direct, fused) = Self.render(drawn, width: w, height: h, images: images, threads: threads, bypass: true)
            func backed(_ item: PreparedItem) -> Bool { if case .backedGroup = item.fill { true } else { false } }
            #expect(fused.items.contains(where: backed) && !plain.items.contains(where: backed), "\(name): not drawn straight")
            #expect(coverageSum(direct) > 0 && maxDifference(direct.pixels, layered.pixels) == 0, "\(name)")
        }
        // A bitmap rounder than its solid would paint corners the solid leaves: that group keeps its layer.
        let rounder = [Self.group(card(at, solidRadius: 2, bitmapRadius: 9, image: 0), box, opacity: 0.5)]
        let (_, layeredOnly) = Self.render(DisplayList(items: rounder), width: w, height: h, images: images, threads: threads, bypass: true)
        #expect(layeredOnly.items.allSatisfy { if case .backedGroup = $0.fill { false } else { true } })
    }

    @Test("Busy random groups: bypassing layers never changes a byte", arguments: [1 as UInt64, 2, 3, 4, 5, 6])
    func bypassInBusyLists(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 300)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), randomOpaqueBitmap(width: 40, height: 30, using: &rng)]
        let (w, h) = (150, 120)
        let list = Self.groupedList(seed: seed, width: w, height: h, images: images.count)
        for threads in [1, 3] {
            let (layered, _) = Self.render(list, width: w, height: h, images: images, threads: threads, bypass: false)
            let (direct, _) = Self.render(list, width: w, height: h, images: images, threads: threads, bypass: true)
            let same = direct == layered
            #expect(same, "\(threads) threads: max difference \(maxDifference(direct.pixels, layered.pixels))")
        }
    }
}
