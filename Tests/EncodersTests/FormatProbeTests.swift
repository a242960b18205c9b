import Encoders
import Foundation
import PNGCodec
import Primitives
import Testing

/// What ffprobe sees in each output: codec, pixel format, frame count, rate,
/// size, and alpha present or not.
@Suite("Every format, as ffprobe sees it")
struct FormatProbeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var output: String
        var transparent: Bool
        var codec: String
        /// Pixel format ffprobe reports (the decoder's: ProRes decodes to 12 bits).
        var pixelFormat: String
        /// Frames in the file for 12 frames at 24 fps.
        var frames: Int
        var rate: String?
        var testDescription: String { "\(output) \(transparent ? "transparent" : "opaque")" }
    }

    static let cases: [Case] = [
        Case(output: "out.mp4", transparent: false, codec: "h264", pixelFormat: "yuv420p", frames: 12, rate: "24/1"),
        Case(output: "out.mp4", transparent: true, codec: "h264", pixelFormat: "yuv420p", frames: 12, rate: "24/1"),
        Case(output: "out.mov", transparent: true, codec: "prores", pixelFormat: "yuva444p12le", frames: 12, rate: "24/1"),
        Case(output: "out.mov", transparent: false, codec: "prores", pixelFormat: "yuv444p12le", frames: 12, rate: "24/1"),
        Case(output: "out.webm", transparent: true, codec: "vp9", pixelFormat: "yuv420p", frames: 12, rate: "24/1"),
        Case(output: "out.webm", transparent: false, codec: "vp9", pixelFormat: "yuv420p", frames: 12, rate: "24/1"),
        Case(output: "out.gif", transparent: false, codec: "gif", pixelFormat: "bgra", frames: 12, rate: nil),
        Case(output: "out.gif", transparent: true, codec: "gif", pixelFormat: "bgra", frames: 12, rate: nil),
        Case(output: "frames/", transparent: true, codec: "png", pixelFormat: "rgba", frames: 12, rate: nil),
        Case(output: "frames/", transparent: false, codec: "png", pixelFormat: "rgb24", frames: 12, rate: nil),
        Case(output: "seq/f_%03d.png", transparent: false, codec: "png", pixelFormat: "rgb24", frames: 12, rate: nil),
    ]

    @Test("codec, pixel format, frames, rate, size, alpha", arguments: cases)
    func probeOutput(c: Case) throws {
        try withTemporaryDirectory { dir in
            let (width, height) = (96, 64)
            let settings = VideoSettings(
                width: width, height: height, framesPerSecond: 24, preset: "ultrafast",
                background: c.transparent ? .clear : RGBAColor(red: 0.1, green: 0.2, blue: 0.3))
            let path = dir + "/" + c.output
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            for frame in transitionLikeFrames(width: width, height: height, count: 12, alpha: c.transparent) {
                try encoder.append(frame)
            }
            try encoder.finish()
            #expect(try contents(of: dir).count == 1, "only the output remains")

            let probed: ProbeResult
            if c.codec == "png" {
                let naming = PNGFrameNaming.pattern(path) ?? .directory(path)
                probed = try probe(
                    naming.directory + "/" + naming.patternText.replacingOccurrences(of: "*", with: "%05d"),
                    inputOptions: ["-f", "image2"])
            } else {
                probed = try probe(path)
            }
            #expect(probed.string("codec_name") == c.codec)
            #expect(probed.string("pix_fmt") == c.pixelFormat)
            #expect(probed.int("width") == width)
            #expect(probed.int("height") == height)
            #expect(probed.int("nb_read_frames") == c.frames)
            if let rate = c.rate { #expect(probed.string("r_frame_rate") == rate) }
            if c.codec == "prores" { #expect(probed.string("profile") == "4444") }
            if c.codec == "vp9" {
                // WebM flags alpha on the track; libvpx decodes it as yuva420p.
                #expect((probed.tag("alpha_mode") == "1") == c.transparent)
                let decoded = try decodeRaw(
                    path, pixelFormat: "rgba", bytesPerPixel: 4, width: width, height: height,
                    inputOptions: ["-c:v", "libvpx-vp9"])
                let translucent = decoded.contains { frame in stride(from: 3, to: frame.count, by: 4).contains { frame[$0] < 200 } }
                #expect(translucent == c.transparent)
            }
            if ["h264", "prores", "vp9"].contains(c.codec) {
                #expect(probed.string("color_space") == "bt709")
                #expect(probed.string("color_primaries") == "bt709")
                #expect(probed.string("color_transfer") == "bt709")
            }
        }
    }

    @Test("alpha survives ProRes 4444 and VP9 as straight alpha", arguments: ["out.mov", "out.webm"])
    func alphaRoundTrip(output: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + output
            let settings = VideoSettings(
                width: 64, height: 48, framesPerSecond: 24, preset: "ultrafast",
                background: .clear, vp9CRF: 10)
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            // Straight (200, 100, 50) at alpha 128, premultiplied.
            let frame = Bitmap(
                width: 64, height: 48,
                straightPixels: [UInt8](
                    (0 ..< (64 * 48)).flatMap { _ in [200, 100, 50, 128] as [UInt8] }))!
            for _ in 0 ..< 3 { try encoder.append(frame) }
            try encoder.finish()
            let decoded = try decodeRaw(
                path, pixelFormat: "rgba", bytesPerPixel: 4, width: 64, height: 48,
                inputOptions: output.hasSuffix(".webm") ? ["-c:v", "libvpx-vp9"] : [])
            let first = try #require(decoded.first)
            let centre = (24 * 64 + 32) * 4
            let pixel = Array(first[centre ..< (centre + 4)]).map(Int.init)
            // Straight colour comes back (not 100, 50, 25 as premultiplied would).
            #expect(abs(pixel[0] - 200) <= 6 && abs(pixel[1] - 100) <= 6 && abs(pixel[2] - 50) <= 6, "\(pixel)")
            #expect(abs(pixel[3] - 128) <= 3, "alpha \(pixel[3])")
        }
    }
}
