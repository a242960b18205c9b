import Foundation
import Testing

/// Warnings (what Shift ignores or draws otherwise) are printed once, with the
/// place and the line; the scene still validates and renders. `--quiet`
/// silences them, `--strict` makes them errors that stop before any work.
@Suite struct WarningEndToEndTests {
    /// A zPosition animation on an arriving view: Shift sets it at once, so it never shows.
    static let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/features/anim-anchor-zposition.json").path
    static let warning = #"to "to" .subviews[0] "under" .shift.animations[0].zPosition: not animated"#

    func lines(_ text: String, containing needle: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(needle) }
    }

    @Test func validatePrintsTheWarningAndExitsZero() throws {
        let result = try CommandRunner.shiftrender("validate", Self.scene)
        #expect(result.status == 0)
        let warnings = lines(result.stderr, containing: Self.warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("shiftrender: warning: ") == true)
        #expect(warnings.first?.hasSuffix("(line 34, column 28)") == true)
        #expect(try CommandRunner.shiftrender("validate", "--quiet", Self.scene).stderr.isEmpty)
    }

    @Test func strictMakesThemErrors() throws {
        let result = try CommandRunner.shiftrender("validate", "--strict", Self.scene)
        #expect(result.status == 1)
        #expect(lines(result.stderr, containing: Self.warning).first?.hasPrefix("shiftrender: error: ") == true)
    }

    @Test func renderWarnsOnceAndStrictWritesNothing() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let still = directory.appendingPathComponent("still.png").path
        let result = try CommandRunner.shiftrender(Self.scene, "-o", still, "--frame", "2")
        #expect(result.status == 0)
        #expect(lines(result.stderr, containing: Self.warning).count == 1)
        #expect(FileManager.default.fileExists(atPath: still))

        let strict = directory.appendingPathComponent("strict.mp4").path
        let refused = try CommandRunner.shiftrender(Self.scene, "-o", strict, "--strict")
        #expect(refused.status == 1)
        #expect(lines(refused.stderr, containing: Self.warning).count == 1)
        #expect(CommandRunner.contents(directory) == ["still.png"], "nothing written under --strict")
    }
}
