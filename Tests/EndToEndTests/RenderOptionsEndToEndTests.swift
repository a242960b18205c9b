import Foundation
import PNGCodec
import Primitives
import Testing

/// The render options a person reaches for, checked against each other.
@Suite(.serialized) struct RenderOptionsEndToEndTests {
    func withScene<T>(_ body: (String, URL) throws -> T) throws -> T {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        return try body(scene, dir)
    }

    @Test func stillsMatchTheSequenceFrames() throws {
        try withScene { scene, dir in
            #expect(try CommandRunner.shiftrender(scene, "-o", dir.path + "/frames/").status == 0)
            let names = CommandRunner.contents(dir.appendingPathComponent("frames"))
            let sixth = try PNGCodec.decode(fileAt: dir.appendingPathComponent("frames/" + names[6]).path)
            // --frame 6 and --at 0.25 (6 / 24 s) are the same frame as the sequence's seventh file.
            #expect(try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("f6.png").path, "--frame", "6").status == 0)
            #expect(try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("at.png").path, "--at", "0.25").status == 0)
            #expect(try PNGCodec.decode(fileAt: dir.appendingPathComponent("f6.png").path) == sixth)
            #expect(try PNGCodec.decode(fileAt: dir.appendingPathComponent("at.png").path) == sixth)
            let past = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("x.png").path, "--frame", "13")
            #expect(past.status == 2)
            #expect(past.stderr.contains("--frame 13 is past the end: the clip has frames 0-12"))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
            // Out of any clip's range: the range and the value are named, before the scene is read (render and verify alike).
            let huge = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("x.png").path, "--at", "1e300")
            #expect(huge.status == 2)
            #expect(huge.stderr.contains("--at must be a time in seconds from 0 to 1000000 (got 1e+300)"), "\(huge.stderr)")
            let verify = try CommandRunner.shiftrender("verify", scene, "--golden", dir.path, "--frame", "99999999999")
            #expect(verify.status == 2)
            #expect(verify.stderr.contains("--frame must be a frame number from 0 to 10000000 (got 99999999999)"), "\(verify.stderr)")
        }
    }

    @Test func aRangeRendersOnlyThoseFrames() throws {
        try withScene { scene, dir in
            let result = try CommandRunner.shiftrender(scene, "-o", dir.path + "/part/", "--frames", "3-7")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(CommandRunner.contents(dir.appendingPathComponent("part")).count == 5)
            #expect(try CommandRunner.shiftrender(scene, "-o", dir.path + "/bad/", "--frames", "7-3").status == 2)
        }
    }

    @Test func overridesChangeSizeRateAndDirection() throws {
        try withScene { scene, dir in
            let info = { (args: [String]) throws -> [String: Any] in
                let r = try CommandRunner.run(CommandRunner.shiftrender, ["info", scene, "--json"] + args)
                return try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
            }
            #expect(try info([])["pixelWidth"] as? Int == 64)
            #expect(try info(["--scale", "3"])["pixelWidth"] as? Int == 96)
            // 32 x 24 pt fitted into 200 x 100 px: scale 100 / 24.
            #expect(try info(["--size", "200x100"])["pixelHeight"] as? Int == 100)
            #expect(try info(["--size", "200x100"])["pixelWidth"] as? Int == 133)
            #expect(try info(["--fps", "48"])["frameCount"] as? Int == 25)  // ceil(0.5 * 48) + 1
            let dismiss = try info(["--direction", "dismiss"])["segments"] as? [[String: Any]]
            #expect(dismiss?.first?["direction"] as? String == "dismiss")
            #expect(try CommandRunner.shiftrender("info", scene, "--size", "10x0").status == 2)
            #expect(try CommandRunner.shiftrender("info", scene, "--scale", "500").status == 2)
        }
    }

    @Test func contactSheetShowsTheChosenFrames() throws {
        try withScene { scene, dir in
            let sheet = dir.appendingPathComponent("sheet.png").path
            let result = try CommandRunner.shiftrender(scene, "--sheet", sheet)
            #expect(result.status == 0, "\(result.stderr)")
            let image = try PNGCodec.decode(fileAt: sheet)
            // 13 frames -> 12 tiles in a 4 x 3 grid of 64 x 48 thumbnails (12 px gaps, 24 px labels).
            #expect(image.width == 4 * (64 + 12) + 12)
            #expect(image.height == 3 * (48 + 24 + 12) + 12)
            // First tile shows the red from screen, last tile the blue to screen.
            #expect(image.pixel(x: 12 + 50, y: 12 + 40) == (255, 0, 0, 255))
            #expect(image.pixel(x: 12 + 3 * 76 + 50, y: 12 + 2 * 84 + 40) == (0, 0, 255, 255))
        }
    }

    @Test func noProgressWhenStderrIsNotATerminal() throws {
        try withScene { scene, dir in
            let result = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("o.mp4").path)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
    }

    @Test func tooManyFramesIsRefusedBeforeAnyWork() throws {
        try withScene { scene, dir in
            let long = redToBlueScene.replacingOccurrences(of: "\"fps\": 24", with: "\"fps\": 240")
                .replacingOccurrences(
                    of: "\"defaultAnimation\": \"fade\"", with: "\"defaultAnimation\": \"fade\", \"hold\": {\"after\": 600}")
            try long.write(toFile: scene, atomically: true, encoding: .utf8)
            let result = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("o.mp4").path)
            #expect(result.status == 1)
            #expect(result.stderr.contains("the transition makes 144121 frames; the limit is 100000"), "\(result.stderr)")
            #expect(CommandRunner.contents(dir) == ["scene.json"])
        }
    }
}
