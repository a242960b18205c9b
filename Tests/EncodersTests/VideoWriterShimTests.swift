@testable import Encoders
import Foundation
import Testing

/// The C shim's errors arrive as one-line strings, never as a crash or exit.
@Suite("FFmpeg shim errors")
struct VideoWriterShimTests {
    static let rate = FrameRate(numerator: 24, denominator: 1)!

    func configuration(_ change: (inout VideoWriter.Configuration) -> Void) -> VideoWriter.Configuration {
        var c = VideoWriter.Configuration.h264MP4(
            settings: VideoSettings(width: 16, height: 16, framesPerSecond: 24, preset: "ultrafast"),
            frameRate: Self.rate, encodedSize: (16, 16))
        change(&c)
        return c
    }

    func openError(_ c: VideoWriter.Configuration, path: String) -> String? {
        do {
            _ = try VideoWriter(path: path, configuration: c)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(
        "bad configurations are reported, naming what is wrong",
        arguments: [
            ("codec", "this FFmpeg build has no encoder 'libnope'"),
            ("option", "encoder 'libx264' has no option 'nonsense'"),
            ("preset", "cannot open encoder 'libx264'"),
            ("odd", "yuv420p needs a width divisible by 2 and a height divisible by 2; 15x16 is not"),
            ("pixfmt", "unknown pixel format 'yuv999p'"),
            ("colour", "unknown colour space 'bt9000'"),
            ("muxer", "muxer 'mp4' has no option 'bogus'"),
        ])
    func configurationErrors(problem: String, expected: String) throws {
        try withTemporaryDirectory { dir in
            let c = configuration { c in
                switch problem {
                case "codec": c.codecName = "libnope"
                case "option": c.codecOptions.append(("nonsense", "1"))
                case "preset": c.codecOptions = [("preset", "warp9")]
                case "odd":
                    c.width = 15
                    c.outputWidth = nil
                case "pixfmt": c.pixelFormat = "yuv999p"
                case "colour": c.colorSpace = "bt9000"
                case "muxer": c.formatOptions.append(("bogus", "1"))
                default: break
                }
            }
            let message = try #require(openError(c, path: dir + "/x.mp4"))
            #expect(message.contains(expected), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test("an unopenable path is reported with the system's reason")
    func unopenablePath() throws {
        let message = try #require(openError(configuration { _ in }, path: "/nonexistent-shiftrender/x.mp4"))
        #expect(message.contains("cannot open '/nonexistent-shiftrender/x.mp4' for writing"), "\(message)")
        #expect(message.contains("No such file or directory"), "\(message)")
    }

    @Test("writing after finish, or with a short stride, is an error, not a crash")
    func misuse() throws {
        try withTemporaryDirectory { dir in
            let writer = try VideoWriter(path: dir + "/x.mp4", configuration: configuration { _ in })
            let pixels = [UInt8](repeating: 128, count: 16 * 16 * 4)
            #expect(throws: VideoWriterError.self) {
                try pixels.withUnsafeBytes { bytes in try writer.write(bytes, bytesPerRow: 10) }
            }
            let fresh = try VideoWriter(path: dir + "/y.mp4", configuration: configuration { _ in })
            try pixels.withUnsafeBytes { bytes in try fresh.write(bytes, bytesPerRow: 64) }
            #expect(fresh.frameCount == 1)
            try fresh.finish()
            #expect(throws: VideoWriterError.self) {
                try pixels.withUnsafeBytes { bytes in try fresh.write(bytes, bytesPerRow: 64) }
            }
            #expect(throws: VideoWriterError.self) { try fresh.finish() }
        }
    }
}

extension VideoWriterShimTests {
    /// Other outputs are another configuration of the same writer, not new code.
    @Test(
        "ProRes 4444 .mov and VP9 .webm with alpha need only a configuration",
        arguments: [
            ("mov", "prores_ks", "yuva444p10le", "prores"),
            ("webm", "libvpx-vp9", "yuva420p", "vp9"),
        ])
    func otherOutputs(format: String, codec: String, pixelFormat: String, probedCodec: String) throws {
        try #require(VideoWriter.hasEncoder(codec), "this FFmpeg has no \(codec)")
        try withTemporaryDirectory { dir in
            let path = dir + "/alpha.\(format)"
            let c = VideoWriter.Configuration(
                formatName: format, codecName: codec, pixelFormat: pixelFormat,
                width: 16, height: 16, frameRate: Self.rate,
                codecOptions: codec == "libvpx-vp9" ? [("deadline", "realtime"), ("cpu-used", "8")] : [],
                colorPrimaries: "bt709", colorTransfer: "bt709", colorSpace: "bt709", colorRange: "tv")
            let writer = try VideoWriter(path: path, configuration: c)
            let pixels = [UInt8](repeating: 100, count: 16 * 16 * 4)
            for _ in 0 ..< 6 { try pixels.withUnsafeBytes { try writer.write($0, bytesPerRow: 64) } }
            try writer.finish()
            writer.close()
            let info = try probe(path)
            #expect(info.string("codec_name") == probedCodec)
            #expect(info.int("nb_read_frames") == 6)
        }
    }
}
