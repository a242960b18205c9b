import Foundation
import Testing

/// Bad input: a one-line message naming what and where, a non-zero exit, and
/// no output left behind.
@Suite(.serialized) struct ErrorEndToEndTests {
    func render(
        scene text: String?, sceneName: String = "scene.json", extra: [String: [UInt8]] = [:]
    ) throws
        -> (result: CommandRunner.Result, directory: URL, output: String)
    {
        let dir = try CommandRunner.temporaryDirectory()
        let scene = dir.appendingPathComponent(sceneName).path
        if let text { try text.write(toFile: scene, atomically: true, encoding: .utf8) }
        for (name, bytes) in extra {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data(bytes))
        }
        let output = dir.appendingPathComponent("out.mp4").path
        return (try CommandRunner.shiftrender(scene, "-o", output), dir, output)
    }

    func expectNothingWritten(_ dir: URL, besides: Set<String>) {
        #expect(Set(CommandRunner.contents(dir)) == besides, "left behind: \(CommandRunner.contents(dir))")
    }

    @Test func missingSceneFile() throws {
        let (result, dir, _) = try render(scene: nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 3)
        #expect(result.stderr.contains("scene.json: no such file"))
        expectNothingWritten(dir, besides: [])
    }

    @Test func invalidJSONGivesLineAndColumn() throws {
        let (result, dir, _) = try render(scene: "{\n  \"version\": 1,\n  \"canvas\": {\"width\": 10 \"height\": 10}\n}")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        #expect(result.stderr.contains("invalid JSON: unexpected '\"'; expected ',' or '}' (line 3, column 26)"), "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json"])
    }

    @Test func unknownKeyNamesPathAndSuggestion() throws {
        let text = redToBlueScene.replacingOccurrences(of: "\"backgroundColor\": \"#00FF00\"", with: "\"backgroundColour\": \"#00FF00\"")
        let (result, dir, _) = try render(scene: text)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("to.subviews[0].backgroundColour: unknown key \"backgroundColour\"; did you mean \"backgroundColor\"?"),
            "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json"])
    }

    @Test func unreadableImage() throws {
        let text = redToBlueScene.replacingOccurrences(of: "\"backgroundColor\": \"#00FF00\"", with: "\"image\": \"broken.png\"")
        let (result, dir, _) = try render(scene: text, extra: ["broken.png": Array("not a png at all".utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        #expect(result.stderr.contains("to.subviews[0].image: image \"broken.png\""), "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json", "broken.png"])
    }

    @Test func unwritableOutput() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("afile").path, contents: Data())
        let result = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("afile/out.mp4").path)
        #expect(result.status == 2)  // a usage error, found before the scene is read
        #expect(result.stderr.contains("afile/out.mp4"), "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json", "afile"])
    }

    @Test func existingOutputIsUntouchedOnFailure() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try "{\"version\": 1,}".write(toFile: scene, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("out.mp4").path
        try "precious".write(toFile: output, atomically: true, encoding: .utf8)
        let result = try CommandRunner.shiftrender(scene, "-o", output)
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        expectNothingWritten(dir, besides: ["scene.json", "out.mp4"])
    }

    /// A place passes through the views' names, so that a deep view is found by what its author called it.
    @Test func placesCarryTheNamesOfTheViewsAlongThem() throws {
        let text = redToBlueScene.replacingOccurrences(
            of: ##"{ "frame": [0, 0, 16, 12], "backgroundColor": "#00FF00" }"##,
            with: #"{ "name": "hero", "frame": [0, 0, 16, 12], "subviews": [ { "frame": [0, 0, 4, 4], "alpha": 2 } ] }"#)
        let (result, dir, _) = try render(scene: text)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(#"to.subviews[0] "hero" .subviews[0].alpha: 2 is out of range: must be at least 0 and at most 1"#),
            "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json"])
    }

    /// An image named with the wrong case, or a letter off, is offered the file beside it.
    @Test func aMissingImageIsOfferedTheNameItProbablyMeant() throws {
        let png = try Data(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("fixtures/images/star.png"))
        let text = redToBlueScene.replacingOccurrences(of: "\"backgroundColor\": \"#00FF00\"", with: "\"image\": \"hero@2x.png\"")
        let (result, dir, _) = try render(scene: text, extra: ["Hero@2x.png": Array(png), "Other.png": Array(png)])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"image "hero@2x.png" not found ("#), "\(result.stderr)")
        #expect(result.stderr.contains(#"hero@2x.png); did you mean "Hero@2x.png"? (line "#), "\(result.stderr)")
        expectNothingWritten(dir, besides: ["scene.json", "Hero@2x.png", "Other.png"])

        let typo = redToBlueScene.replacingOccurrences(of: "\"backgroundColor\": \"#00FF00\"", with: "\"image\": \"img/postr.png\"")
        let (far, farDir, _) = try render(scene: typo)
        defer { try? FileManager.default.removeItem(at: farDir) }
        try FileManager.default.createDirectory(at: farDir.appendingPathComponent("img"), withIntermediateDirectories: false)
        try png.write(to: farDir.appendingPathComponent("img/poster.png"))
        #expect(!far.stderr.contains("did you mean"), "no folder, no hint: \(far.stderr)")
        let farScene = farDir.appendingPathComponent("scene.json").path
        let again = try CommandRunner.shiftrender(farScene, "-o", farDir.appendingPathComponent("o.mp4").path)
        #expect(again.status == 1)
        #expect(again.stderr.contains(#"did you mean "img/poster.png"?"#), "\(again.stderr)")
    }

    /// A value the rules refuse is reported once, even when the typesetter would refuse it too.
    @Test func aFontSizeOfZeroIsReportedOnce() throws {
        let text = redToBlueScene.replacingOccurrences(
            of: "\"backgroundColor\": \"#00FF00\"", with: #""text": {"string": "Hi", "font": {"family": "Inter", "size": 0}}"#)
        let (result, dir, _) = try render(scene: text)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("to.subviews[0].text.font.size: 0 is out of range: must be greater than 0"), "\(result.stderr)")
    }

    /// A part cut short is a damaged input, named as one (exit 3), not an output that cannot be written (exit 2);
    /// and FFmpeg's own log lines (`[mov,mp4,... @ 0x...] Packet corrupt`) never reach stderr.
    @Test func aDamagedPartIsReadAsDamagedAndFFmpegStaysQuiet() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let first = dir.appendingPathComponent("a.mp4").path
        let second = dir.appendingPathComponent("b.mp4").path
        #expect(try CommandRunner.shiftrender(scene, "-o", first, "--frames", "0-4").status == 0)
        #expect(try CommandRunner.shiftrender(scene, "-o", second, "--frames", "5-9").status == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: second))
        let cut = dir.appendingPathComponent("cut.mp4").path
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        let output = dir.appendingPathComponent("joined.mp4").path
        let result = try CommandRunner.shiftrender("join", first, cut, "-o", output)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("shiftrender: error: cannot read '\(cut)': damaged or cut short"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("shiftrender: ") }, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // Cut inside its last frame, a part is still read to its end: the incomplete frame is not copied.
        try whole.prefix(whole.count - 10).write(to: URL(fileURLWithPath: cut))
        let lastFrame = try CommandRunner.shiftrender("join", first, cut, "-o", output)
        #expect(lastFrame.status == 3, "\(lastFrame.stderr)")
        #expect(lastFrame.stderr.hasPrefix("shiftrender: error: cannot read '\(cut)': damaged or cut short: its frame at pts "))
        #expect(lastFrame.stderr.split(separator: "\n").count == 1, "\(lastFrame.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func usageErrorsExitWith2() throws {
        let result = try CommandRunner.shiftrender("scene.json")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--output"))
    }
}
