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
