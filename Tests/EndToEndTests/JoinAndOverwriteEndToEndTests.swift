import Foundation
import Testing

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
}
