import Foundation
import PNGCodec
import Testing

@Suite(.serialized) struct VerifyEndToEndTests {
    @Test func recordsComparesAndReportsFailuresWithFilesToLookAt() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let goldens = dir.appendingPathComponent("goldens").path
        let failures = dir.appendingPathComponent("failures").path
        // Without goldens: failure, nothing recorded.
        let missing = try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--failures", failures)
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: goldens + "/frame_00000.png"))
        // Record first, middle and last frames (13 frames: 0, 6, 12), then they match.
        #expect(try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--record").status == 0)
        #expect(CommandRunner.contents(URL(fileURLWithPath: goldens)) == ["frame_00000.png", "frame_00006.png", "frame_00012.png"])
        let pass = try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--failures", failures)
        #expect(pass.status == 0, "\(pass.stdoutText)")
        // A scene whose green view moved by one point fails on the last frame.
        let moved = redToBlueScene.replacingOccurrences(of: "[0, 0, 16, 12]", with: "[1, 0, 16, 12]")
        try moved.write(toFile: scene, atomically: true, encoding: .utf8)
        let fail = try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--failures", failures, "--frame", "12")
        #expect(fail.status == 1)
        #expect(fail.stdoutText.contains("FAIL"))
        #expect(
            Set(CommandRunner.contents(URL(fileURLWithPath: failures))).isSuperset(of: [
                "frame_00012.actual.png", "frame_00012.diff.png", "failures-sheet.png",
            ]))
    }
}

/// Where `verify` puts the images of a mismatch, and what its help says.
@Suite(.serialized) struct VerifyFailureFolderEndToEndTests {
    @Test func failuresGoUnderTheTemporaryFolderUnlessToldAndTheRunSaysWhere() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let work = dir.appendingPathComponent("work")
        let tmp = dir.appendingPathComponent("tmp")
        for folder in [work, tmp] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let scene = work.appendingPathComponent("card.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let goldens = work.appendingPathComponent("goldens").path
        // No goldens: every frame fails, and its images go to $TMPDIR/shiftrender-failures/card.
        let result = try CommandRunner.run(
            CommandRunner.shiftrender, ["verify", scene, "--golden", goldens, "--frame", "3"],
            environment: ["TMPDIR": tmp.path])
        #expect(result.status == 1)
        let expected = tmp.appendingPathComponent("shiftrender-failures/card")
        #expect(CommandRunner.contents(expected).contains("frame_00003.actual.png"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("failure images (actual, diff): \(expected.path)"), "\(result.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("shiftrender-failures").path))
        // --failures DIR wins.
        let chosen = work.appendingPathComponent("mine").path
        let told = try CommandRunner.run(
            CommandRunner.shiftrender, ["verify", scene, "--golden", goldens, "--frame", "3", "--failures", chosen],
            environment: ["TMPDIR": tmp.path])
        #expect(told.status == 1)
        #expect(CommandRunner.contents(URL(fileURLWithPath: chosen)).contains("frame_00003.actual.png"))
        #expect(told.stdoutText.contains("failure images (actual, diff): \(chosen)"))
    }

    @Test func helpReadsWhole() throws {
        let help = try CommandRunner.shiftrender("verify", "--help")
        #expect(help.status == 0)
        // ArgumentParser wraps at 80 columns: a line cut by hand before that breaks mid-sentence.
        #expect(!help.stdoutText.contains("may be repeated;\nwithout them"))
        #expect(help.stdoutText.contains("--failures <DIR>"))
        #expect(help.stdoutText.contains("temporary folder"))
        // The examples' notes stay on their lines.
        #expect(help.stdoutText.contains("--record   write goldens\n"))
    }
}
