import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Bitmap sampling")
struct SamplingTests {
    static func randomTransform(using rng: inout SeededGenerator, rotate: Bool) -> AffineTransform2D {
        AffineTransform2D.scale(Double.random(in: 0.2 ... 4, using: &rng), Double.random(in: 0.2 ... 4, using: &rng))
            .concatenating(.rotation(rotate ? Double.random(in: -3 ... 3, using: &rng) : 0))
            .concatenating(.translation(Double.random(in: -5 ... 30, using: &rng), Double.random(in: -5 ... 30, using: &rng)))
    }

    @Test("SIMD sampling (separable and rotated) matches the scalar reference within 1/255 and exact bilinear within 2/255")
    func simdMatchesReference() {
        var rng = SeededGenerator(seed: 9)
        let scratch = RowScratch(width: 96)
        var worstReference = 0
        var worstExact = 0.0
        var rows = (separable: 0, rotated: 0)
        for trial in 0 ..< 120 {
            let (w, h) = (Int.random(in: 1 ... 23, using: &rng), Int.random(in: 1 ... 19, using: &rng))
            let image = randomBitmap(width: w, height: h, using: &rng)
            let texture = Texture(image)
            let t = Self.randomTransform(using: &rng, rotate: trial % 2 == 1)
            guard
                let m = TexelMapping(
                    transform: t, rect: Rect(x: 1, y: 2, width: Double(w), height: Double(h)),
                    sourceWidth: w, sourceHeight: h)
            else { continue }
            for y in 0 ..< 24 {
                let x0 = Int.random(in: 0 ... 20, using: &rng)
                let count = Int.random(in: 1 ... 70, using: &rng)
                let row = sampleRow(m, texture, y: y, x0: x0, count: count, columns: 0 ..< 96, scratch: scratch)
                if m.isSeparable { rows.separable += 1 } else { rows.rotated += 1 }
                for i in 0 ..< count {
                    let ref = Sampling.referenceSample(m, texture, x: x0 + i, y: y)
                    let exact = Sampling.exactSample(m, pixels: image.pixels, x: x0 + i, y: y)
                    for c in 0 ..< 4 {
                        let v = Int(row[i * 4 + c])
                        worstReference = max(worstReference, abs(v - Int((ref >> (8 * UInt32(c))) & 0xFF)))
                        worstExact = max(worstExact, abs(Double(v) - exact[c]))
                    }
                    #expect(
                        row[i * 4] <= row[i * 4 + 3] && row[i * 4 + 1] <= row[i * 4 + 3] && row[i * 4 + 2] <= row[i * 4 + 3],
                        "output must stay premultiplied")
                }
            }
        }
        #expect(rows.separable > 500 && rows.rotated > 500)
        #expect(worstReference <= 1, "worst vs scalar reference \(worstReference)")
        #expect(worstExact <= 2, "worst vs exact bilinear \(worstExact)")
    }

    @Test("Texture padding repeats the edge texels; halving averages pairs (rounded up)")
    func texturePaddingAndHalving() {
        var rng = SeededGenerator(seed: 4)
        let image = randomBitmap(width: 5, height: 3, using: &rng)
        let texture = Texture(image)
        #expect(texture.bitmap() == image)
        func texel(_ t: Texture, _ x: Int, _ y: Int) -> UInt32 { t.base.load(fromByteOffset: y * t.rowBytes + x * 4, as: UInt32.self) }
        #expect(texel(texture, 5, 1) == texel(texture, 4, 1))
        #expect(texel(texture, 2, 3) == texel(texture, 2, 2))
        let half = texture.halvedWidth()
        #expect(half.width == 3 && half.height == 3)
        for y in 0 ..< 3 {
            for x in 0 ..< 3 {
                let a = image.pixel(x: 2 * x, y: y)
                let b = image.pixel(x: min(2 * x + 1, 4), y: y)
                let p = half.bitmap().pixel(x: x, y: y)
                #expect(Int(p.r) == (Int(a.r) + Int(b.r) + 1) / 2 && Int(p.a) == (Int(a.a) + Int(b.a) + 1) / 2)
            }
        }
        #expect(texture.halvedHeight().height == 2)
        #expect(
            Bitmap(width: 2, height: 2, fill: (1, 2, 3, 255)).pixels.count == 16
                && Texture(Bitmap(width: 2, height: 2, fill: (1, 2, 3, 255))).isOpaque)
        #expect(!texture.isOpaque)
    }

    @Test("Mip level choice: scale >= 0.5 samples the base; each halving of scale adds a level, per axis")
    func mipLevelChoice() {
        #expect(MipChain.levelIndices(texelsPerPixelX: 1.9, texelsPerPixelY: 0.5, width: 100, height: 100) == (0, 0))
        #expect(MipChain.levelIndices(texelsPerPixelX: 2, texelsPerPixelY: 8.5, width: 100, height: 100) == (1, 3))
        #expect(MipChain.levelIndices(texelsPerPixelX: 1000, texelsPerPixelY: .nan, width: 4, height: 100) == (2, 0))
    }

    /// 1-px vertical black/white stripes, opaque.
    static func stripes(width: Int, height: Int) -> Bitmap {
        var b = Bitmap(width: width, height: height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let v: UInt8 = x % 2 == 0 ? 255 : 0
                b.setPixel(x: x, y: y, (v, v, v, 255))
            }
        }
        return b
    }

    @Test(
        "1-px stripes drawn at about 1/8 scale are ~50 % grey everywhere, at every nearby scale (no aliasing)",
        arguments: [0.125, 0.118, 0.121, 0.13, 0.137, 0.2, 0.3])
    func stripesMinified(scale: Double) {
        let image = Self.stripes(width: 512, height: 64)
        let item = DrawItem(
            transform: .scale(scale, scale).concatenating(.translation(3.3, 1.7)),
            shape: rect(0, 0, 512, 64), paint: .bitmap(.image(0)))
        let b = draw([item], width: 80, height: 12, background: .black, images: [image])
        let inside = min(78, Int(512 * scale) - 2)
        var total = 0
        for x in 5 ..< inside {
            let v = Int(b.pixel(x: x, y: 4).r)
            total += v
            #expect(abs(v - 128) <= 12, "pixel \(x) is \(v) at scale \(scale)")
        }
        let mean = Double(total) / Double(inside - 5)
        #expect(abs(mean - 127.5) < 3, "mean \(mean) at scale \(scale)")
    }

    @Test("A random image drawn at 1/4 and at slightly different scales keeps its average brightness")
    func minifiedAverageIsStable() {
        var rng = SeededGenerator(seed: 12)
        let image = randomOpaqueBitmap(width: 256, height: 256, using: &rng)
        var means: [Double] = []
        for scale in [0.25, 0.24, 0.26, 0.255, 0.245] {
            let item = DrawItem(transform: .scale(scale, scale), shape: rect(0, 0, 256, 256), paint: .bitmap(.image(0)))
            let b = draw([item], width: 64, height: 64, background: .black, images: [image])
            var sum = 0
            var n = 0
            for y in 8 ..< 56 {
                for x in 8 ..< 56 {
                    sum += Int(b.pixel(x: x, y: y).g)
                    n += 1
                }
            }
            means.append(Double(sum) / Double(n))
        }
        #expect(means.max()! - means.min()! < 2, "means \(means)")
    }

    @Test("Sampling a mip level agrees with the scalar reference on that level")
    func mipSamplingMatchesReference() {
        var rng = SeededGenerator(seed: 13)
        let chain = MipChain(randomBitmap(width: 200, height: 120, using: &rng))
        let scratch = RowScratch(width: 64)
        for (sx, sy, degrees) in [(0.1, 0.3, 0.0), (0.05, 0.05, 20.0), (0.3, 0.12, 0.0), (0.2, 0.2, -35.0)] {
            let t = AffineTransform2D.scale(sx, sy).concatenating(rotation(degrees: degrees, about: 10, 10))
                .concatenating(.translation(5.25, 3.5))
            let (m, texture) = TexelMapping.forChain(chain, transform: t, rect: Rect(x: 0, y: 0, width: 200, height: 120))!
            #expect(texture.width < 200)
            for y in 0 ..< 40 {
                let row = sampleRow(m, texture, y: y, x0: 0, count: 64, columns: 0 ..< 64, scratch: scratch)
                for x in 0 ..< 64 {
                    let ref = Sampling.referenceSample(m, texture, x: x, y: y)
                    for c in 0 ..< 4 { #expect(abs(Int(row[x * 4 + c]) - Int((ref >> (8 * UInt32(c))) & 0xFF)) <= 1) }
                }
            }
        }
        // Levels are deterministic whatever order they are asked for in.
        let a = MipChain(randomBitmap(width: 37, height: 29, using: &rng))
        let b = MipChain(a.base.bitmap())
        _ = b.level(0, 2)
        #expect(a.level(2, 1).bitmap() == b.level(2, 1).bitmap())
        #expect(a.level(1, 3).bitmap() == b.level(1, 3).bitmap())
    }

    @Test("A chain built with several threads (blocks of rows in parallel) has the same texels and opacity")
    func threadedLevelsMatch() {
        var rng = SeededGenerator(seed: 0x7E_0517)
        for (w, h) in [(1, 1), (37, 29), (200, 47), (64, 300)] {
            let image = randomBitmap(width: w, height: h, using: &rng)
            var opaque = image
            for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
            // One transparent texel in a middle row: only one block of rows sees it.
            var holed = opaque
            for c in 0 ..< 4 { holed.pixels[(h / 2 * w) * 4 + c] = 0 }
            for bitmap in [image, opaque, holed] {
                let one = MipChain(bitmap)
                for threads in [2, 3, 5] {
                    let many = MipChain(bitmap, threads: threads)
                    #expect(many.base.bitmap() == one.base.bitmap() && many.isOpaque == one.isOpaque, "\(w)x\(h), \(threads)")
                    for (lx, ly) in [(1, 0), (0, 1), (2, 1), (1, 3)] {
                        let x = many.level(lx, ly), y = one.level(lx, ly)
                        #expect(x.bitmap() == y.bitmap() && x.isOpaque == y.isOpaque, "\(w)x\(h) level \(lx),\(ly)")
                    }
                }
            }
        }
    }
}
