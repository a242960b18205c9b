import Foundation
import Testing

/// ArgumentParser's own errors read as the tool's: `shiftrender: error:`, the
/// message, the usage of the command, exit 2; help stays as it was.
@Suite(.serialized) struct UsageErrorEndToEndTests {
    func expectUsageError(_ arguments: [String], _ message: String, command: String = "render") throws {
        let result = try CommandRunner.run(CommandRunner.shiftrender, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(
            result.stderr
                == "shiftrender: error: \(message)\nUsage: shiftrender \(command) [<options>] <scene>\n"
                + "  See 'shiftrender \(command) --help' for more information.\n",
            "\(arguments)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("Error:"))
    }

    @Test func argumentParserErrorsHaveTheToolsStyle() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("o.mp4").path
        try expectUsageError([scene, "-o", out, "--bogus"], "unknown option '--bogus'")
        try expectUsageError([scene, "-o", out, "--fps"], "missing value for '--fps <fps>'")
        try expectUsageError([scene, "-o", out, "--fps", "abc"], "the value 'abc' is invalid for '--fps <fps>'")
        try expectUsageError(["info"], "missing expected argument '<scene>'", command: "info")
        // A check of the command's own (`validate()`) reads the same way.
        try expectUsageError([scene], "give an output with -o/--output (or a --sheet)")
        #expect(CommandRunner.contents(dir) == ["scene.json"])
    }

    @Test func helpIsUntouched() throws {
        for arguments in [["--help"], ["help", "render"], ["render", "--help"], ["verify", "-h"]] {
            let result = try CommandRunner.run(CommandRunner.shiftrender, arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdoutText.hasPrefix("OVERVIEW: "), "\(arguments)")
            #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
    }
}

/// A PNG folder that already holds the frames a render writes is refused,
/// and the message names the flag that allows it.
@Suite(.serialized) struct PNGFolderRefusalEndToEndTests {
    @Test func theRefusalNamesOverwrite() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let frames = dir.appendingPathComponent("frames").path + "/"
        #expect(try CommandRunner.shiftrender(scene, "-o", frames, "--frames", "0-1").status == 0)
        let refused = try CommandRunner.shiftrender(scene, "-o", frames, "--frames", "0-1")
        #expect(refused.status == 3)
        // Every frame in the way is counted before any work, not only the first.
        #expect(
            refused.stderr.hasPrefix(
                "shiftrender: error: cannot write '\(frames)': the folder already holds 2 of the frames this output writes "
                    + "(frame_00000.png ... frame_00001.png)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("allow overwriting (--overwrite)"), "\(refused.stderr)")
        #expect(try CommandRunner.shiftrender(scene, "-o", frames, "--frames", "0-1", "-y").status == 0)
    }
}
