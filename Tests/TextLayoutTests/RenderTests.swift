import Foundation
import Primitives
import SceneModel
import Testing
import TextLayout

/// Drawing: bitmap sizes, colour, determinism across threads, sharpness at higher scales, the glyph cache.
@Suite("Text rendering")
struct RenderTests {
    let typesetter = Typesetter()

    @Test("the bitmap is ceil(size * scale) pixels at @1x, @2x and @3x")
    func bitmapSizes() throws {
        let box = Size(width: 100.5, height: 20.25)
        for (scale, width, height) in [(1.0, 101, 21), (2.0, 201, 41), (3.0, 302, 61)] {
            // 100.5 * 3 = 301.5 -> 302; 20.25 * 2 = 40.5 -> 41; 20.25 * 3 = 60.75 -> 61.
            let bitmap = try typesetter.render(TextSpec("Hello"), in: box, scale: scale, directory: nil).bitmap
            #expect(bitmap.width == width && bitmap.height == height, "@\(scale)x")
            #expect(bitmap.pixels.count == width * height * 4)
        }
    }

    @Test("text colour with alpha: a fully covered pixel is the premultiplied colour, the rest transparent")
    func colour() throws {
        let spec = TextSpec("l", font: FontSpec(size: 60), color: RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5))
        let bitmap = try typesetter.render(spec, in: Size(width: 60, height: 80), scale: 1, directory: nil).bitmap
        var maxAlpha = 0, solid: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)?
        for y in 0 ..< bitmap.height {
            for x in 0 ..< bitmap.width {
                let p = bitmap.pixel(x: x, y: y)
                maxAlpha = max(maxAlpha, Int(p.a))
                if p.a == 128 { solid = p }
                #expect(p.r <= p.a && p.g <= p.a && p.b <= p.a, "premultiplied")
            }
        }
        // alpha 0.5 -> 128; red 1 * 0.5 -> 128; green 0.5 * 0.5 * 255 = 63.75 -> 64; blue 0.
        #expect(maxAlpha == 128)
        let pixel = try #require(solid)
        #expect(pixel.r == 128 && pixel.g == 64 && pixel.b == 0)
        #expect(bitmap.pixel(x: 0, y: 0) == (0, 0, 0, 0) && bitmap.pixel(x: 59, y: 79) == (0, 0, 0, 0))
    }

    @Test("the same label renders to the same bytes on different threads and typesetters")
    func deterministic() async throws {
        let string = "Deterministic שלום नमस्ते text, wrapped over lines"
        let spec = TextSpec(string, numberOfLines: 0, lineBreakMode: .byWordWrapping)
        let box = Size(width: 120, height: 90)
        let shared = typesetter
        let renders = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for i in 0 ..< 4 {
                group.addTask {
                    let setter = i % 2 == 0 ? shared : Typesetter()
                    return try setter.render(spec, in: box, scale: 2, directory: nil).bitmap.pixels
                }
            }
            var all: [[UInt8]] = []
            for try await pixels in group { all.append(pixels) }
            return all
        }
        let detached = try Thread.detachedRender(spec, box)
        #expect(renders.count == 4 && renders.allSatisfy { $0 == renders[0] } && detached == renders[0])
        #expect(renders[0].contains { $0 != 0 })
    }

    @Test("@2x is sharper than @1x scaled up: more distinct coverage levels over the same text")
    func sharperAtHigherScale() throws {
        let spec = TextSpec("Sharp", font: FontSpec(size: 12))
        let box = Size(width: 60, height: 20)
        func levels(_ scale: Double) throws -> Int {
            let bitmap = try typesetter.render(spec, in: box, scale: scale, directory: nil).bitmap
            return Set(stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }).count
        }
        // Scaling @1x up by pixel replication repeats its levels and adds none; @2x draws new edges.
        let (one, two) = (try levels(1), try levels(2))
        #expect(two > one, "@1x: \(one) levels, @2x: \(two)")
    }

    @Test("the second render of a label takes every glyph from the cache")
    func glyphCache() throws {
        let spec = TextSpec("Cached glyphs, cached")
        let box = Size(width: 300, height: 30)
        let first = try typesetter.render(spec, in: box, scale: 3, directory: nil)
        let afterFirst = typesetter.glyphCacheStatistics
        let second = try typesetter.render(spec, in: box, scale: 3, directory: nil)
        let afterSecond = typesetter.glyphCacheStatistics
        #expect(afterFirst.misses > 0 && afterSecond.misses == afterFirst.misses)
        #expect(afterSecond.hits - afterFirst.hits == first.layout.lines.reduce(0) { $0 + $1.glyphs.count })
        #expect(first.bitmap == second.bitmap)
    }
}

extension Thread {
    /// Renders on a plain thread of its own (not the cooperative pool), waiting for it.
    static func detachedRender(_ spec: TextSpec, _ box: Size) throws -> [UInt8] {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<[UInt8], TextError> = .success([])
        let thread = Thread {
            do throws(TextError) {
                result = .success(try Typesetter().render(spec, in: box, scale: 2, directory: nil).bitmap.pixels)
            } catch {
                result = .failure(error)
            }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result.get()
    }
}
