import Testing
import Primitives
import FramePlan
@testable import Compositor

/// The projected backdrop blur (`ProjectedBackdropFill`): it replaces the
/// target only inside the projected shape, its coverage edge lands where the
/// same projection puts a solid item's edge, its sigma follows the full map
/// at the shape's centre, any thread count gives the same bytes, and bad
/// maps draw nothing.
@Suite("Projected backdrop blur")
struct ProjectedBackdropTests {
    static func blur(
        _ shape: RoundedRect, sigma: Double, projection: Homography?, clips: [Clip] = [], opacity: Double = 1
    ) -> DrawItem {
        DrawItem(
            transform: .identity, shape: shape, paint: .backdropBlur(sigma: sigma), opacity: opacity, clips: clips,
            projection: projection)
    }

    static func prepared(_ item: DrawItem, width: Int, height: Int) -> (PreparedItem, ProjectedBackdropFill)? {
        let sources = Rasterizer.Sources(images: [], snapshots: [])
        var items: [PreparedItem] = []
        PreparedItem.append(
            item, target: PixelBox(x0: 0, y0: 0, x1: width, y1: height), sources: sources, depth: 0, threads: 1,
            into: &items)
        guard let first = items.first, case .projectedBackdrop(let fill) = first.fill else { return nil }
        return (first, fill)
    }

    /// Opaque black with white rows at odd y, `width x height`: a row at even y is black, and a vertical
    /// blur of sigma >= 2 px turns every row into mid grey (the alternating part's Gaussian gain
    /// exp(-2 pi^2 sigma^2 / 4) is below 1e-4 at sigma 2), so along an even row the composite
    /// `blurred * a + 0 * (1 - a)` shows the coverage `a` directly.
    static func stripes(width: Int, height: Int) -> [DrawItem] {
        [solidItem(rect(0, 0, Double(width), Double(height)), .black)]
            + stride(from: 1, to: height, by: 2).map { solidItem(rect(0, Double($0), Double(width), 1), .white) }
    }

    /// Where `values` (one per column, at pixel centres x + 0.5) cross 0.5 between `from` and `to`, linear between centres.
    static func crossing(_ values: [Double], from: Int, to: Int) -> Double? {
        let step = from < to ? 1 : -1
        var x = from
        while x != to {
            let a0 = values[x]
            let a1 = values[x + step]
            if (a0 - 0.5) * (a1 - 0.5) <= 0 && a0 != a1 { return Double(x) + 0.5 + Double(step) * (0.5 - a0) / (a1 - a0) }
            x += step
        }
        return nil
    }

    @Test("Over a step edge: pixels outside the projected quad untouched, inside exactly the blur, changed near the edge")
    func stepEdgeInsideQuadOnly() throws {
        // Black left of x = 100, white from 100 on, 200 x 120. The blur's 120 x 80 layer is centred at (100, 60),
        // turned 40 degrees about y with the eye 400 points away: a trapezoid around the edge.
        let under = [solidItem(rect(100, 0, 100, 120), .white)]
        let h = ProjectionTests.projection(
            size: (120, 80), position: (100, 60), rotation: ProjectionTests.rotateY(40), perspective: 400)
        let item = Self.blur(rect(0, 0, 120, 80, radius: 10), sigma: 4, projection: h)
        let before = draw(under, width: 200, height: 120, background: .black)
        let after = draw(under + [item], width: 200, height: 120, background: .black)
        let (prepared, fill) = try #require(Self.prepared(item, width: 200, height: 120))
        let shape = try #require(fill.projectedShape)
        let region = try #require(prepared.backdrop)
        let blurred = region.reference(before.pixels, width: 200)
        let w = region.bounds.x1 - region.bounds.x0
        var inside = 0, edge = 0, changedNearEdge = 0, outside = 0
        for y in 0 ..< 120 {
            for x in 0 ..< 200 {
                let coverage = shape.referenceCoverage(x: x, y: y)
                let a = after.pixel(x: x, y: y)
                let b = before.pixel(x: x, y: y)
                if coverage == 0 {
                    outside += 1
                    #expect(a == b, "outside pixel \(x), \(y) changed")
                    continue
                }
                let word = blurred[(y - region.bounds.y0) * w + (x - region.bounds.x0)]
                let g = (0 ..< 4).map { Int((word >> (8 * UInt32($0))) & 0xFF) }
                if coverage == 1 {
                    inside += 1
                    #expect([Int(a.r), Int(a.g), Int(a.b), Int(a.a)] == g, "inside pixel \(x), \(y)")
                    // Pixel sigma 4 x sqrt(cos 40) = 3.50 (centre Jacobian: 0.766 across, 1 along y): within
                    // 3.5 px of the edge the step's Gaussian differs from 0 or 255 by at least 255 x Phi(-1) = 40.
                    if abs(Double(x) + 0.5 - 100) <= 3.5 {
                        #expect(a != b, "pixel \(x), \(y) near the edge unchanged")
                        changedNearEdge += 1
                    }
                } else {
                    edge += 1
                    let p = [a.r, a.g, a.b, a.a].map(Int.init)
                    let q = [b.r, b.g, b.b, b.a].map(Int.init)
                    for c in 0 ..< 4 { #expect(min(g[c], q[c]) - 1 <= p[c] && p[c] <= max(g[c], q[c]) + 1) }
                }
            }
        }
        // The trapezoid spans about 92 x 80 of the 200 x 120 target; its rows cross the edge over 7 columns.
        #expect(
            inside > 5000 && edge > 200 && outside > 15000 && changedNearEdge > 400,
            "\(inside) \(edge) \(outside) \(changedNearEdge)")
    }

