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

    @Test func usageErrorsExitWith2() throws {
        let result = try CommandRunner.shiftrender("scene.json")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--output"))
    }
}
