import Encoders
import Foundation
import Primitives
import Testing

@Suite("MP4Encoder")
struct MP4EncoderTests {
    static let red: (UInt8, UInt8, UInt8) = (255, 0, 0)
    static let blue: (UInt8, UInt8, UInt8) = (0, 0, 255)

    /// 12 frames of 64x48 at 24 fps, left half red and right half blue.
    func encodeSplitVideo(to path: String, fps: Double = 24, frames: Int = 12) throws {
        let settings = VideoSettings(width: 64, height: 48, framesPerSecond: fps)
        let encoder = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
        let frame = splitFrame(width: 64, height: 48, left: Self.red, right: Self.blue)
        for _ in 0 ..< frames { try encoder.append(frame) }
        try encoder.finish()
    }

    @Test("ffprobe sees H.264 yuv420p, the size, 24/1, 12 frames, BT.709 tags and 0.5 s")
    func streamProperties() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            try encodeSplitVideo(to: path)
            #expect(try contents(of: dir) == ["out.mp4"], "only the finished file remains")
            let info = try probe(path)
            #expect(info.string("codec_name") == "h264")
            #expect(info.string("pix_fmt") == "yuv420p")
            #expect(info.int("width") == 64)
            #expect(info.int("height") == 48)
            #expect(info.string("r_frame_rate") == "24/1")
            #expect(info.string("avg_frame_rate") == "24/1")
            #expect(info.int("nb_read_frames") == 12)
            #expect(info.string("color_space") == "bt709")
            #expect(info.string("color_primaries") == "bt709")
            #expect(info.string("color_transfer") == "bt709")
            #expect(info.string("color_range") == "tv")
            let duration = try #require(info.duration)
            #expect(abs(duration - 0.5) < 0.001, "duration \(duration)")
        }
    }

    @Test("decoded pixels keep the frame's colours (BT.709 both ways)")
    func decodedColours() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            try encodeSplitVideo(to: path)
            let frames = try decodeRGB(path, width: 64, height: 48)
            #expect(frames.count == 12)
            for frame in frames {
                let left = rgb(frame, width: 64, x: 12, y: 24)
                let right = rgb(frame, width: 64, x: 52, y: 24)
                #expect(isClose(left, (255, 0, 0), within: 6), "left \(left)")
                #expect(isClose(right, (0, 0, 255), within: 6), "right \(right)")
            }
        }
    }

    @Test("frames keep their order: one colour per frame")
    func colourPerFrame() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/ramp.mp4"
            let settings = VideoSettings(width: 32, height: 32, framesPerSecond: 10, preset: "veryfast")
            let encoder = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            let levels = (0 ..< 10).map { UInt8(20 + $0 * 22) }
            for level in levels {
                try encoder.append(Bitmap(width: 32, height: 32, fill: (level, 255 - level, 128, 255)))
            }
            #expect(encoder.frameCount == 10)
            try encoder.finish()
            let frames = try decodeRGB(path, width: 32, height: 32)
            #expect(frames.count == 10)
            for (frame, level) in zip(frames, levels) {
                let centre = rgb(frame, width: 32, x: 16, y: 16)
                #expect(isClose(centre, (Int(level), 255 - Int(level), 128), within: 6), "\(centre) for \(level)")
            }
        }
    }

    @Test("the moov atom comes before mdat (faststart)")
    func faststart() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            try encodeSplitVideo(to: path)
            let boxes = topLevelBoxes(try fileBytes(path))
            let moov = try #require(boxes.firstIndex(of: "moov"), "boxes: \(boxes)")
            let mdat = try #require(boxes.firstIndex(of: "mdat"), "boxes: \(boxes)")
            #expect(boxes.first == "ftyp")
            #expect(moov < mdat, "boxes: \(boxes)")
        }
    }

    @Test(
        "fractional rates are exact rationals in the file",
        arguments: [
            (29.97, "30000/1001", 30), (12.5, "25/2", 10), (60.0, "60/1", 30),
        ])
    func frameRates(fps: Double, expected: String, frames: Int) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/rate.mp4"
            let settings = VideoSettings(width: 16, height: 16, framesPerSecond: fps, preset: "ultrafast")
            let encoder = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            #expect(encoder.frameRate.description == expected)
            for _ in 0 ..< frames { try encoder.append(Bitmap(width: 16, height: 16, fill: (9, 99, 199, 255))) }
            try encoder.finish()
            let info = try probe(path)
            #expect(info.string("r_frame_rate") == expected)
            #expect(info.int("nb_read_frames") == frames)
            let duration = try #require(info.duration)
            let wanted = encoder.frameRate.duration(ofFrames: frames)
            #expect(abs(duration - wanted) < 0.002, "duration \(duration), expected \(wanted)")
        }
    }

    @Test("with oddSize .refuse, odd sizes are refused with the fix in the message, and nothing is written")
    func oddSize() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/odd.mp4"
            let error = try #require(throws: EncoderError.self) {
                try VideoFileEncoder(
                    path: path, format: .mp4,
                    settings: VideoSettings(
                        width: 391, height: 844, framesPerSecond: 30, oddSize: .refuse))
            }
            #expect(error.kind == .invalidSettings)
            #expect(error.description.contains("'\(path)'"))
            #expect(error.description.contains("needs even width and height"))
            #expect(error.description.contains("391x844 is odd"))
            #expect(error.description.contains("change the canvas size or scale"))
            #expect(error.description.contains("padded to 392x844"))
            #expect(try contents(of: dir).isEmpty)
            #expect(throws: EncoderError.self) {
                try VideoFileEncoder(
                    path: path, format: .mp4,
                    settings: VideoSettings(
                        width: 64, height: 47, framesPerSecond: 30, oddSize: .refuse))
            }
        }
    }

    @Test(
        "bad CRF, preset and frame rate are refused before anything is written",
        arguments: [
            VideoSettings(width: 64, height: 48, framesPerSecond: 30, crf: 60),
            VideoSettings(width: 64, height: 48, framesPerSecond: 30, preset: "warp9"),
            VideoSettings(width: 64, height: 48, framesPerSecond: 0),
            VideoSettings(width: 64, height: 48, framesPerSecond: .nan),
            VideoSettings(width: 0, height: 48, framesPerSecond: 30),
        ])
    func invalidSettings(settings: VideoSettings) throws {
        try withTemporaryDirectory { dir in
            let error = try #require(throws: EncoderError.self) {
                try VideoFileEncoder(path: dir + "/bad.mp4", format: .mp4, settings: settings)
            }
            #expect(error.kind == .invalidSettings)
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test("translucent frames are encoded as if over black")
    func translucentOverBlack() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/half.mp4"
            let settings = VideoSettings(width: 16, height: 16, framesPerSecond: 24)
            let encoder = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            // Straight white at alpha 128 is premultiplied (128, 128, 128, 128).
            try encoder.append(Bitmap(width: 16, height: 16, fill: (128, 128, 128, 128)))
            try encoder.finish()
            let frame = try #require(try decodeRGB(path, width: 16, height: 16).first)
            #expect(isClose(rgb(frame, width: 16, x: 8, y: 8), (128, 128, 128), within: 4))
        }
    }
}

extension MP4EncoderTests {
    @Test("CRF and preset reach x264 (its settings string is in the stream)")
    func crfAndPreset() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/q.mp4"
            let settings = VideoSettings(width: 16, height: 16, framesPerSecond: 24, crf: 23, preset: "ultrafast")
            let encoder = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            try encoder.append(Bitmap(width: 16, height: 16, fill: (1, 2, 3, 255)))
            try encoder.finish()
            let text = String(decoding: try fileBytes(path), as: UTF8.self)
            #expect(text.contains("crf=23.0"))
            #expect(text.contains("subme=0"), "ultrafast turns subpixel refinement off")
        }
    }
}
