import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Frame renderer")
struct FrameRendererTests {
    /// A snapshot with a rotated rounded card, an image and a clipped stripe.
    static func busySnapshot(image: Int) -> SnapshotDescription {
        SnapshotDescription(
            name: "card", pixelWidth: 48, pixelHeight: 36,
            content: DisplayList(items: [
                solidItem(rect(2, 2, 44, 32, radius: 6), RGBAColor(red: 0.9, green: 0.9, blue: 1, alpha: 0.9)),
                DrawItem(
                    transform: rotation(degrees: 12, about: 24, 18), shape: rect(8, 6, 30, 20, radius: 3),
                    paint: .bitmap(.image(image)), opacity: 0.8),
                solidItem(
                    rect(0, 14, 48, 6), .black, opacity: 0.5,
                    clips: [Clip(transform: .identity, shape: rect(4, 0, 40, 36, radius: 8))]),
            ]))
    }

    @Test("Snapshots are rasterized once; a frame drawing one at identity reproduces its pixels")
    func snapshotRasterizedOnceAndSampled() {
        var rng = SeededGenerator(seed: 21)
        let image = randomBitmap(width: 10, height: 7, using: &rng)
        let frame = DisplayList(items: [
            DrawItem(transform: .identity, shape: rect(0, 0, 48, 36), paint: .bitmap(.snapshot(0)))
        ])
        let moved = DisplayList(items: [
            DrawItem(transform: .translation(7, 3), shape: rect(0, 0, 48, 36), paint: .bitmap(.snapshot(0)))
        ])
        let plan = TestPlan(
            width: 64, height: 48, images: [image], snapshots: [Self.busySnapshot(image: 0)],
            frames: [frame, moved, frame])
        let renderer = FrameRenderer(plan: plan)
        let snapshot = renderer.snapshotBitmap(0)
        #expect(snapshot.width == 48 && snapshot.height == 36)
        #expect(coverageSum(snapshot) > 500)  // the content was drawn
        #expect(snapshot == Compositor.rasterize(Self.busySnapshot(image: 0), images: [image]))
        let reads = plan.snapshotReadCount
        let f0 = renderer.render(frame: 0)
        let f1 = renderer.render(frame: 1)
        _ = renderer.render(frame: 2)
        #expect(plan.snapshotReadCount == reads, "render must not re-read or re-rasterize snapshots")
        for y in 0 ..< 48 {
            for x in 0 ..< 64 {
                let inside = x < 48 && y < 36
                #expect(f0.pixel(x: x, y: y) == (inside ? snapshot.pixel(x: x, y: y) : (0, 0, 0, 0)))
                let insideMoved = (7 ..< 55).contains(x) && (3 ..< 39).contains(y)
                #expect(f1.pixel(x: x, y: y) == (insideMoved ? snapshot.pixel(x: x - 7, y: y - 3) : (0, 0, 0, 0)))
            }
        }
    }

    @Test("A snapshot item that references a snapshot draws nothing")
    func snapshotInSnapshotIgnored() {
        let nested = SnapshotDescription(
            name: "bad", pixelWidth: 8, pixelHeight: 8,
            content: DisplayList(items: [
                DrawItem(transform: .identity, shape: rect(0, 0, 8, 8), paint: .bitmap(.snapshot(0)))
            ]))
        let renderer = FrameRenderer(plan: TestPlan(width: 8, height: 8, snapshots: [nested], frames: []))
        #expect(coverageSum(renderer.snapshotBitmap(0)) == 0)
    }

    @Test("A transparent canvas background gives alpha 0 where nothing is drawn")
    func transparentBackground() {
        let plan = TestPlan(
            width: 20, height: 10, background: .clear,
            frames: [DisplayList(items: [solidItem(rect(5, 2, 4, 4), .white)])])
        let b = FrameRenderer(plan: plan).render(frame: 0)
        for y in 0 ..< 10 {
            for x in 0 ..< 20 {
                let inside = (5 ..< 9).contains(x) && (2 ..< 6).contains(y)
                #expect(b.pixel(x: x, y: y) == (inside ? (255, 255, 255, 255) : (0, 0, 0, 0)))
            }
        }
    }

