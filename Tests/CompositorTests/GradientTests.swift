import Testing
import Primitives
import FramePlan
@testable import Compositor

/// `.gradient` paints: values worked by hand for each kind, locations, hard
/// stops, premultiplied interpolation and corner clipping; the SIMD kernel
/// against its scalar reference on every path.
@Suite("Gradients")
struct GradientTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1)

    func item(
        _ kind: GradientPaint.Kind, _ shape: RoundedRect, start: Point, end: Point,
        colors: [RGBAColor] = [red, blue], locations: [Double] = [0, 1],
        transform: AffineTransform2D = .identity, opacity: Double = 1, clips: [Clip] = []
    ) -> DrawItem {
        DrawItem(
            transform: transform, shape: shape,
            paint: .gradient(GradientPaint(kind: kind, colors: colors, locations: locations, start: start, end: end)),
            opacity: opacity, clips: clips)
    }

    func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let p = b.pixel(x: x, y: y)
        return [p.r, p.g, p.b, p.a]
    }

    // MARK: Values worked by hand

    /// 100 x 10, red at the left edge to blue at the right: pixel x's centre
    /// is t = (x + 0.5) / 100, red 255 (1 - t), blue 255 t.
    @Test("Axial: a 100 x 10 red -> blue at pixel 25 is (190, 0, 65) (t = 0.255)")
    func axialByHand() {
        let drawn = draw(
            [item(.axial, rect(0, 0, 100, 10), start: Point(x: 0, y: 5), end: Point(x: 100, y: 5))],
            width: 100, height: 10, background: .black)
        #expect(pixel(drawn, 25, 4) == [190, 0, 65, 255])  // 189.975, 65.025
        #expect(pixel(drawn, 0, 0) == [254, 0, 1, 255])  // t = 0.005
        #expect(pixel(drawn, 99, 9) == [1, 0, 254, 255])  // t = 0.995
        #expect(pixel(drawn, 60, 0) == pixel(drawn, 60, 9))  // constant across the axis
    }

    /// Points are evaluated in the unit square of the rect, as Core
    /// Animation does: (0, 0) -> (1, 1) on a 200 x 100 rect makes isolines
    /// along the other diagonal, so (200, 0) and (0, 100) are both t = 0.5.
    @Test("Axial: a diagonal on a 2:1 rect is diagonal in the unit square (Core Animation's squish)")
    func axialInUnitSquare() {
        let drawn = draw(
            [
                item(
                    .axial, rect(0, 0, 200, 100), start: Point(x: 0, y: 0), end: Point(x: 200, y: 100),
                    colors: [.white, .black])
            ], width: 200, height: 100)
        // Pixel (149, 24): q = (0.7475, 0.245), t = (q.x + q.y) / 2 = 0.49625: 255 * 0.50375 = 128.46.
        #expect(pixel(drawn, 149, 24) == [128, 128, 128, 255])
        // The far corners of the other diagonal: t = 0.50125 and 0.49875 (127.18, 127.82), where
        // isolines perpendicular on screen would put them at t = 0.1 and 0.9.
        #expect(pixel(drawn, 199, 0) == [127, 127, 127, 255])
        #expect(pixel(drawn, 0, 99) == [128, 128, 128, 255])
    }

    /// A circle of radius 50 around (50, 50), white -> black: pixel (74, 49)
    /// has u = 24.5 / 50, v = -0.5 / 50, t = sqrt(0.2402) = 0.49010, 255 (1 - t) = 130.02.
    /// On a 200 x 100 rect the same unit points make an ellipse of radii 100, 50.
    @Test("Radial: circle and ellipse values by hand; beyond the end the last colour")
    func radialByHand() {
        let circle = draw(
            [
                item(
                    .radial, rect(0, 0, 100, 100), start: Point(x: 50, y: 50), end: Point(x: 100, y: 100),
                    colors: [.white, .black])
            ], width: 100, height: 100)
        #expect(pixel(circle, 74, 49) == [130, 130, 130, 255])
        #expect(pixel(circle, 0, 0) == [0, 0, 0, 255])
        #expect(pixel(circle, 49, 49) == [251, 251, 251, 255])  // t = sqrt(2) * 0.01: 255 * (1 - 0.01414) = 251.39
        let ellipse = draw(
            [
                item(
                    .radial, rect(0, 0, 200, 100), start: Point(x: 100, y: 50), end: Point(x: 200, y: 100),
                    colors: [.white, .black])
            ], width: 200, height: 100)
        // u = 49.5 / 100, v = -0.5 / 50: t = sqrt(0.245025 + 0.0001) = 0.49510, 255 (1 - t) = 128.75.
        #expect(pixel(ellipse, 149, 49) == [129, 129, 129, 255])
        // Along the short axis the same t comes twice as fast: (100, 74) is u = 0.005, v = 0.49.
        #expect(pixel(ellipse, 100, 74) == [130, 130, 130, 255])
    }

    /// Around (49.5, 49.5) starting towards +x (end (100, 49.5)), red at 0 to
    /// blue at 0.8: the pixel straight below the centre is 90 degrees
    /// clockwise on screen, t = 0.25, w = 0.3125: red 175.31, blue 79.69.
    @Test("Conic: 90 degrees clockwise is t = 0.25, 180 is 0.5, 270 is 0.75; the start follows endPoint")
    func conicByHand() {
        let shape = rect(0, 0, 100, 100)
        func conic(towards end: Point) -> Bitmap {
            draw([item(.conic, shape, start: Point(x: 49.5, y: 49.5), end: end, locations: [0, 0.8])], width: 100, height: 100)
        }
        let right = conic(towards: Point(x: 100, y: 49.5))
        #expect(pixel(right, 80, 49) == [255, 0, 0, 255])  // 0 degrees
        #expect(pixel(right, 70, 70) == [215, 0, 40, 255])  // 45, below right: t = 0.125, 215.16, 39.84
        #expect(pixel(right, 49, 80) == [175, 0, 80, 255])  // 90, below
        #expect(pixel(right, 20, 49) == [96, 0, 159, 255])  // 180, left: t = 0.5, 95.63, 159.38
        #expect(pixel(right, 49, 20) == [16, 0, 239, 255])  // 270, above: t = 0.75, 15.94, 239.06
        #expect(pixel(right, 80, 48) == [0, 0, 255, 255])  // just above the start line: t near 1, past 0.8
        let down = conic(towards: Point(x: 49.5, y: 100))
        #expect(pixel(down, 49, 80) == [255, 0, 0, 255])
        #expect(pixel(down, 20, 49) == [175, 0, 80, 255])  // clockwise from down is left
    }

    @Test("Locations: the first colour before the first, the last after the last, linear between; a repeated location is a hard stop")
    func locationsByHand() {
        let soft = draw(
            [
                item(
                    .axial, rect(0, 0, 100, 1), start: Point(x: 0, y: 0), end: Point(x: 100, y: 0), colors: [.white, .black],
                    locations: [0.25, 0.75])
            ], width: 100, height: 1)
        #expect(pixel(soft, 10, 0) == [255, 255, 255, 255])
        #expect(pixel(soft, 24, 0) == [255, 255, 255, 255])
        #expect(pixel(soft, 49, 0) == [130, 130, 130, 255])  // t = 0.495: w = 0.49, 255 * 0.51 = 130.05
        #expect(pixel(soft, 75, 0) == [0, 0, 0, 255])
        let hard = draw(
            [
                item(
                    .axial, rect(0, 0, 100, 1), start: Point(x: 0, y: 0), end: Point(x: 100, y: 0),
                    colors: [Self.red, Self.red, Self.blue, Self.blue], locations: [0, 0.5, 0.5, 1])
            ], width: 100, height: 1)
        #expect(pixel(hard, 49, 0) == [255, 0, 0, 255])
        #expect(pixel(hard, 50, 0) == [0, 0, 255, 255])
        // One colour fills the shape.
        let one = draw(
            [item(.radial, rect(0, 0, 10, 10), start: Point(x: 5, y: 5), end: Point(x: 10, y: 10), colors: [Self.red], locations: [0.3])],
            width: 10, height: 10)
        #expect((0 ..< 10).allSatisfy { pixel(one, $0, $0) == [255, 0, 0, 255] })
    }

    /// Red to a transparent blue: premultiplied, the blue never shows
    /// (straight-alpha interpolation would tint the middle purple).
    @Test("Colours interpolate premultiplied: red -> transparent blue stays red, fading")
    func premultipliedInterpolation() {
        let drawn = draw(
            [
                item(
                    .axial, rect(0, 0, 100, 1), start: Point(x: 0, y: 0), end: Point(x: 100, y: 0),
                    colors: [Self.red, RGBAColor(red: 0, green: 0, blue: 1, alpha: 0)])
            ], width: 100, height: 1)
        #expect(pixel(drawn, 25, 0) == [190, 0, 0, 190])
        #expect(pixel(drawn, 74, 0) == [65, 0, 0, 65])  // t = 0.745: 255 * 0.255 = 65.03
    }

    @Test("Degenerate geometry: a zero start -> end (or a zero radius) is the last colour everywhere")
    func degenerateIsTheLastColour() {
        for kind in [GradientPaint.Kind.axial, .radial] {
            let end = kind == .axial ? Point(x: 5, y: 5) : Point(x: 10, y: 5)  // radial: zero vertical radius
            let drawn = draw(
                [item(kind, rect(0, 0, 10, 10), start: Point(x: 5, y: 5), end: end)], width: 10, height: 10)
            #expect((0 ..< 10).allSatisfy { pixel(drawn, $0, 9 - $0) == [0, 0, 255, 255] }, "\(kind)")
        }
    }

    @Test("The corner radius clips the gradient; an opaque gradient hides what is under it")
    func cornersAndOcclusion() {
        let under = solidItem(rect(0, 0, 40, 40), .white)
        let disc = item(.axial, rect(0, 0, 40, 40, radius: 20), start: Point(x: 0, y: 0), end: Point(x: 40, y: 0))
        let drawn = draw([under, disc], width: 40, height: 40, background: .black)
        #expect(pixel(drawn, 0, 0) == [255, 255, 255, 255])  // outside the circle: the white under it
        #expect(pixel(drawn, 39, 39) == [255, 255, 255, 255])
        #expect(pixel(drawn, 20, 20) == [124, 0, 131, 255])  // t = 20.5 / 40: 124.31, 130.69
        let sources = Rasterizer.Sources(images: [], snapshots: [], referencedBy: DisplayList(items: [under, disc]))
        let prepared = Rasterizer.prepare(DisplayList(items: [under, disc]), width: 40, height: 40, sources: sources)
        #expect(prepared.items.count == 2 && !prepared.items[0].hiddenBy.isEmpty)
        // A translucent stop: not opaque, nothing hidden.
        var translucent = disc
        translucent.paint = .gradient(
            GradientPaint(kind: .axial, colors: [.white, .clear], locations: [0, 1], start: .zero, end: Point(x: 40, y: 0)))
        let p2 = Rasterizer.prepare(DisplayList(items: [under, translucent]), width: 40, height: 40, sources: sources)
        #expect(p2.items[0].hiddenBy.isEmpty)
        // Every colour transparent: nothing is prepared.
        translucent.paint = .gradient(GradientPaint(kind: .conic, colors: [.clear, .clear], locations: [0, 1], start: .zero, end: .zero))
        #expect(Rasterizer.prepare(DisplayList(items: [translucent]), width: 40, height: 40, sources: sources).items.isEmpty)
    }

    // MARK: Kernel against reference

    /// Every kind, under identity, scale, rotation and shear, with soft and
    /// hard stops and translucent colours, over runs of every length 1...19
    /// (the SIMD tails) at several offsets: within one level per channel.
    @Test("The SIMD kernel matches the scalar reference (each kind, rotated, sheared, hard stops, row tails)")
    func kernelMatchesReference() {
        var rng = SeededGenerator(seed: 5)
        let transforms: [AffineTransform2D] = [
            .identity, .scale(2.5, 0.7).concatenating(.translation(10.5, -3)), rotation(degrees: 33, about: 40, 30),
            AffineTransform2D(a: 1, b: 0.4, c: -0.3, d: 1.2, tx: 7, ty: 2), rotation(degrees: -120, about: 60, 60),
        ]
        var worst = 0
        var compared = 0
        var out = [UInt8](repeating: 0, count: 4 * 40)
        for trial in 0 ..< 60 {
            let shape = Rect(
                x: Double.random(in: -10 ... 10, using: &rng), y: Double.random(in: -10 ... 10, using: &rng),
                width: Double.random(in: 5 ... 80, using: &rng), height: Double.random(in: 5 ... 80, using: &rng))
            var paint = randomGradient(in: shape, first: Self.red, using: &rng)
            paint.kind = GradientPaint.Kind.allCases[trial % 3]
            let transform = transforms[trial % transforms.count]
            guard let g = GradientGeometry(paint, transform: transform, rect: shape), let ramp = GradientRamp(paint) else {
                Issue.record("trial \(trial) did not prepare")
                continue
            }
            for y in stride(from: -5, to: 90, by: 7) {
                for count in 1 ... 19 {
                    let x0 = (trial * 7 + count * 3) % 60 - 5
                    out.withUnsafeMutableBufferPointer { buffer in
                        GradientKernels.shadeRow(
                            g, stops: ramp.table, segments: ramp.segmentCount, y: y, x0: x0, count: count, into: buffer.baseAddress!)
                    }
                    for i in 0 ..< count {
                        let r = GradientKernels.referencePixel(g, ramp, x: x0 + i, y: y)
                        let k = [r.x, r.y, r.z, r.w]
                        for c in 0 ..< 4 {
                            worst = max(worst, abs(Int(out[4 * i + c]) - Int(k[c])))
                            #expect(out[4 * i + c] <= out[4 * i + 3], "premultiplied")
                        }
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 50_000)
        #expect(worst <= 1, "worst difference \(worst)")
    }

    /// Gradients of each kind, rotated, clipped by a rotated rounded clip, at
    /// opacity below 1, over a translucent background, drawn by the pipeline
    /// (interior and edge runs, bands) and by the per-pixel reference.
    @Test("Clipped, rotated, translucent gradients in the pipeline match the per-pixel reference")
    func pipelineMatchesReference() {
        var items: [DrawItem] = []
        for (i, kind) in GradientPaint.Kind.allCases.enumerated() {
            let shape = rect(0, 0, 70, 40, radius: 9)
            items.append(
                item(
                    kind, shape, start: Point(x: 10, y: 5), end: Point(x: 60, y: 35),
                    colors: [Self.red, RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5), Self.blue], locations: [0, 0.4, 1],
                    transform: AffineTransform2D.rotation(Double(i) * 0.7 + 0.2).concatenating(.translation(20 + Double(i) * 35, 30)),
                    opacity: i == 1 ? 1 : 0.6,
                    clips: [Clip(transform: rotation(degrees: 15, about: 60, 60), shape: rect(10, 15, 120, 90, radius: 20))]))
        }
        let (w, h) = (150, 120)
        let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.7)
        let list = DisplayList(items: items)
        let fast = FrameRenderer(
            plan: TestPlan(width: w, height: h, background: background, images: [], frames: [list]), threads: 2
        ).render(frame: 0)
        let reference = PipelineTests.referenceRender(
            list, width: w, height: h, background: background, sources: Rasterizer.Sources(images: [], snapshots: []))
        let differences = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        #expect((differences.max() ?? 0) <= 2, "max difference \(differences.max() ?? 0)")
        #expect(coverageSum(fast) > 0)
    }
}
