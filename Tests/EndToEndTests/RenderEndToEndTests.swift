import Foundation
import PNGCodec
import Primitives
import Testing

/// A scene small enough to reason about by hand: a red `from` screen, a blue
/// `to` screen fading in over it (the default animation), 64 x 48 px at 24 fps.
/// baselineDuration 0.5 s and nothing moves, so the motion lasts 0.5 s:
/// ceil(0.5 * 24) + 1 = 13 frames.
let redToBlueScene = """
    {
      "version": 1,
      "canvas": { "width": 32, "height": 24, "scale": 2, "background": "#000000" },
      "fps": 24,
      "transition": { "direction": "present", "baselineDuration": 0.5, "defaultAnimation": "fade" },
      "from": { "backgroundColor": "#FF0000" },
      "to": { "backgroundColor": "#0000FF",
              "subviews": [ { "frame": [0, 0, 16, 12], "backgroundColor": "#00FF00" } ] }
    }
    """

@Suite(.serialized) struct RenderEndToEndTests {
    func writeScene(_ text: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("scene.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func rendersAnMP4ThatFFprobeAndFFmpegAgreeWith() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try writeScene(redToBlueScene, in: dir)
        let output = dir.appendingPathComponent("out.mp4").path
        let result = try CommandRunner.shiftrender(scene, "-o", output)
        #expect(result.status == 0, "stderr: \(result.stderr)")

        let probe = try CommandRunner.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames",
                "-show_entries",
                "stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames,"
                    + "color_primaries,color_transfer,color_space:format=duration",
                "-of", "json", output,
            ])
        let json = try #require(try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["pix_fmt"] as? String == "yuv420p")
        #expect(stream["width"] as? Int == 64)
        #expect(stream["height"] as? Int == 48)
        #expect(stream["r_frame_rate"] as? String == "24/1")
        #expect(stream["nb_read_frames"] as? String == "13")
        #expect(stream["color_primaries"] as? String == "bt709")
        #expect(stream["color_transfer"] as? String == "bt709")
        #expect(stream["color_space"] as? String == "bt709")
        let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 13.0 / 24.0) < 0.01)

        // Decode back: first frame red (the blue screen has alpha 0), last frame
        // blue with the green view in the top-left quarter.
        let decoded = try CommandRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let frameBytes = 64 * 48 * 3
        #expect(decoded.stdout.count == frameBytes * 13)
        func pixel(_ frame: Int, _ x: Int, _ y: Int) -> [Int] {
            let i = frame * frameBytes + (y * 64 + x) * 3
            return [Int(decoded.stdout[i]), Int(decoded.stdout[i + 1]), Int(decoded.stdout[i + 2])]
        }
        func close(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 8 } }
        #expect(close(pixel(0, 48, 36), [255, 0, 0]), "first frame: \(pixel(0, 48, 36))")
        #expect(close(pixel(12, 48, 36), [0, 0, 255]), "last frame: \(pixel(12, 48, 36))")
        #expect(close(pixel(12, 8, 8), [0, 255, 0]), "last frame, green view: \(pixel(12, 8, 8))")
    }

    @Test func rendersAPNGSequenceWithExactPixels() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try writeScene(redToBlueScene, in: dir)
        let frames = dir.appendingPathComponent("frames")
        let result = try CommandRunner.shiftrender(scene, "-o", frames.path + "/")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let names = CommandRunner.contents(frames)
        #expect(names.count == 13)
        #expect(names == names.sorted())
        let first = try PNGCodec.decode(fileAt: frames.appendingPathComponent(names[0]).path)
        let last = try PNGCodec.decode(fileAt: frames.appendingPathComponent(names[12]).path)
        #expect(first.width == 64 && first.height == 48)
        #expect(first.pixel(x: 48, y: 36) == (255, 0, 0, 255))
        #expect(last.pixel(x: 48, y: 36) == (0, 0, 255, 255))
        #expect(last.pixel(x: 8, y: 8) == (0, 255, 0, 255))
        // Half-way in time the blue screen is part-way faded in: neither pure red nor pure blue.
        let middle = try PNGCodec.decode(fileAt: frames.appendingPathComponent(names[6]).path).pixel(x: 48, y: 36)
        #expect(middle.r > 0 && middle.r < 255 && middle.b > 0 && middle.b < 255)
    }

    /// A JPEG asset named @2x: 32 x 16 px (red | blue) at 2 px a point is
    /// 16 x 8 pt, centred in the 64 x 32 pt view at (24, 12).
    @Test func rendersAJPEGImageNamedAt2x() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/images/jpeg/split.jpg")
        try FileManager.default.copyItem(at: jpeg, to: dir.appendingPathComponent("Badge@2x.jpg"))
        let scene = try writeScene(
            """
            {"version": 1, "canvas": {"width": 64, "height": 32, "background": "#FFFFFF"},
             "from": {}, "to": {"subviews": [{"frame": [0, 0, 64, 32], "image": "Badge@2x.jpg", "contentMode": "center"}]}}
            """, in: dir)
        let still = dir.appendingPathComponent("still.png").path
        let result = try CommandRunner.shiftrender(scene, "-o", still, "--progress", "1")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let bitmap = try PNGCodec.decode(fileAt: still)
        func near(_ x: Int, _ y: Int, _ expected: [Int]) -> Bool {
            let p = bitmap.pixel(x: x, y: y)
            return zip([Int(p.r), Int(p.g), Int(p.b)], expected).allSatisfy { abs($0 - $1) <= 4 }
        }
        #expect(near(26, 15, [220, 30, 30]))
        #expect(near(37, 15, [30, 60, 200]))
        for (x, y) in [(23, 15), (40, 15), (30, 11), (30, 20)] {
            #expect(near(x, y, [255, 255, 255]), "(\(x), \(y)) is outside the image")
        }
    }

    @Test func rendersTheBundledExample() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path
        let output = dir.appendingPathComponent("example.mp4").path
        let result = try CommandRunner.shiftrender(scene, "-o", output)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
