import Testing
import Primitives
import FramePlan
@testable import Compositor

/// The plan's one definition of how far a paint draws (`Paint.reach`,
/// `DrawItem.paintRect`, `ShadowBlur`) is the compositor's: it never draws
/// outside, and a shadow's blur and extent come from it. (That the engine's
/// group layers hold it is pinned in `TransitionEngineTests/GroupBoundsTests`.)
@Suite("Paint extents")
struct PaintExtentTests {
    /// Half a pixel of anti-aliasing beyond an edge, at most diagonally.
    static let fringe = 0.5.squareRoot() + 1e-9

    /// Pixels with non-zero alpha whose centres lie farther than `fringe` outside `item.paintBounds`.
    static func strayPixels(_ item: DrawItem, in bitmap: Bitmap) -> Int {
        guard let b = item.paintBounds else { return bitmap.pixels.contains { $0 != 0 } ? 1 : 0 }
        var stray = 0
        for y in 0 ..< bitmap.height {
            for x in 0 ..< bitmap.width where bitmap.pixel(x: x, y: y).a != 0 {
                let cx = Double(x) + 0.5
                let cy = Double(y) + 0.5
                if cx < b.minX - fringe || cx > b.maxX + fringe || cy < b.minY - fringe || cy > b.maxY + fringe { stray += 1 }
            }
        }
        return stray
    }

