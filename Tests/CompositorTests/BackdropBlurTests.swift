#if canImport(Glibc)
import Glibc
#endif
import Testing
import Primitives
import FramePlan
@testable import Compositor

/// The backdrop blur (`BackdropFill`, `GaussianKernels`, the pass boundary in
/// `Rasterizer.drawBanded` and `Occlusion`): its profile against the
/// Gaussian's formula, where it draws, its blend, thread and band
/// independence, occlusion across the boundary, the vector kernels against
/// their scalar references, bad input and groups.
@Suite("Backdrop blur")
struct BackdropBlurTests {
    static func blur(
        _ shape: RoundedRect, sigma: Double, opacity: Double = 1, transform: AffineTransform2D = .identity, clips: [Clip] = []
    )
        -> DrawItem
    {
        DrawItem(transform: transform, shape: shape, paint: .backdropBlur(sigma: sigma), opacity: opacity, clips: clips)
    }

    static let blueColor = RGBAColor(red: 0, green: 0, blue: 1)

    /// Black left of x = 80, white from x = 80 on, opaque, `width x 24`.
    static let stepItems = [solidItem(rect(80, 0, 80, 24), .white)]

    /// `255 * 0.5 * (1 + erf(d / (sigma sqrt 2)))`, `d` the signed distance from the edge at x = 80 to pixel x's centre.
    static func stepProfile(x: Int, sigma: Double) -> Double {
        let d = Double(x) + 0.5 - 80
        return 255 * 0.5 * (1 + erf(d / (sigma * 2.0.squareRoot())))
    }

