import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Paint and blend")
struct PaintAndBlendTests {
    @Test("50 % opacity white over opaque black is 128 +- 1, alpha 255")
    func halfOpacityWhiteOverBlack() {
        let b = draw([solidItem(rect(0, 0, 8, 8), .white, opacity: 0.5)], width: 8, height: 8, background: .black)
        let p = b.pixel(x: 3, y: 3)
        #expect(abs(Int(p.r) - 128) <= 1 && p.r == p.g && p.g == p.b)
        #expect(p.a == 255)
    }

    @Test("A half-transparent colour is premultiplied and blends like opacity")
    func translucentColour() {
        let b = draw([solidItem(rect(0, 0, 4, 4), RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5))], width: 4, height: 4)
        let p = b.pixel(x: 1, y: 1)
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 64) <= 1 && p.b == 0 && abs(Int(p.a) - 128) <= 1)
    }

    @Test("A bitmap paint drawn at 1:1 on integer pixels reproduces the bitmap")
    func bitmapAtIdentity() {
        var rng = SeededGenerator(seed: 3)
        let image = randomBitmap(width: 13, height: 9, using: &rng)
        let item = DrawItem(transform: .translation(5, 2), shape: rect(0, 0, 13, 9), paint: .bitmap(.image(0)))
        let b = draw([item], width: 24, height: 16, images: [image])
        for y in 0 ..< 9 {
            for x in 0 ..< 13 { #expect(b.pixel(x: x + 5, y: y + 2) == image.pixel(x: x, y: y)) }
        }
        #expect(b.pixel(x: 4, y: 2).a == 0 && b.pixel(x: 18, y: 2).a == 0)
    }

    @Test("A 1-px checkerboard scaled 2x keeps its average")
    func checkerboardScaledKeepsAverage() {
        let image = checkerboard(width: 16, height: 16)
        let item = DrawItem(transform: .scale(2, 2), shape: rect(0, 0, 16, 16), paint: .bitmap(.image(0)))
        let b = draw([item], width: 32, height: 32, images: [image])
        var sum = 0
        for i in stride(from: 0, to: b.pixels.count, by: 4) { sum += Int(b.pixels[i]) }
        let mean = Double(sum) / Double(32 * 32)
        #expect(abs(mean - 127.5) < 1.5, "mean \(mean)")
        #expect(b.pixel(x: 13, y: 17).a == 255)
        // Interior pixels mix neighbours 3:1 per axis: 255 * (0.75^2 + 0.25^2) or 255 * 2 * 0.75 * 0.25.
        let v = Int(b.pixel(x: 9, y: 9).r)
        #expect([96, 159].contains { abs($0 - v) <= 1 }, "value \(v)")
    }

    @Test("Bitmap sampling stretches the bitmap over the shape rect (texel centres at (i + 0.5) / w)")
    func bitmapStretchesOverRect() {
        // A 2x1 image, left red, right blue, stretched over 10 px: pixels 0...2 pure red, 7...9 pure blue.
        var image = Bitmap(width: 2, height: 1)
        image.setPixel(x: 0, y: 0, (255, 0, 0, 255))
        image.setPixel(x: 1, y: 0, (0, 0, 255, 255))
        let item = DrawItem(transform: .identity, shape: rect(0, 0, 10, 1), paint: .bitmap(.image(0)))
        let b = draw([item], width: 10, height: 1, images: [image])
        for x in 0 ... 2 { #expect(b.pixel(x: x, y: 0) == (255, 0, 0, 255)) }
        for x in 7 ... 9 { #expect(b.pixel(x: x, y: 0) == (0, 0, 255, 255)) }
        // Pixel 4 centre 4.5 -> s = 4.5 / 10 * 2 - 0.5 = 0.4: 60 % red, 40 % blue.
        let p = b.pixel(x: 4, y: 0)
        #expect(abs(Int(p.r) - 153) <= 1 && abs(Int(p.b) - 102) <= 1)
    }

    @Test("SIMD blend kernels match their scalar references on random inputs")
    func simdBlendMatchesScalar() {
        var rng = SeededGenerator(seed: 11)
        for count in [0, 1, 3, 4, 5, 16, 31, 64, 257] {
            let src = randomBitmap(width: max(count, 1), height: 1, using: &rng).pixels
            let dst = randomBitmap(width: max(count, 1), height: 1, using: &rng).pixels
            let alpha = (0 ..< max(count, 1)).map { _ -> UInt8 in
                switch Int.random(in: 0 ..< 4, using: &rng) {
                case 0: 0
                case 1: 255
                default: .random(in: 0 ... 255, using: &rng)
                }
            }
            let color = randomBitmap(width: 1, height: 1, using: &rng).pixels
            let c = SIMD4(color[0], color[1], color[2], color[3])
            var simd = dst
            var scalar = dst
            var simdSolid = dst
            var scalarSolid = dst
            src.withUnsafeBufferPointer { s in
                alpha.withUnsafeBufferPointer { a in
                    BlendKernels.sourceOver(dst: &simd, src: s.baseAddress!, alpha: a.baseAddress!, count: count)
                    BlendKernels.sourceOverReference(dst: &scalar, src: s.baseAddress!, alpha: a.baseAddress!, count: count)
                    BlendKernels.sourceOverSolid(dst: &simdSolid, color: c, alpha: a.baseAddress!, count: count)
                    BlendKernels.sourceOverSolidReference(dst: &scalarSolid, color: c, alpha: a.baseAddress!, count: count)
                }
            }
            let maxDiff = zip(simd, scalar).map { abs(Int($0) - Int($1)) }.max() ?? 0
            let maxDiffSolid = zip(simdSolid, scalarSolid).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(maxDiff <= 1 && maxDiffSolid <= 1, "count \(count)")
            #expect(simd == scalar && simdSolid == scalarSolid, "not bit-identical at count \(count)")
        }
    }

    @Test("Scalar blend reference matches float source-over within 1/255")
    func blendReferenceMatchesFloat() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0 ..< 2000 {
            let s = randomBitmap(width: 1, height: 1, using: &rng).pixels
            let d = randomBitmap(width: 1, height: 1, using: &rng).pixels
            let a = UInt8.random(in: 0 ... 255, using: &rng)
            var out = d
            BlendKernels.sourceOverReference(dst: &out, src: s, alpha: [a], count: 1)
            let k = Double(a) / 255
            let sa = Double(s[3]) * k / 255
            for c in 0 ..< 4 {
                let exact = Double(s[c]) * k + Double(d[c]) * (1 - sa)
                #expect(abs(Double(out[c]) - exact) <= 1.0, "s \(s) d \(d) a \(a)")
            }
        }
    }
}