    @Test("rotateY 60, perspective 500: the blur's coverage edge lands where the projected solid's does")
    func coverageEdgeMatchesSolid() throws {
        // The geometry of ProjectionTests.rotateYEdges: a 200 x 100 layer at the centre (200, 150) of 400 x 300;
        // its left and right images are at x = 139.52551 and 242.61829 on every row it covers (rotateY keeps
        // vertical edges vertical).
        // Measured: blur 139.552 / 242.696, solid 139.576 / 242.792 on all three rows.
        let h = ProjectionTests.projection(
            size: (200, 100), position: (200, 150), rotation: ProjectionTests.rotateY(60), perspective: 500)
        let stripes = Self.stripes(width: 400, height: 300)
        let item = Self.blur(rect(0, 0, 200, 100), sigma: 4, projection: h)
        let before = draw(stripes, width: 400, height: 300)
        let frame = draw(stripes + [item], width: 400, height: 300)
        let solid = draw(
            [DrawItem(transform: .identity, shape: rect(0, 0, 200, 100), paint: .solid(ProjectionTests.red), projection: h)],
            width: 400, height: 300)
        let (prepared, _) = try #require(Self.prepared(item, width: 400, height: 300))
        let region = try #require(prepared.backdrop)
        let blurred = region.reference(before.pixels, width: 400)
        let w = region.bounds.x1 - region.bounds.x0
        for y in [110, 150, 190] {
            // Coverage along the (black) row: what was laid down over the blurred grey.
            let coverage = (0 ..< 400).map { x -> Double in
                guard region.bounds.x0 <= x, x < region.bounds.x1, region.bounds.y0 <= y, y < region.bounds.y1 else { return 0 }
                let grey = Double(blurred[(y - region.bounds.y0) * w + (x - region.bounds.x0)] & 0xFF)
                return Double(frame.pixel(x: x, y: y).r) / grey
            }
            let solidAlpha = (0 ..< 400).map { ProjectionTests.alpha(solid, $0, y) }
            let left = try #require(Self.crossing(coverage, from: 120, to: 200))
            let right = try #require(Self.crossing(coverage, from: 260, to: 200))
            let solidLeft = try #require(Self.crossing(solidAlpha, from: 120, to: 200))
            let solidRight = try #require(Self.crossing(solidAlpha, from: 260, to: 200))
            #expect(
                abs(left - solidLeft) <= 0.5 && abs(right - solidRight) <= 0.5,
                "row \(y): \(left) \(right) vs \(solidLeft) \(solidRight)")
            #expect(abs(left - 139.52551) <= 0.5 && abs(right - 242.61829) <= 0.5, "row \(y): \(left) \(right)")
        }
        // The grey inside is the blurred stripes: 255 / 2 = 127.5, within a level.
        #expect(abs(Int(frame.pixel(x: 200, y: 150).r) - 128) <= 1, "\(frame.pixel(x: 200, y: 150))")
    }

    @Test("Sigma in pixels: the full map's scale at the shape's centre, sqrt(|det F| / w^3)")
    func pixelSigma() throws {
        let shape = rect(0, 0, 200, 100).rect
        // translateZ(-500) then perspective(500): w = 1 - z / 500 = 2 everywhere, the plane at half size.
        // det F = 2 (diag 1, 1, 2), w^3 = 8: scale sqrt(2 / 8) = 0.5, sigma 4 -> 2 px.
        let far = Transform3D.translation(0, 0, -500).concatenating(.perspective(500)).flattened
        let s1 = try #require(ProjectedBackdropFill.pixelSigma(4, transform: .identity, shape: shape, projection: far))
        #expect(abs(s1 - 2) < 1e-12)
        // rotateY 60, perspective 500, centred: at the centre X = 0, w = 1, d x'/dX = cos 60 = 0.5, d y'/dY = 1,
        // cross terms 0 (they carry the factor X or Y): scale sqrt(0.5), sigma 4 -> 2.8284271.
        let h = ProjectionTests.projection(
            size: (200, 100), position: (200, 150), rotation: ProjectionTests.rotateY(60), perspective: 500)
        let s2 = try #require(ProjectedBackdropFill.pixelSigma(4, transform: .identity, shape: shape, projection: h))
        #expect(abs(s2 - 4 * 0.5.squareRoot()) < 1e-9)
        // An affine map gives BackdropFill's scale: scale(2, 8), sqrt(16) = 4 px per unit, sigma 3 -> 12.
        let affine = Homography(affine: .scale(2, 8))
        #expect(ProjectedBackdropFill.pixelSigma(3, transform: .identity, shape: shape, projection: affine) == 12)
        #expect(BackdropFill.pixelSigma(3, transform: .scale(2, 8)) == 12)
        // Centre behind the eye: no sigma.
        let behind = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: -1)
        #expect(ProjectedBackdropFill.pixelSigma(3, transform: .identity, shape: shape, projection: behind) == nil)
    }

    @Test("An affine projection draws the ordinary blur's bytes; a projected clip on a 2-D blur keeps outside pixels")
    func affineAndProjectedClip() throws {
        let stripes = Self.stripes(width: 160, height: 100)
        let base = draw(stripes, width: 160, height: 100)
        let plain = DrawItem(
            transform: .translation(20, 10), shape: rect(0, 0, 60, 40, radius: 6), paint: .backdropBlur(sigma: 3))
        let viaProjection = DrawItem(
            transform: .identity, shape: rect(0, 0, 60, 40, radius: 6), paint: .backdropBlur(sigma: 3),
            projection: Homography(affine: .translation(20, 10)))
        #expect(draw(stripes + [plain], width: 160, height: 100) == draw(stripes + [viaProjection], width: 160, height: 100))

        let h = ProjectionTests.projection(
            size: (100, 60), position: (80, 50), rotation: ProjectionTests.rotateX(35), perspective: 300)
        let clip = Clip(transform: .identity, shape: rect(0, 0, 100, 60, radius: 12), projection: h)
        let item = DrawItem(transform: .identity, shape: rect(0, 0, 160, 100), paint: .backdropBlur(sigma: 3), clips: [clip])
        let out = draw(stripes + [item], width: 160, height: 100)
        let (_, fill) = try #require(Self.prepared(item, width: 160, height: 100))
        #expect(fill.projectedShape == nil)
        let clipShape = try #require(fill.projectedClips.first)
        var inside = 0
        for y in 0 ..< 100 {
            for x in 0 ..< 160 {
                let c = clipShape.referenceCoverage(x: x, y: y)
                if c == 0 { #expect(out.pixel(x: x, y: y) == base.pixel(x: x, y: y), "outside \(x), \(y)") }
                if c == 1 {
                    inside += 1
                    // Stripes blurred at 3 px: mid grey 127.5, within a level.
                    #expect(abs(Int(out.pixel(x: x, y: y).r) - 128) <= 1, "inside \(x), \(y)")
                }
            }
        }
        #expect(inside > 3000, "\(inside)")
    }

    static func busyList() -> [DrawItem] {
        let (list, _) = ProjectionTests.projectedList()
        let h1 = ProjectionTests.projection(
            size: (200, 120), position: (120, 90), rotation: ProjectionTests.rotateY(55), perspective: 300)
        let h2 = ProjectionTests.projection(
            size: (160, 160), position: (260, 170), rotation: ProjectionTests.rotateX(-40), perspective: 350)
        let affineClip = Clip(transform: .identity, shape: rect(20, 10, 300, 200, radius: 20))
        let projectedClip = Clip(transform: .identity, shape: rect(10, 10, 140, 140, radius: 30), projection: h2)
        return list.items + [
            Self.blur(rect(0, 0, 200, 120, radius: 16), sigma: 6, projection: h1, clips: [affineClip], opacity: 0.8),
            solidItem(rect(60, 60, 80, 40), ProjectionTests.blue, opacity: 0.6),
            Self.blur(rect(0, 0, 340, 240), sigma: 3, projection: nil, clips: [projectedClip]),
            solidItem(rect(200, 120, 100, 80), ProjectionTests.red),
        ]
    }

    @Test("Projected blurs (shape and clip) draw byte-identically with 1, 2 and 4 threads, and item by item")
    func threadDeterminism() {
        let (_, images) = ProjectionTests.projectedList()
        let items = Self.busyList()
        let plan = TestPlan(width: 340, height: 240, background: .white, images: images, frames: [DisplayList(items: items)])
        let one = FrameRenderer(plan: plan, threads: 1).render(frame: 0)
        for threads in [2, 4] { #expect(FrameRenderer(plan: plan, threads: threads).render(frame: 0) == one, "\(threads) threads") }
        var oneByOne = Bitmap(width: 340, height: 240)
        Compositor.fill(&oneByOne, with: .white)
        for item in items { Compositor.draw(DisplayList(items: [item]), onto: &oneByOne, images: images) }
        #expect(oneByOne == one)
        // Both blurs are pass boundaries and change the frame.
        let prepared = Rasterizer.prepare(
            DisplayList(items: items), width: 340, height: 240,
            sources: Rasterizer.Sources(images: images, snapshots: [], referencedBy: DisplayList(items: items)))
        #expect(prepared.boundaries.count == 2)
        var without = Bitmap(width: 340, height: 240)
        Compositor.fill(&without, with: .white)
        let noBlurs = items.filter { if case .backdropBlur = $0.paint { false } else { true } }
        Compositor.draw(DisplayList(items: noBlurs), onto: &without, images: images)
        #expect(without != one)
    }

    @Test("Bad input draws nothing: NaN, infinite, singular or zero maps, behind the eye, centre behind the eye, bad sigma")
    func badInput() {
        let stripes = Self.stripes(width: 300, height: 200)
        let base = draw(stripes, width: 300, height: 200)
        let shape = rect(0, 0, 200, 100)
        let good = ProjectionTests.projection(
            size: (200, 100), position: (150, 100), rotation: ProjectionTests.rotateY(20), perspective: 500)
        let nan = Homography(m11: .nan, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let infinite = Homography(m11: 1, m12: 0, m13: .infinity, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let singular = Homography(m11: 1, m12: 2, m13: 0.001, m21: 2, m22: 4, m23: 0.002, m31: 0, m32: 0, m33: 1)
        let zero = Homography(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0)
        // translateZ(600) under perspective(500): w = 1 - 600 / 500 = -0.2 everywhere, the whole plane behind the eye.
        let behind = Transform3D.translation(0, 0, 600).concatenating(.perspective(500)).flattened
        // rotateY 60, translateZ 520, perspective 500: w = 1 - (520 - X sin 60) / 500 = (X sin 60 - 20) / 500,
        // so the right part (X > 23.1) is in front of the eye but the centre (X = 0, w = -0.04) is not: no sigma.
        // Placed at x = -300 so the visible part lands on the canvas: x' = -300 + X cos 60 / w is 75 at X = 100
        // (w = 0.1332) and 236 at X = 50 (w = 0.0466).
        let centreBehind = Transform3D.translation(-100, -50, 0)
            .concatenating(ProjectionTests.rotateY(60))
            .concatenating(.translation(0, 0, 520))
            .concatenating(.perspective(500))
            .concatenating(.translation(-300, 100, 0))
            .flattened
        var items: [DrawItem] = [nan, infinite, singular, zero, behind, centreBehind].map {
            Self.blur(shape, sigma: 4, projection: $0)
        }
        items += [Double.nan, .infinity, -3, 0].map { Self.blur(shape, sigma: $0, projection: good) }
        items.append(Self.blur(shape, sigma: 4, projection: good, clips: [Clip(transform: .identity, shape: shape, projection: nan)]))
        items.append(Self.blur(shape, sigma: 4, projection: nil, clips: [Clip(transform: .identity, shape: shape, projection: zero)]))
        for item in items {
            #expect(draw(stripes + [item], width: 300, height: 200) == base, "\(item)")
        }
        // The centre-behind map does have a visible part (a solid would draw it): the no-draw is the blur's own rule.
        let visible = draw(
            [DrawItem(transform: .identity, shape: shape, paint: .solid(ProjectionTests.red), projection: centreBehind)],
            width: 300, height: 200)
        #expect(coverageSum(visible) > 100)
        // A huge sigma is capped, not a trap: the frame changes and stays opaque grey-scale.
        let capped = draw(stripes + [Self.blur(shape, sigma: 1e300, projection: good)], width: 300, height: 200)
        #expect(capped != base && capped.pixel(x: 150, y: 100).a == 255)
    }
}