    @Test(
        "Every paint draws only inside its paint bounds (each item of the busy pipeline lists, alone)",
        arguments: [1 as UInt64, 2, 3])
    func nothingOutsidePaintBounds(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 100)
        let images = [
            randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31),
            randomOpaqueBitmap(width: 40, height: 30, using: &rng),
        ]
        let (w, h) = (150, 120)
        for item in PipelineTests.busyList(seed: seed, width: w, height: h, images: images.count).items {
            // Opacity 1 and an opaque colour: the faintest fringe still shows.
            var bold = item
            bold.opacity = 1
            switch bold.paint {
            case .shadow(_, let sigma): bold.paint = .shadow(color: .black, sigma: sigma)
            case .border(let width, _): bold.paint = .border(width: width, color: .black)
            case .solid: bold.paint = .solid(.black)
            case .gradient(var g):
                g.colors = g.colors.map { _ in .black }
                bold.paint = .gradient(g)
            case .bitmap, .group, .backdropBlur: break
            }
            let drawn = draw([bold], width: w, height: h, images: images)
            #expect(Self.strayPixels(bold, in: drawn) == 0, "\(bold.paint) under \(bold.transform)")
        }
    }

    @Test("A shadow reaches its paint bounds and no farther (tiny and wide blurs, rotated, stretched)")
    func shadowStaysInsideItsReach() {
        var rng = SeededGenerator(seed: 11)
        var reachedBeyondShape = 0
        for trial in 0 ..< 40 {
            let t = AffineTransform2D.scale(Double.random(in: 0.4 ... 2.5, using: &rng), Double.random(in: 0.4 ... 2.5, using: &rng))
                .concatenating(.rotation(trial % 3 == 0 ? Double.random(in: -3 ... 3, using: &rng) : 0))
                .concatenating(.translation(Double.random(in: 50 ... 70, using: &rng), Double.random(in: 50 ... 70, using: &rng)))
            let shape = rect(
                -10, -8, Double.random(in: 1 ... 30, using: &rng), Double.random(in: 1 ... 25, using: &rng),
                radius: Double.random(in: 0 ... 12, using: &rng))
            let sigma = trial % 4 == 0 ? Double.random(in: 0.02 ... 0.3, using: &rng) : Double.random(in: 0.3 ... 8, using: &rng)
            let item = DrawItem(transform: t, shape: shape, paint: .shadow(color: .black, sigma: sigma))
            let drawn = draw([item], width: 120, height: 120)
            #expect(Self.strayPixels(item, in: drawn) == 0, "sigma \(sigma) under \(t)")
            // The test is not vacuous: blurs do draw beyond the shape itself.
            var hard = item
            hard.paint = .solid(.black)
            if Self.strayPixels(hard, in: drawn) > 0 { reachedBeyondShape += 1 }
        }
        #expect(reachedBeyondShape > 20)
    }

    @Test("The compositor's shadow is the plan's: blur, cut and extent from ShadowBlur and paintRect")
    func shadowShapeUsesThePlansDefinition() throws {
        let t = AffineTransform2D.scale(2, 0.5).concatenating(.rotation(0.3)).concatenating(.translation(40, 30))
        let shape = rect(0, 0, 20, 10, radius: 3)
        let item = DrawItem(transform: t, shape: shape, paint: .shadow(color: .black, sigma: 2))
        let blur = try #require(ShadowBlur(sigma: 2, transform: t))
        let s = try #require(ShadowShape(transform: t, shape: shape, sigma: 2))
        #expect(s.reach == Float(blur.reach))
        #expect(s.k == Float(1 / (2.squareRoot() * blur.sigma)))
        let extent = try #require(CoverageShape(transform: t, shape: RoundedRect(rect: item.paintRect)))
        #expect(s.extent.bounds == extent.bounds)
        let sources = Rasterizer.Sources(images: [], snapshots: [])
        let prepared = try #require(PreparedItem(item, targetWidth: 200, targetHeight: 200, sources: sources))
        #expect(prepared.bounds == extent.bounds)
    }

    @Test("Reach: 0 for paints drawn inside their shape; a shadow's is 3 x sigma widened by the pixel's box filter")
    func reachDefinition() throws {
        let scale = AffineTransform2D.scale(2, 2)
        #expect(Paint.solid(.white).reach(under: scale) == 0)
        #expect(Paint.bitmap(.image(0)).reach(under: scale) == 0)
        #expect(Paint.border(width: 3, color: .white).reach(under: scale) == 0)
        #expect(Paint.group(DisplayList()).reach(under: scale) == 0)
        // Local units per pixel 1/2: sigma' = sqrt(4 + 0.25 / 12).
        let reach = Paint.shadow(color: .black, sigma: 2).reach(under: scale)
        #expect(abs(reach - 3 * (4 + 0.25 / 12).squareRoot()) < 1e-12)
        // Not blurred (drawn hard or not at all): no reach.
        for sigma in [0, -1, .nan, .infinity, 1e8] {
            #expect(Paint.shadow(color: .black, sigma: sigma).reach(under: scale) == 0)
        }
        #expect(Paint.shadow(color: .black, sigma: 2).reach(under: .scale(0, 1)) == 0)
        let item = DrawItem(transform: scale, shape: rect(10, 20, 30, 40), paint: .shadow(color: .black, sigma: 2))
        #expect(item.paintRect == Rect(x: 10 - reach, y: 20 - reach, width: 30 + 2 * reach, height: 40 + 2 * reach))
        let bounds = try #require(item.paintBounds)
        #expect(abs(bounds.minX - 2 * (10 - reach)) < 1e-9 && abs(bounds.maxY - 2 * (60 + reach)) < 1e-9)
        let solid = DrawItem(transform: scale, shape: rect(1, 2, 3, 4), paint: .solid(.white))
        #expect(solid.paintRect == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test("Each paint's JSON is written beside its case, in the documented form")
    func paintJSON() {
        let c = RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.25)
        #expect(Paint.solid(c).json == "{\"solid\": [1, 0.5, 0, 0.25]}")
        #expect(Paint.bitmap(.image(3)).json == "{\"image\": 3}")
        #expect(Paint.bitmap(.snapshot(1)).json == "{\"snapshot\": 1}")
        #expect(Paint.border(width: 1.5, color: c).json == "{\"border\": {\"width\": 1.5, \"color\": [1, 0.5, 0, 0.25]}}")
        #expect(Paint.shadow(color: c, sigma: 6).json == "{\"shadow\": {\"color\": [1, 0.5, 0, 0.25], \"sigma\": 6}}")
        let g = GradientPaint(kind: .radial, colors: [c, .white], locations: [0, 0.5], start: Point(x: 1, y: 2), end: Point(x: 3.5, y: 4))
        #expect(
            Paint.gradient(g).json
                == "{\"gradient\": {\"type\": \"radial\", \"colors\": [[1, 0.5, 0, 0.25], [1, 1, 1, 1]], \"locations\": [0, 0.5], "
                + "\"start\": [1, 2], \"end\": [3.5, 4]}}")
        #expect(Paint.gradient(g).reach(under: .scale(3, 3)) == 0 && Paint.gradient(g).bitmapReference == nil)
        let inner = DrawItem(transform: .identity, shape: rect(0, 0, 1, 1), paint: .solid(c), label: "x")
        #expect(Paint.group(DisplayList(items: [inner])).json == "{\"group\": [\(FramePlanJSON.item(inner))]}")
        #expect(FramePlanJSON.paint(.bitmap(.image(3))) == Paint.bitmap(.image(3)).json)
    }
}