    @Test("The canvas background is premultiplied")
    func premultipliedBackground() {
        let plan = TestPlan(
            width: 4, height: 4, background: RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5),
            frames: [DisplayList()])
        let p = FrameRenderer(plan: plan).render(frame: 0).pixel(x: 2, y: 2)
        #expect(p == (128, 64, 0, 128))
    }

    /// Many overlapping items of every kind: rotations, scales, radii, clips, opacity, images, snapshots.
    static func busyPlan(seed: UInt64, width: Int = 157, height: Int = 121) -> TestPlan {
        var rng = SeededGenerator(seed: seed)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31)]
        var items: [DrawItem] = []
        for _ in 0 ..< 60 {
            let t = AffineTransform2D.scale(Double.random(in: 0.3 ... 3, using: &rng), Double.random(in: 0.3 ... 3, using: &rng))
                .concatenating(.rotation(Bool.random(using: &rng) ? Double.random(in: -3 ... 3, using: &rng) : 0))
                .concatenating(
                    .translation(
                        Double.random(in: -20 ... Double(width), using: &rng),
                        Double.random(in: -20 ... Double(height), using: &rng)))
            let shape = rect(
                Double.random(in: -10 ... 10, using: &rng), Double.random(in: -10 ... 10, using: &rng),
                Double.random(in: 1 ... 60, using: &rng), Double.random(in: 1 ... 60, using: &rng),
                radius: Double.random(in: 0 ... 15, using: &rng))
            let paint: Paint
            switch Int.random(in: 0 ..< 4, using: &rng) {
            case 0: paint = .bitmap(.image(0))
            case 1: paint = .bitmap(.image(1))
            case 2: paint = .bitmap(.snapshot(0))
            default:
                paint = .solid(
                    RGBAColor(
                        red: .random(in: 0 ... 1, using: &rng), green: .random(in: 0 ... 1, using: &rng),
                        blue: .random(in: 0 ... 1, using: &rng), alpha: .random(in: 0.2 ... 1, using: &rng)))
            }
            var clips: [Clip] = []
            if Bool.random(using: &rng) {
                clips.append(
                    Clip(
                        transform: rotation(degrees: .random(in: -40 ... 40, using: &rng), about: 60, 60),
                        shape: rect(
                            .random(in: 0 ... 60, using: &rng), .random(in: 0 ... 60, using: &rng),
                            .random(in: 20 ... 100, using: &rng), .random(in: 20 ... 100, using: &rng),
                            radius: .random(in: 0 ... 20, using: &rng))))
            }
            items.append(
                DrawItem(
                    transform: t, shape: shape, paint: paint,
                    opacity: .random(in: 0.3 ... 1, using: &rng), clips: clips))
        }
        return TestPlan(
            width: width, height: height, background: RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7),
            images: images, snapshots: [busySnapshot(image: 0), busySnapshot(image: 1)],
            frames: [DisplayList(items: items)])
    }

    @Test("1 and 4 threads give byte-identical frames", arguments: [1 as UInt64, 2, 3])
    func threadsAreByteIdentical(seed: UInt64) {
        let plan = Self.busyPlan(seed: seed)
        let one = FrameRenderer(plan: plan, threads: 1)
        let four = FrameRenderer(plan: plan, threads: 4)
        let a = one.render(frame: 0)
        let b = four.render(frame: 0)
        #expect(coverageSum(a) > 0)
        #expect(a == b)
        #expect(one.snapshotBitmap(0) == four.snapshotBitmap(0) && one.snapshotBitmap(1) == four.snapshotBitmap(1))
        // Also with more bands than rows would split evenly, and via the free function.
        var c = Bitmap(width: 157, height: 121)
        Compositor.fill(&c, with: plan.canvas.background)
        Compositor.draw(
            plan.displayList(frame: 0), onto: &c, images: plan.images,
            snapshots: [one.snapshotBitmap(0), one.snapshotBitmap(1)], threads: 7)
        #expect(a == c)
    }

    @Test("render(frame:into:) reuses a canvas-sized target and resizes a wrong one")
    func renderInto() {
        let plan = Self.busyPlan(seed: 4, width: 40, height: 30)
        let renderer = FrameRenderer(plan: plan, threads: 2)
        let expected = renderer.render(frame: 0)
        var target = Bitmap(width: 40, height: 30, fill: (1, 2, 3, 4))
        renderer.render(frame: 0, into: &target)
        #expect(target == expected)
        renderer.render(frame: 0, into: &target)
        #expect(target == expected)
        var wrong = Bitmap(width: 3, height: 3)
        renderer.render(frame: 0, into: &wrong)
        #expect(wrong == expected)
    }

    @Test("NaN, infinite and degenerate input does not crash and draws nothing")
    func degenerateInputDrawsNothing() {
        let nan = Double.nan
        let inf = Double.infinity
        let bad: [DrawItem] = [
            solidItem(rect(0, 0, 10, 10), .white, transform: AffineTransform2D(a: nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
            solidItem(rect(0, 0, 10, 10), .white, transform: AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: nan, ty: 3)),
            solidItem(rect(0, 0, 10, 10), .white, transform: AffineTransform2D(a: inf, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
            solidItem(rect(0, 0, 10, 10), .white, transform: .scale(0, 1)),
            solidItem(rect(0, 0, 10, 10), .white, transform: AffineTransform2D(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)),
            solidItem(rect(0, 0, 10, 10), .white, transform: .scale(1e-13, 1e-13)),
            solidItem(rect(0, 0, 10, 10), .white, transform: .scale(1e300, 1e300)),
            solidItem(rect(nan, 0, 10, 10), .white),
            solidItem(rect(0, 0, nan, 10), .white),
            solidItem(rect(0, 0, 0, 10), .white),
            solidItem(rect(0, 0, -5, 10), .white),
            solidItem(rect(0, 0, inf, 10), .white),
            solidItem(rect(0, 0, 10, 10), .white, opacity: nan),
            solidItem(rect(0, 0, 10, 10), .white, opacity: 0),
            solidItem(rect(0, 0, 10, 10), .white, opacity: -1),
            solidItem(rect(0, 0, 10, 10), RGBAColor(red: 1, green: 1, blue: 1, alpha: nan)),
            solidItem(rect(0, 0, 10, 10), .clear),
            solidItem(rect(100, 100, 10, 10), .white),  // outside the target
            solidItem(
                rect(0, 0, 10, 10), .white,
                clips: [Clip(transform: AffineTransform2D(a: nan, b: nan, c: 0, d: 1, tx: 0, ty: 0), shape: rect(0, 0, 5, 5))]),
            solidItem(rect(0, 0, 10, 10), .white, clips: [Clip(transform: .identity, shape: rect(0, 0, 0, 5))]),
            solidItem(rect(0, 0, 10, 10), .white, clips: [Clip(transform: .identity, shape: rect(12, 12, 4, 4))]),
            DrawItem(transform: .identity, shape: rect(0, 0, 10, 10), paint: .bitmap(.image(5))),
            DrawItem(transform: .identity, shape: rect(0, 0, 10, 10), paint: .bitmap(.image(-1))),
            DrawItem(transform: .identity, shape: rect(0, 0, 10, 10), paint: .bitmap(.image(0))),  // empty image
            DrawItem(transform: .identity, shape: rect(0, 0, 10, 10), paint: .bitmap(.snapshot(3))),
            DrawItem(
                transform: AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: inf),
                shape: rect(0, 0, 10, 10), paint: .bitmap(.image(1))),
        ]
        let images = [Bitmap(width: 0, height: 0), Bitmap(width: 2, height: 2, fill: (9, 9, 9, 9))]
        let bg = RGBAColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1)
        let b = draw(bad, width: 12, height: 12, background: bg, images: images, threads: 3)
        #expect(b == draw([], width: 12, height: 12, background: bg))
        // A NaN corner radius is treated as 0, not as "draw nothing".
        let r = draw([solidItem(rect(0, 0, 4, 4, radius: nan), .white)], width: 4, height: 4)
        #expect(coverageSum(r) == 16)
    }

    @Test("A row ahead is the row the same band draws two rows later, across its chunks", arguments: [1, 2, 3, 4])
    func rowsAheadFollowTheBand(bands: Int) {
        let rows = 5 ..< 5 + 9 * Rasterizer.chunkRows
        for band in 0 ..< bands {
            var order: [Int] = []
            Rasterizer.forEachRow(of: band, in: .even(bands), rows: rows) { order.append($0) }
            for (k, y) in order.enumerated().dropLast(2) {
                #expect(Rasterizer.rowAhead(y, by: 2, split: .even(bands)) == order[k + 2], "band \(band) of \(bands), row \(y)")
            }
        }
    }
}