    @Test("A step edge blurs to the Gaussian's erf profile within 2/255 at every pixel of the row", arguments: [4.0, 12.0])
    func stepEdgeMatchesGaussian(sigma: Double) {
        // The blur covers the whole 160 x 24 target; the edge is 80 px (>= 6.6 sigma) from either side,
        // so the clamped target edges (black left, white right) are what the Gaussian sees there too.
        let out = draw(Self.stepItems + [Self.blur(rect(0, 0, 160, 24), sigma: sigma)], width: 160, height: 24, background: .black)
        var worst = 0.0
        for y in [0, 12, 23] {
            for x in 0 ..< 160 {
                let p = out.pixel(x: x, y: y)
                let expected = Self.stepProfile(x: x, sigma: sigma)
                worst = max(worst, abs(Double(p.0) - expected))
                #expect(p.0 == p.1 && p.1 == p.2 && p.3 == 255, "pixel \(x), \(y)")
            }
        }
        #expect(worst <= 2, "worst \(worst) at sigma \(sigma)")
        // Spot values, by hand: x = 79 is 0.5 px left of the edge: Phi(-0.5 / 4) = 0.4503, 255 x 0.4503 = 114.8.
        if sigma == 4 { #expect(abs(Double(out.pixel(x: 79, y: 12).0) - 114.8) <= 2) }
        // x = 92 is 12.5 px right at sigma 12: Phi(1.0417) = 0.8512, 255 x 0.8512 = 217.1.
        if sigma == 12 { #expect(abs(Double(out.pixel(x: 92, y: 12).0) - 217.1) <= 2) }
    }

    @Test("Opacity 0.5 lays half the blur over the sharp edge")
    func halfOpacity() {
        let items = Self.stepItems + [Self.blur(rect(0, 0, 160, 24), sigma: 4, opacity: 0.5)]
        let out = draw(items, width: 160, height: 24, background: .black)
        for x in 0 ..< 160 {
            // Alpha 128 (0.5 x 255 = 127.5, rounded to even): (blurred x 128 + sharp x 127) / 255, about their mean.
            let sharp: Double = x >= 80 ? 255 : 0
            let expected = (Self.stepProfile(x: x, sigma: 4) * 128 + sharp * 127) / 255
            #expect(abs(Double(out.pixel(x: x, y: 10).0) - expected) <= 2, "pixel \(x)")
        }
    }

    @Test("Only inside the shape: untouched outside, the blur inside, edge pixels between the two")
    func insideShapeOnly() {
        var rng = SeededGenerator(seed: 5)
        let image = randomOpaqueBitmap(width: 20, height: 15, using: &rng)
        let under = [DrawItem(transform: .identity, shape: rect(0, 0, 90, 70), paint: .bitmap(.image(0)))]
        let item = Self.blur(rect(20.5, 10.25, 40, 30, radius: 8), sigma: 3)
        let before = draw(under, width: 90, height: 70, background: .black, images: [image])
        let after = draw(under + [item], width: 90, height: 70, background: .black, images: [image])
        let sources = Rasterizer.Sources(images: [image], snapshots: [], referencedBy: DisplayList(items: [item]))
        let prepared = PreparedItem(item, targetWidth: 90, targetHeight: 70, sources: sources)!
        let region = prepared.backdrop!
        let blurred = region.reference(before.pixels, width: 90)
        let w = region.bounds.x1 - region.bounds.x0
        var inside = 0, edge = 0
        for y in 0 ..< 70 {
            for x in 0 ..< 90 {
                let coverage = CoverageKernels.referenceCoverage(prepared.shape, x: x, y: y)
                let a = Array(after.pixels[(y * 90 + x) * 4 ..< (y * 90 + x) * 4 + 4])
                let b = Array(before.pixels[(y * 90 + x) * 4 ..< (y * 90 + x) * 4 + 4])
                if coverage == 0 {
                    #expect(a == b, "outside pixel \(x), \(y) changed")
                    continue
                }
                let word = blurred[(y - region.bounds.y0) * w + (x - region.bounds.x0)]
                let g = (0 ..< 4).map { Int((word >> (8 * UInt32($0))) & 0xFF) }
                if coverage == 1 {
                    inside += 1
                    #expect(a.map(Int.init) == g, "inside pixel \(x), \(y)")
                } else {
                    edge += 1
                    for c in 0 ..< 4 { #expect(min(g[c], Int(b[c])) - 1 <= Int(a[c]) && Int(a[c]) <= max(g[c], Int(b[c])) + 1) }
                }
            }
        }
        // 40 x 30 minus the rounded corners' edge pixels: most of it is interior, and there is an anti-aliased rim.
        #expect(inside > 900 && edge > 60, "inside \(inside), edge \(edge)")
    }

    /// A busy frame with two blurs (one clipped and rotated, one translucent), a group and a later opaque card.
    static func busyFrame() -> [DrawItem] {
        let items = PipelineTests.busyList(seed: 4, width: 150, height: 120, images: 1, backdrops: true).items
        let group = DrawItem(
            transform: .identity, shape: rect(10, 10, 120, 90, radius: 12),
            paint: .group(DisplayList(items: Array(items[30...]))), opacity: 0.5)
        let tilted = Self.blur(rect(30, 20, 100, 70, radius: 20), sigma: 5, transform: rotation(degrees: 10, about: 75, 60))
        return Array(items[..<30]) + [tilted, group]
    }

    @Test("Thread counts 1, 2, 3 and 7 give the same bytes, and drawing item by item gives them too")
    func threadDeterminism() {
        var rng = SeededGenerator(seed: 21)
        let images = [randomBitmap(width: 23, height: 17, using: &rng)]
        let list = DisplayList(items: Self.busyFrame())
        let plan = TestPlan(width: 150, height: 120, background: .white, images: images, frames: [list])
        let one = FrameRenderer(plan: plan, threads: 1).render(frame: 0)
        for threads in [2, 3, 7] { #expect(FrameRenderer(plan: plan, threads: threads).render(frame: 0) == one, "\(threads) threads") }
        var oneByOne = Bitmap(width: 150, height: 120)
        Compositor.fill(&oneByOne, with: .white)
        for item in list.items { Compositor.draw(DisplayList(items: [item]), onto: &oneByOne, images: images) }
        #expect(oneByOne == one)
    }

    @Test("An opaque item after a blur does not cull what the blur reads: the red bleeds in")
    func occlusionRespectsThePass() {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let items = [
            solidItem(rect(40, 10, 20, 20), red),
            Self.blur(rect(0, 0, 100, 40), sigma: 4),
            solidItem(rect(38, 8, 24, 24), BackdropBlurTests.blueColor),  // covers the red square, not the blur's read region
        ]
        let out = draw(items, width: 100, height: 40, background: .white, threads: 2)
        // Pixel (35, 20): 4.5 px left of the red edge: red weight Phi(-4.5 / 4) = 0.130, so green about
        // 255 x (1 - 0.130) = 222 (the rows above and below the square add less than 1 %).
        let p = out.pixel(x: 35, y: 20)
        #expect(p.0 == 255 && abs(Int(p.1) - 222) <= 3, "\(p)")
        let prepared = Rasterizer.prepare(
            DisplayList(items: items), width: 100, height: 40, sources: Rasterizer.Sources(images: [], snapshots: []))
        #expect(prepared.items.count == 3 && prepared.boundaries == [1])
        #expect(prepared.items[0].hiddenBy.isEmpty)
        var oneByOne = Bitmap(width: 100, height: 40)
        Compositor.fill(&oneByOne, with: .white)
        for item in items { Compositor.draw(DisplayList(items: [item]), onto: &oneByOne, images: []) }
        #expect(oneByOne == out)
        // The background may be skipped only for a first-pass cover: a cover after the blur keeps it.
        let late = Rasterizer.prepare(
            DisplayList(items: items + [solidItem(rect(0, 0, 100, 40), BackdropBlurTests.blueColor)]), width: 100, height: 40,
            sources: Rasterizer.Sources(images: [], snapshots: []))
        #expect(!late.coversTarget && late.items.count == 3)
    }

    @Test("Box parameters: five passes of variance sigma^2 (sigma 0.3 ... 256)")
    func boxVariance() {
        for sigma in [0.3, 1, 2.5, 4, 12, 30, 256] {
            let box = GaussianKernels.Box(sigma: sigma)
            #expect(abs(box.variance - sigma * sigma) <= 1e-5 * sigma * sigma + 1e-6, "sigma \(sigma): \(box.variance)")
            #expect(box.endWeight >= 0 && box.endWeight <= 1)
        }
        // By hand, sigma 4: per pass v = 16 / 5 = 3.2; r = 2 (r(r+1)/3 = 2 <= 3.2 < 4 = 3 x 4 / 3);
        // variance (r(r+1)(2r+1)/3 + 2a(r+1)^2) / (2r+1+2a) = (10 + 18a) / (5 + 2a) = 3.2
        // gives 10 + 18a = 16 + 6.4a, a = 6 / 11.6 = 0.5172.
        let four = GaussianKernels.Box(sigma: 4)
        #expect(four.radius == 2 && abs(four.endWeight - 0.5172) < 1e-4)
    }

    @Test("Line blur: vector path equals the scalar reference bit for bit (sigmas, lengths, partial lane sets)")
    func linesMatchReference() {
        var rng = SeededGenerator(seed: 31)
        for sigma in [0.3, 1, 2.5, 4, 12, 40] {
            let box = GaussianKernels.Box(sigma: sigma)
            for count in [1, 7, 8, 9, 33] {
                let length = count + 2 * box.margin
                let rows = (0 ..< 8).map { _ in randomBitmap(width: length, height: 1, using: &rng).pixels }
                let words = rows.flatMap { row in
                    stride(from: 0, to: row.count, by: 4).map {
                        UInt32(row[$0]) | UInt32(row[$0 + 1]) << 8 | UInt32(row[$0 + 2]) << 16 | UInt32(row[$0 + 3]) << 24
                    }
                }
                let scratch = RowScratch()
                scratch.reserveBlurLines(length)
                let lanes = count == 9 ? 5 : 8
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: 8 * count)
                words.withUnsafeBufferPointer { src in
                    let source = GaussianKernels.LineSource(
                        pixels: src.baseAddress!, offsets: SIMD8(0, 1, 2, 3, 4, 5, 6, 7) &* length, step: 1,
                        start: 0, lower: 0, upper: length)
                    GaussianKernels.blurLines(box, source, count: count, scratch.blurLineA, scratch.blurLineB)
                    out.withUnsafeMutableBufferPointer { dst in
                        GaussianKernels.store(
                            scratch.blurLineB, first: box.margin, count: count, lanes: lanes, to: dst.baseAddress!,
                            offsets: SIMD8(0, 1, 2, 3, 4, 5, 6, 7) &* count, step: 1)
                    }
                }
                for k in 0 ..< 8 {
                    let got = Array(out[k * count ..< (k + 1) * count])
                    let expected = k < lanes
                        ? GaussianKernels.referenceLine(box, Array(words[k * length ..< (k + 1) * length]), count: count)
                        : [UInt32](repeating: 0xDEAD_BEEF, count: count)
                    #expect(got == expected, "sigma \(sigma), count \(count), lane \(k)")
                }
            }
        }
    }

    @Test("Packing lines to pixels: the AVX form equals the portable one (NaN, negatives, over 255, colour over alpha)")
    func packingForms() {
        var rng = SeededGenerator(seed: 43)
        let specials: [Float] = [.nan, -.infinity, -3, -0.5, 0, 0.49, 0.5, 1.5, 2.5, 127.5, 254.5, 255, 255.4, 300, .infinity]
        for _ in 0 ..< 500 {
            var q = [SIMD8<Float>](repeating: .zero, count: 4)
            for c in 0 ..< 4 {
                for k in 0 ..< 8 {
                    q[c][k] = Int.random(in: 0 ..< 4, using: &rng) == 0
                        ? specials[Int.random(in: 0 ..< specials.count, using: &rng)]
                        : Float.random(in: -20 ... 280, using: &rng)
                }
            }
            q.withUnsafeBufferPointer { p in
                let packed = GaussianKernels.pack8(p.baseAddress!)
                #expect(packed == GaussianKernels.portablePack8(p.baseAddress!), "\(q)")
                for k in 0 ..< 8 {
                    func byte(_ v: Float) -> UInt32 { v > 0 ? UInt32(min(v, 255).rounded(.toNearestOrEven)) : 0 }
                    let a = byte(q[3][k])
                    let expected = min(byte(q[0][k]), a) | min(byte(q[1][k]), a) << 8 | min(byte(q[2][k]), a) << 16 | a << 24
                    #expect(packed[k] == expected, "lane \(k) of \(q)")
                }
            }
        }
    }

    @Test("Region blur (both phases, clamped target edges, unaligned widths) equals the scalar reference")
    func regionMatchesReference() {
        var rng = SeededGenerator(seed: 41)
        let (w, h) = (61, 45)
        let target = randomBitmap(width: w, height: h, using: &rng)
        let full = PixelBox(x0: 0, y0: 0, x1: w, y1: h)
        for (bounds, sigma) in [
            (PixelBox(x0: 0, y0: 0, x1: w, y1: h), 3.0), (PixelBox(x0: 5, y0: 9, x1: 18, y1: 30), 1.7),
            (PixelBox(x0: 40, y0: 30, x1: 61, y1: 45), 7.0), (PixelBox(x0: 20, y0: 2, x1: 21, y1: 3), 250),
        ] {
            let region = BackdropRegion(bounds: bounds, target: full, sigma: sigma)
            let buffer = LayerBuffer(capacity: region.byteCount)
            region.attach(buffer)
            let scratch = RowScratch()
            target.pixels.withUnsafeBufferPointer { t in
                for g in (0 ..< region.rowGroups).reversed() {
                    region.blurRows(group: g, target: t.baseAddress!, width: w, scratch: scratch)
                }
            }
            for g in 0 ..< region.columnGroups { region.blurColumns(group: g, scratch: scratch) }
            let bw = bounds.x1 - bounds.x0
            var got: [UInt32] = []
            let words = UnsafeRawPointer(buffer.base).assumingMemoryBound(to: UInt32.self)
            for y in bounds.y0 ..< bounds.y1 {
                for x in 0 ..< bw { got.append(words[(y - region.read.y0) * region.stride + x]) }
            }
            #expect(got == region.reference(target.pixels, width: w), "bounds \(bounds), sigma \(sigma)")
            region.attach(nil)
        }
    }

    @Test("Replacement blends: SIMD equals the scalar reference for every alpha and length")
    func replaceKernels() {
        var rng = SeededGenerator(seed: 51)
        for count in BlendKernelVectorTests.lengths {
            let total = count + 9
            let src = randomBitmap(width: total, height: 1, using: &rng).pixels
            let dst = randomBitmap(width: total, height: 1, using: &rng).pixels
            var alphas = (0 ..< total).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            if count >= 8 { for i in 0 ..< 8 { alphas[i] = 0 } }  // a skipped vector
            for alpha in UInt8(0) ... 255 {
                var simd = dst
                var scalar = dst
                BlendKernels.replaceConstant(dst: &simd, src: src, alpha: alpha, count: count)
                BlendKernels.replaceConstantReference(dst: &scalar, src: src, alpha: alpha, count: count)
                #expect(simd == scalar, "constant \(alpha), count \(count)")
            }
            var simd = dst
            var scalar = dst
            BlendKernels.replace(dst: &simd, src: src, alpha: alphas, count: count)
            BlendKernels.replaceReference(dst: &scalar, src: src, alpha: alphas, count: count)
            #expect(simd == scalar, "per-pixel, count \(count)")
        }
        // By hand: white over black at alpha 128 is div255(255 x 128) = 128; a transparent source at 255 clears.
        var d: [UInt8] = [0, 0, 0, 255]
        BlendKernels.replaceConstantReference(dst: &d, src: [255, 255, 255, 255], alpha: 128, count: 1)
        #expect(d == [128, 128, 128, 255])
        BlendKernels.replaceConstantReference(dst: &d, src: [0, 0, 0, 0], alpha: 255, count: 1)
        #expect(d == [0, 0, 0, 0])
    }

    @Test("Bad input: no blur for NaN, infinite, negative or zero sigma, off-target or empty shapes; huge sigma is capped")
    func badInput() {
        let base = draw(Self.stepItems, width: 160, height: 24, background: .black)
        for sigma in [Double.nan, .infinity, -.infinity, -3, 0] {
            let items = Self.stepItems + [Self.blur(rect(0, 0, 160, 24), sigma: sigma)]
            #expect(draw(items, width: 160, height: 24, background: .black) == base)
        }
        for item in [
            Self.blur(rect(200, 0, 50, 24), sigma: 4), Self.blur(rect(10, 10, 0, 5), sigma: 4),
            Self.blur(rect(10, 10, 20, 5), sigma: 4, transform: .scale(0, 1)),
            Self.blur(rect(10, 10, 20, 5), sigma: 4, transform: .translation(.nan, 0)),
        ] {
            #expect(draw(Self.stepItems + [item], width: 160, height: 24, background: .black) == base, "\(item)")
        }
        #expect(BackdropFill.pixelSigma(1e300, transform: .identity) == BackdropFill.maxPixelSigma)
        #expect(BackdropFill.pixelSigma(3, transform: .scale(2, 2)) == 6)
        // Geometric mean of the scales: sqrt(2 x 8) = 4 pixels per unit.
        #expect(BackdropFill.pixelSigma(3, transform: .scale(2, 8)) == 12)
        // Capped at 256 px: the target clamped at its edges is the infinite step (black left, white right),
        // so the row follows the step profile at sigma 256, a gentle ramp: x = 159 is 79.5 px right,
        // Phi(79.5 / 256) = 0.622, 255 x 0.622 = 158.6.
        let capped = draw(Self.stepItems + [Self.blur(rect(0, 0, 160, 24), sigma: 1e300)], width: 160, height: 24, background: .black)
        for x in 0 ..< 160 {
            #expect(abs(Double(capped.pixel(x: x, y: 12).0) - Self.stepProfile(x: x, sigma: 256)) <= 2, "pixel \(x)")
        }
    }

    @Test("Inside a group's layer (translucent, or inlined at opacity 1) a blur draws nothing")
    func insideGroup() {
        let content = Self.stepItems + [Self.blur(rect(0, 0, 160, 24), sigma: 4)]
        for (opacity, shape) in [(0.5, rect(0, 0, 160, 24, radius: 6)), (1, rect(0, 0, 160, 24))] {
            let with = draw([GroupTests.group(content, shape, opacity: opacity)], width: 160, height: 24, background: .black)
            let without = draw([GroupTests.group(Self.stepItems, shape, opacity: opacity)], width: 160, height: 24, background: .black)
            #expect(with == without, "opacity \(opacity)")
        }
    }
}
