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
    @Test("By default failures go to a new private folder under $TMPDIR, printed; a planted link is not followed")
    func failuresGoToANewPrivateFolderUnlessToldAndTheRunSaysWhere() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let work = dir.appendingPathComponent("work")
        let tmp = dir.appendingPathComponent("tmp")
        let elsewhere = dir.appendingPathComponent("elsewhere")
        for folder in [work, tmp, elsewhere] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // Someone else's links at the names earlier versions used: they must lead nowhere.
        try FileManager.default.createSymbolicLink(
            atPath: tmp.appendingPathComponent("shiftrender-failures").path, withDestinationPath: elsewhere.path)
        let scene = work.appendingPathComponent("card.json").path
        try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let goldens = work.appendingPathComponent("goldens").path
        var folders: [String] = []
        for _ in 0 ..< 2 {
            let result = try CommandRunner.run(
                CommandRunner.shiftrender, ["verify", scene, "--golden", goldens, "--frame", "3"], environment: ["TMPDIR": tmp.path])
            #expect(result.status == 1)
            let line = try #require(result.stdoutText.split(separator: "\n").first { $0.hasPrefix("failure images (actual, diff): ") })
            let folder = String(line.dropFirst("failure images (actual, diff): ".count))
            folders.append(folder)
            #expect(folder.hasPrefix(tmp.path + "/shiftrender-failures-card-"), "\(folder)")
            #expect(CommandRunner.contents(URL(fileURLWithPath: folder)).contains("frame_00003.actual.png"), "\(result.stdoutText)")
            let attributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? Int) == 0o700, "only its owner may enter it")
            #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        }
        #expect(folders[0] != folders[1], "each run makes a new folder")
        #expect(CommandRunner.contents(elsewhere).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("shiftrender-failures").path))
        // A passing run leaves no folder behind.
        #expect(try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--record").status == 0)
        let before = CommandRunner.contents(tmp)
        let pass = try CommandRunner.run(
            CommandRunner.shiftrender, ["verify", scene, "--golden", goldens], environment: ["TMPDIR": tmp.path])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(CommandRunner.contents(tmp) == before)
        // --failures DIR wins.
        let chosen = work.appendingPathComponent("mine").path
        let told = try CommandRunner.run(
            CommandRunner.shiftrender, ["verify", scene, "--golden", goldens, "--frame", "3", "--failures", chosen],
            environment: ["TMPDIR": tmp.path])
        #expect(told.status == 1)
        #expect(CommandRunner.contents(URL(fileURLWithPath: chosen)).contains("frame_00003.actual.png"))
        #expect(told.stdoutText.contains("failure images (actual, diff): \(chosen)"))
    }

    @Test("A pass removes the failure images an earlier run wrote for these goldens, and nothing else")
    func aPassRemovesItsOwnEarlierFailures() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failures = dir.appendingPathComponent("failures")
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: failures.appendingPathComponent("notes.png"))
        var scenes: [String] = []
        for name in ["card", "list"] {
            let scene = dir.appendingPathComponent("\(name).json").path
            try redToBlueScene.write(toFile: scene, atomically: true, encoding: .utf8)
            scenes.append(scene)
            let goldens = dir.appendingPathComponent("\(name)-goldens").path
            #expect(try CommandRunner.shiftrender("verify", scene, "--golden", goldens, "--record").status == 0)
        }
        // card fails on frame 6 (its view moved), list on frame 12: both leave images.
        let moved = redToBlueScene.replacingOccurrences(of: "[0, 0, 16, 12]", with: "[1, 0, 16, 12]")
        try moved.write(toFile: scenes[0], atomically: true, encoding: .utf8)
        try moved.write(toFile: scenes[1], atomically: true, encoding: .utf8)
        let cardFail = try CommandRunner.shiftrender(
            "verify", scenes[0], "--golden", dir.path + "/card-goldens", "--frame", "6", "--failures", failures.path)
        #expect(cardFail.status == 1)
        // A file verify would write, already there and not written by it, is refused, not replaced.
        try Data("theirs".utf8).write(to: failures.appendingPathComponent("frame_00012.actual.png"))
        let refused = try CommandRunner.shiftrender(
            "verify", scenes[1], "--golden", dir.path + "/list-goldens", "--frame", "12", "--failures", failures.path)
        #expect(refused.status == 3, "\(refused.stdoutText)")
        #expect(refused.stderr.contains("frame_00012.actual.png': it is there and golden checks did not write it"))
        #expect(try Data(contentsOf: failures.appendingPathComponent("frame_00012.actual.png")) == Data("theirs".utf8))
        try FileManager.default.removeItem(at: failures.appendingPathComponent("frame_00012.actual.png"))
        let listFail = try CommandRunner.shiftrender(
            "verify", scenes[1], "--golden", dir.path + "/list-goldens", "--frame", "12", "--failures", failures.path)
        #expect(listFail.status == 1)
        let cardImages = ["frame_00006.actual.png", "frame_00006.diff.png"]
        let listImages = ["frame_00012.actual.png", "frame_00012.diff.png", "failures-sheet.png"]
        #expect(Set(CommandRunner.contents(failures)).isSuperset(of: cardImages + listImages + ["notes.png"]))
        // card passes again: its images go, list's stay, and so does the file verify did not write.
        try redToBlueScene.write(toFile: scenes[0], atomically: true, encoding: .utf8)
        let pass = try CommandRunner.shiftrender(
            "verify", scenes[0], "--golden", dir.path + "/card-goldens", "--failures", failures.path)
        #expect(pass.status == 0, "\(pass.stderr)")
        let left = CommandRunner.contents(failures).filter { !$0.hasPrefix(".") }
        #expect(left == (listImages + ["notes.png"]).sorted(), "\(left)")
        // list passes too: only the file verify did not write is left.
        try redToBlueScene.write(toFile: scenes[1], atomically: true, encoding: .utf8)
        #expect(
            try CommandRunner.shiftrender("verify", scenes[1], "--golden", dir.path + "/list-goldens", "--failures", failures.path)
                .status == 0)
        #expect(CommandRunner.contents(failures) == ["notes.png"])
    }

    @Test("--record never writes a golden over one of the scene's images, named directly or through a link")
    func recordNeverWritesOverTheScenesImages() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let goldens = dir.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        let image = dir.appendingPathComponent("photo.png").path
        try PNGFile.write(width: 5, height: 3, to: image)
        let original = try Data(contentsOf: URL(fileURLWithPath: image))
        let scene = dir.appendingPathComponent("scene.json").path
        // The scene shows the photo; the golden of frame 0 is that same file, by its own name or a link.
        for (shown, golden) in [("goldens/frame_00000.png", "frame_00000.png"), ("photo.png", "link")] {
            if golden == "link" {
                try? FileManager.default.removeItem(atPath: goldens.path + "/frame_00000.png")
                try FileManager.default.createSymbolicLink(atPath: goldens.path + "/frame_00000.png", withDestinationPath: image)
            } else {
                try original.write(to: goldens.appendingPathComponent("frame_00000.png"))
            }
            try redToBlueScene.replacingOccurrences(of: "\"backgroundColor\": \"#00FF00\"", with: "\"image\": \"\(shown)\"")
                .write(toFile: scene, atomically: true, encoding: .utf8)
            let result = try CommandRunner.shiftrender("verify", scene, "--golden", goldens.path, "--record")
            #expect(result.status == 3, "\(result.stdoutText) \(result.stderr)")
            #expect(result.stderr.contains("frame_00000.png': it is one of the scene's files"), "\(result.stderr)")
            let kept = golden == "link" ? image : goldens.path + "/frame_00000.png"
            #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == original)
            #expect(CommandRunner.contents(goldens) == ["frame_00000.png"], "refused before anything was recorded")
        }
    }
}

/// Where `verify` puts the images of a mismatch, and what its help says.
@Suite(.serialized) struct VerifyFailureFolderHelpEndToEndTests {
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
