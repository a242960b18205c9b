import Encoders
import Foundation
import PNGCodec
import Primitives
import Testing

@Suite("MP4 quality and sizes")
struct MP4QualityTests {
    @Test("the default MP4 decodes back at PSNR >= 40 dB against the PNG frames")
    func psnrAgainstPNGFrames() throws {
        try withTemporaryDirectory { dir in
            let (width, height) = (480, 360)
            let settings = VideoSettings(width: width, height: height, framesPerSecond: 30)
            #expect(settings.crf == 18 && settings.preset == "medium", "the defaults are what is measured")
            let frames = transitionLikeFrames(width: width, height: height, count: 20)
            let video = try OutputFormat.encoder(forOutputPath: dir + "/clip.mp4", settings: settings)
            let sequence = try OutputFormat.encoder(forOutputPath: dir + "/frames/", settings: settings)
            for frame in frames {
                try video.append(frame)
                try sequence.append(frame)
            }
            try video.finish()
            try sequence.finish()

            let decoded = try decodeRGB(dir + "/clip.mp4", width: width, height: height)
            #expect(decoded.count == frames.count)
            // PSNR of the clip: from the mean squared error over every frame's
            // RGB bytes (the figure ffmpeg's psnr filter calls "average" is
            // the mean of per-frame values; this is the stricter pooled one).
            var squared = 0.0
            var bytes = 0
            for (index, rgb) in decoded.enumerated() {
                let png = try PNGCodec.decode(fileAt: dir + "/frames/" + PNGSequenceEncoder.frameName(index))
                for i in 0 ..< (width * height) {
                    for c in 0 ..< 3 {
                        let d = Double(rgb[i * 3 + c]) - Double(png.pixels[i * 4 + c])
                        squared += d * d
                    }
                }
                bytes += width * height * 3
            }
            let clip = 10 * log10(255 * 255 / (squared / Double(bytes)))
            #expect(clip >= 40, "clip PSNR \(clip) dB")
        }
    }

    @Test("an odd size is padded with the background, said in a warning, never cropped")
    func oddSizePadded() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/odd.mp4"
            let settings = VideoSettings(
                width: 33, height: 25, framesPerSecond: 24, preset: "ultrafast",
                background: RGBAColor(red: 0, green: 0, blue: 1))
            let encoder = try VideoFileEncoder(path: path, settings: settings)
            #expect(encoder.encodedWidth == 34 && encoder.encodedHeight == 26)
            let warning = try #require(encoder.warnings.first)
            #expect(warning.contains("padded 33x25 to 34x26"), "\(warning)")
            #expect(warning.contains("'\(path)'"))
            // Red frame content; the pad must be the (blue) background.
            for _ in 0 ..< 3 { try encoder.append(Bitmap(width: 33, height: 25, fill: (255, 0, 0, 255))) }
            try encoder.finish()
            let info = try probe(path)
            #expect(info.int("width") == 34 && info.int("height") == 26)
            // Luma, as stored: the pad row and column are the background's (blue,
            // Y 32), the frame's own pixels red (Y 63) up to the last one. (4:2:0
            // chroma is shared between the last row or column and the pad, as
            // with any odd edge.)
            let yuv = try #require(
                try decodeRaw(
                    path, pixelFormat: "yuv420p", bytesPerPixel: 1, width: 34,
                    height: 26 * 3 / 2
                ).first)
            func luma(_ x: Int, _ y: Int) -> Int { Int(yuv[y * 34 + x]) }
            #expect(abs(luma(16, 12) - 63) <= 3)
            #expect(abs(luma(32, 12) - 63) <= 3, "the last real column stays")
            #expect(abs(luma(16, 24) - 63) <= 3, "the last real row stays")
            #expect(abs(luma(33, 12) - 32) <= 3, "right pad column")
            #expect(abs(luma(16, 25) - 32) <= 3, "bottom pad row")
        }
    }

    @Test("ProRes and VP9 take odd sizes as they are", arguments: ["odd.mov", "odd.webm"])
    func oddSizeElsewhere(output: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + output
            let settings = VideoSettings(
                width: 33, height: 25, framesPerSecond: 24, preset: "ultrafast",
                oddSize: .refuse)
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            #expect(encoder.warnings.isEmpty)
            for _ in 0 ..< 2 { try encoder.append(Bitmap(width: 33, height: 25, fill: (9, 80, 200, 255))) }
            try encoder.finish()
            let info = try probe(path)
            #expect(info.int("width") == 33 && info.int("height") == 25)
        }
    }
}
