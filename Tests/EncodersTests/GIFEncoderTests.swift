import Encoders
import Foundation
import PNGCodec
import Primitives
import Testing

@Suite("GIF")
struct GIFEncoderTests {
    @Test(
        "rates above the maximum keep evenly spaced frames",
        arguments: [
            (60.0, 30, 2, "30/1"), (50.0, 30, 2, "25/1"), (24.0, 30, 1, "24/1"), (120.0, 30, 4, "30/1"),
            (59.94, 30, 2, "30000/1001"), (60.0, 50, 2, "30/1"), (30.0, 50, 1, "30/1"), (100.0, 50, 2, "50/1"),
        ])
    func timing(fps: Double, maximum: Int, step: Int, rate: String) throws {
        let timing = GIFTiming(sourceRate: try #require(FrameRate(framesPerSecond: fps)), maxFramesPerSecond: maximum)
        #expect(timing.frameStep == step)
        #expect(timing.frameRate.description == rate)
        #expect(timing.frameRate.framesPerSecond <= Double(maximum) + 1e-9)
        // Total time stays within 1/100 s of the clip's.
        let frames = timing.gifFrameCount(forClipFrames: 600)
        let total = timing.start(ofFrame: frames)
        #expect(abs(Double(total) - 100 * timing.frameRate.duration(ofFrames: frames)) <= 0.5)
        #expect(timing.delays(forFrames: frames).allSatisfy { $0 >= 2 }, "browsers slow down delays under 2")
    }

    @Test("a 60 fps clip becomes 30 fps, scaled to 480 wide, delays alternating 3 and 4 hundredths, looping")
    func sixtyFPS() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/clip.gif"
            let settings = VideoSettings(width: 640, height: 360, framesPerSecond: 60)
            let encoder = try GIFEncoder(path: path, settings: settings)
            #expect(encoder.outputWidth == 480 && encoder.outputHeight == 270)
            for frame in transitionLikeFrames(width: 640, height: 360, count: 25) { try encoder.append(frame) }
            try encoder.finish()
            #expect(try contents(of: dir) == ["clip.gif"], "no spool or temporary file remains")

            let info = try probe(path)
            #expect(info.string("codec_name") == "gif")
            #expect(info.int("width") == 480 && info.int("height") == 270)
            #expect(info.int("nb_read_frames") == 13, "frames 0, 2, ... 24")
            let delays = try packetDurations(path)
            #expect(delays == encoder.timing.delays(forFrames: 13), "\(delays)")
            #expect(Array(delays.prefix(6)) == [3, 4, 3, 3, 4, 3])
            let bytes = try fileBytes(path)
            // NETSCAPE2.0 application block with loop count 0: loop forever.
            let netscape = Array("NETSCAPE2.0".utf8)
            let at = try #require((0 ..< (bytes.count - netscape.count)).first { Array(bytes[$0 ..< ($0 + 11)]) == netscape })
            #expect(bytes[at + 11] == 3 && bytes[at + 12] == 1 && bytes[at + 13] == 0 && bytes[at + 14] == 0)
        }
    }

    @Test("a 24 fps clip keeps every frame; delays of 4 and 5 hundredths add up to the clip's length")
    func twentyFourFPS() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/clip.gif"
            var settings = VideoSettings(width: 120, height: 80, framesPerSecond: 24)
            settings.gif.loopCount = -1
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            for frame in transitionLikeFrames(width: 120, height: 80, count: 24) { try encoder.append(frame) }
            try encoder.finish()
            #expect(try probe(path).int("nb_read_frames") == 24)
            let delays = try packetDurations(path)
            #expect(delays.count == 24)
            #expect(Set(delays).isSubset(of: [4, 5]), "\(delays)")
            #expect(abs(delays.dropLast().reduce(0, +) - 96) <= 1, "23 frames of 1/24 s")
            #expect(!(try fileBytes(path)).starts(with: Array("NETSCAPE2.0".utf8)))
        }
    }

    @Test("colours come back close to the source (palette for the clip, dithered)")
    func colours() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/clip.gif"
            let frames = transitionLikeFrames(width: 160, height: 120, count: 6)
            let encoder = try GIFEncoder(path: path, settings: VideoSettings(width: 160, height: 120, framesPerSecond: 10))
            for frame in frames { try encoder.append(frame) }
            try encoder.finish()
            let decoded = try decodeRaw(path, pixelFormat: "rgb24", bytesPerPixel: 3, width: 160, height: 120)
            #expect(decoded.count == 6)
            for (gif, source) in zip(decoded, frames) {
                let reference = (0 ..< (160 * 120)).flatMap { i in source.pixels[(i * 4) ..< (i * 4 + 3)] }
                #expect(psnr(gif, reference) > 28, "PSNR \(psnr(gif, reference))")
            }
        }
    }

    @Test("a transparent canvas gives transparent pixels; an opaque one none")
    func transparency() throws {
        for transparent in [true, false] {
            try withTemporaryDirectory { dir in
                let path = dir + "/clip.gif"
                let settings = VideoSettings(
                    width: 40, height: 30, framesPerSecond: 10,
                    background: transparent ? .clear : .black)
                let encoder = try GIFEncoder(path: path, settings: settings)
                var frame = Bitmap(width: 40, height: 30)
                for y in 0 ..< 30 { for x in 20 ..< 40 { frame.setPixel(x: x, y: y, (0, 200, 0, 255)) } }
                for _ in 0 ..< 3 { try encoder.append(frame) }
                try encoder.finish()
                let first = try #require(try decodeRaw(path, pixelFormat: "rgba", bytesPerPixel: 4, width: 40, height: 30).first)
                let left = Int(first[(15 * 40 + 5) * 4 + 3])
                let right = Int(first[(15 * 40 + 30) * 4 + 3])
                #expect(right == 255)
                #expect(left == (transparent ? 0 : 255), "left alpha \(left)")
            }
        }
    }

    @Test("translucent pixels of a transparent canvas keep their straight colour (un-premultiplied after scaling)")
    func straightColour() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/clip.gif"
            let settings = VideoSettings(width: 40, height: 30, framesPerSecond: 10, background: .clear)
            let encoder = try GIFEncoder(path: path, settings: settings)
            // Straight (200, 100, 50) at alpha 160: premultiplied (125, 63, 31), which GIF, having no
            // partial alpha, must show opaque in its straight colour.
            let frame = try #require(
                Bitmap(
                    width: 40, height: 30,
                    straightPixels: [UInt8](
                        (0 ..< (40 * 30)).flatMap { _ in [200, 100, 50, 160] as [UInt8] })))
            for _ in 0 ..< 2 { try encoder.append(frame) }
            try encoder.finish()
            let first = try #require(try decodeRaw(path, pixelFormat: "rgba", bytesPerPixel: 4, width: 40, height: 30).first)
            let centre = (15 * 40 + 20) * 4
            let pixel = Array(first[centre ..< (centre + 4)]).map(Int.init)
            #expect(abs(pixel[0] - 200) <= 4 && abs(pixel[1] - 100) <= 4 && abs(pixel[2] - 50) <= 4, "\(pixel)")
            #expect(pixel[3] == 255)
        }
    }

    @Test("the fixture poster, sliding: a real image through the whole GIF path, README-sized")
    func fixtureImage() throws {
        let poster = try PNGCodec.decode(fileAt: fixturePath("fixtures/images/poster.png"))
        try withTemporaryDirectory { dir in
            let (width, height) = (780, 560)
            let path = dir + "/poster.gif"
            let settings = VideoSettings(
                width: width, height: height, framesPerSecond: 60,
                background: RGBAColor(red: 0.95, green: 0.95, blue: 0.97))
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            var frame = Bitmap(width: width, height: height)
            for index in 0 ..< 30 {
                for i in stride(from: 0, to: frame.pixels.count, by: 4) {
                    frame.pixels[i] = 242
                    frame.pixels[i + 1] = 242
                    frame.pixels[i + 2] = 247
                    frame.pixels[i + 3] = 255
                }
                let left = index * 10
                for y in 0 ..< min(poster.height, height) {
                    for x in 0 ..< min(poster.width, width - left) {
                        let p = poster.pixel(x: x, y: y)
                        let a = Int(p.a)
                        let i = (y * width + left + x) * 4
                        // Source-over onto the light background, premultiplied.
                        frame.pixels[i] = UInt8(Int(p.r) + Int(frame.pixels[i]) * (255 - a) / 255)
                        frame.pixels[i + 1] = UInt8(Int(p.g) + Int(frame.pixels[i + 1]) * (255 - a) / 255)
                        frame.pixels[i + 2] = UInt8(Int(p.b) + Int(frame.pixels[i + 2]) * (255 - a) / 255)
                    }
                }
                frame = try encoder.exchange(frame)
            }
            try encoder.finish()
            let info = try probe(path)
            #expect(info.int("width") == 480)
            #expect(info.int("nb_read_frames") == 15)
            let size = try fileBytes(path).count
            #expect(size < 1_500_000, "\(size) bytes")
        }
    }
}

/// A path inside the package, found from this source file.
func fixturePath(_ relative: String) -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0 ..< 3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent(relative).path
}
