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

    /// A number option takes a negative value as its value, so the message gives the range and
    /// what was given (not "missing value"), and a negative value that is allowed works.
    @Test func negativeValuesAreValues() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("o.mp4").path
        try expectUsageError([scene, "-o", out, "--crf", "-5"], "--crf must be between 0 and 51 (got -5)")
        try expectUsageError([scene, "-o", out, "--threads", "-2"], "--threads must be between 1 and 256 (got -2)")
        try expectUsageError([scene, "-o", out, "--fps", "-3"], "--fps must be between 1 and 240 (got -3.0)")
        try expectUsageError([scene, "-o", out, "--at", "-1"], "--at must be a time in seconds from 0 to 1000000 (got -1.0)")
        try expectUsageError([scene, "-o", out, "--progress", "-0.5"], "--progress must be between 0 and 1 (got -0.5)")
        #expect(CommandRunner.contents(dir) == ["scene.json"])
        // -1 is documented for --gif-loop: play once.
        let gif = dir.appendingPathComponent("once.gif").path
        let once = try CommandRunner.shiftrender(scene, "-o", gif, "--gif-loop", "-1")
        #expect(once.status == 0, "\(once.stderr)")
        #expect(FileManager.default.fileExists(atPath: gif))
    }

    /// A memory limit no render fits in, or one past any machine, is a slip: refused before any work.
    @Test func memoryLimitsOutOfAnyReasonAreRefused() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("o.mp4").path
        for limit in ["0.0000001", "99999999999999999999T", "999K"] {
            try expectUsageError(
                [scene, "-o", out, "--memory-limit", limit], "--memory-limit must be between 1M and 1000T (got '\(limit)')")
        }
        #expect(CommandRunner.contents(dir) == ["scene.json"])
        #expect(try CommandRunner.shiftrender(scene, "-o", out, "--memory-limit", "1000T").status == 0)
    }

    /// A `.png` output without a frame option names a sequence; most often one picture was meant.
    @Test func aStillWithoutAFrameOptionIsPointedToThem() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let still = dir.appendingPathComponent("still.png").path
        let result = try CommandRunner.run(CommandRunner.shiftrender, [scene, "-o", still])
        #expect(result.status == 2)
        #expect(result.stderr.contains("; for one still image, add --at SECONDS, --frame N or --progress P"), "\(result.stderr)")
        #expect(CommandRunner.contents(dir) == ["scene.json"])
    }

    /// `--version` prints the version alone on stdout (MAJOR.MINOR.PATCH), for scripts and bug reports.
    @Test func versionPrintsTheVersion() throws {
        let result = try CommandRunner.run(CommandRunner.shiftrender, ["--version"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let version = result.stdoutText
        #expect(version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil, "\(version)")
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
