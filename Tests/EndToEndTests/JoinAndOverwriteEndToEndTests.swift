import Foundation
import PNGCodec
import Primitives
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct JoinAndOverwriteEndToEndTests {
    static let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path

    @Test("Chunks rendered with --frames join, in any order; a gap is refused with exit 2, naming the parts")
    func join() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = { (name: String) in dir.appendingPathComponent(name).path }
        for (range, name) in [("0-9", "a.mp4"), ("10-20", "b.mp4"), ("21-33", "c.mp4"), ("22-33", "late.mp4")] {
            let result = try CommandRunner.shiftrender(Self.scene, "--frames", range, "-o", part(name))
            #expect(result.status == 0, "\(result.stderr)")
        }
        let joined = try CommandRunner.shiftrender("join", part("c.mp4"), part("a.mp4"), part("b.mp4"), "-o", part("all.mp4"))
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdoutText.contains("frames 0-33 of 34 from 3 parts"), "\(joined.stdoutText)")
        let gap = try CommandRunner.shiftrender("join", part("a.mp4"), part("late.mp4"), "-o", part("gap.mp4"))
        #expect(gap.status == 2)
        #expect(gap.stderr.contains("starts at frame 22 but \(part("a.mp4")) ends at frame 9: frames 10-21 are missing"), "\(gap.stderr)")
        #expect(!CommandRunner.contents(dir).contains("gap.mp4"))
    }

    @Test("An existing file is refused without -y (exit 3, untouched) and replaced with it")
    func overwriteRule() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["out.mp4", "still.png", "out.gif"] {
            let target = dir.appendingPathComponent(name)
            try Data("earlier".utf8).write(to: target)
            let still = name.hasSuffix(".png") ? ["--frame", "3"] : []
            let refused = try CommandRunner.run(CommandRunner.shiftrender, [Self.scene, "-o", target.path] + still)
            #expect(refused.status == 3)
            #expect(refused.stderr.contains("it already exists; allow overwriting (--overwrite) to replace it"), "\(refused.stderr)")
            #expect(try Data(contentsOf: target) == Data("earlier".utf8))
            let replaced = try CommandRunner.run(CommandRunner.shiftrender, [Self.scene, "-o", target.path, "-y"] + still)
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(try Data(contentsOf: target) != Data("earlier".utf8))
        }
    }

    @Test("join never writes over one of its parts, however it is named, not even with -y (exit 2, before any work)")
    func joinRefusesAPartAsOutput() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = { (name: String) in dir.appendingPathComponent(name).path }
        for (range, name) in [("0-9", "a.mp4"), ("10-33", "b.mp4")] {
            let result = try CommandRunner.shiftrender(Self.scene, "--frames", range, "-o", part(name))
            #expect(result.status == 0, "\(result.stderr)")
        }
        try FileManager.default.createSymbolicLink(atPath: part("link.mp4"), withDestinationPath: "b.mp4")
        #expect(link(part("a.mp4"), part("hard.mp4")) == 0)
        let before = try [Data(contentsOf: URL(fileURLWithPath: part("a.mp4"))), Data(contentsOf: URL(fileURLWithPath: part("b.mp4")))]
        // The same path, another spelling of it, a symbolic link to a part, a hard link to one.
        let outputs = [
            (part("a.mp4"), "a.mp4"), (dir.path + "/./a.mp4", "a.mp4"), (part("link.mp4"), "b.mp4"), (part("hard.mp4"), "a.mp4"),
        ]
        for (output, named) in outputs {
            let refused = try CommandRunner.shiftrender("join", part("a.mp4"), part("b.mp4"), "-o", output, "-y")
            #expect(refused.status == 2, "\(output): \(refused.stderr)")
            #expect(
                refused.stderr.contains("cannot write '\(output)': it is the part '\(part(named))'; the joined video never replaces"),
                "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: part("a.mp4"))) == before[0])
            #expect(try Data(contentsOf: URL(fileURLWithPath: part("b.mp4"))) == before[1])
            #expect(!CommandRunner.contents(dir).contains { $0.contains(".partial-") })
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: part("link.mp4")) == "b.mp4")
    }

    @Test("A part that cannot be read is named once: no doubled 'cannot read'")
    func unreadablePartNamedOnce() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gone = dir.appendingPathComponent("gone.mp4").path
        let result = try CommandRunner.shiftrender("join", gone, "-o", dir.appendingPathComponent("out.mp4").path)
        #expect(result.status == 3)
        #expect(result.stderr.components(separatedBy: "cannot read").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot read '\(gone)': FFmpeg cannot open it as a video: No such file or directory"))
    }

    @Test("-o and --sheet naming one file, however spelt, are refused before any work (exit 2), even with -y")
    func outputAndSheetMustDiffer() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let still = dir.appendingPathComponent("still.png").path
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: still))
        try FileManager.default.createDirectory(atPath: dir.path + "/sub", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/folder-link", withDestinationPath: dir.path)
        let spellings = [still, dir.path + "/./still.png", dir.path + "/sub/../still.png", dir.path + "/folder-link/still.png"]
        for sheet in spellings {
            let refused = try CommandRunner.shiftrender(Self.scene, "-o", still, "--at", "0.1", "--sheet", sheet, "-y")
            #expect(refused.status == 2, "\(sheet): \(refused.stderr)")
            #expect(refused.stderr.contains("--sheet \(sheet) names the same file as -o \(still)"), "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == Data("earlier".utf8))
            #expect(CommandRunner.contents(dir) == ["folder-link", "still.png", "sub"])
        }
        // Two files: both are written.
        let both = try CommandRunner.shiftrender(Self.scene, "-o", still, "--at", "0.1", "--sheet", dir.path + "/sub/still.png", "-y")
        #expect(both.status == 0, "\(both.stderr)")
        #expect(CommandRunner.contents(dir.appendingPathComponent("sub")) == ["still.png"])
    }

    @Test("An image path with a NUL is refused at its place (exit 1), not cut short to another file")
    func imagePathWithNul() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // "pic.png\u0000.json" would reach the C library as "pic.png", a file that is there.
        try PNGFile.write(width: 4, height: 4, to: dir.appendingPathComponent("pic.png").path)
        let scene = dir.appendingPathComponent("scene.json").path
        try #"""
            {"version": 1, "canvas": {"width": 32, "height": 24},
             "transition": {"defaultAnimation": "fade", "baselineDuration": 0.2},
             "from": {"backgroundColor": "#FF0000"},
             "to": {"backgroundColor": "#0000FF", "subviews": [{"frame": [0, 0, 4, 4]}, {"frame": [0, 0, 4, 4]},
               {"frame": [0, 0, 8, 8], "image": "pic.png\u0000.json"}]}}
            """#.write(toFile: scene, atomically: true, encoding: .utf8)
        for arguments in [["validate", scene], [scene, "-o", dir.path + "/out.png", "--at", "0.1"]] {
            let result = try CommandRunner.run(CommandRunner.shiftrender, arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("to.subviews[2].image: the image path contains a NUL character"), "\(result.stderr)")
        }
        #expect(CommandRunner.contents(dir) == ["pic.png", "scene.json"])
    }
}

/// A small opaque PNG, written with the project's own encoder.
enum PNGFile {
    static func write(width: Int, height: Int, to path: String) throws {
        try PNGCodec.encode(Bitmap(width: width, height: height, fill: (10, 200, 30, 255)), toFileAt: path)
    }
}
