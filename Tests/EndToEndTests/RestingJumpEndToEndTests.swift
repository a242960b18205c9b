import Foundation
import Testing

/// `validate` and `render` name the views where the picture jumps between the
/// screen at rest and Shift's snapshots (docs/scene-format.md, "Screens at rest").
@Suite struct RestingJumpEndToEndTests {
    /// The trial's repro: a close button placed after a hero photo, both inside a matched card.
    static let closeButtonScene = """
        {
          "version": 1,
          "canvas": { "width": 200, "height": 300, "scale": 1, "background": "#E6E6E6" },
          "fps": 30,
          "transition": { "direction": "present", "defaultAnimation": "none" },
          "from": { "backgroundColor": "#E6E6E6", "subviews": [
            { "frame": [20, 100, 160, 120], "backgroundColor": "#FFFFFF", "shift": { "id": "card" }, "subviews": [
              { "frame": [0, 0, 160, 80], "backgroundColor": "#0000FF", "shift": { "id": "photo" } } ] } ] },
          "to": { "backgroundColor": "#E6E6E6", "subviews": [
            { "frame": [0, 0, 200, 300], "backgroundColor": "#FFFFFF", "shift": { "id": "card" }, "subviews": [
              { "frame": [0, 0, 200, 160], "backgroundColor": "#0000FF", "shift": { "id": "photo" } },
              { "frame": [160, 10, 30, 30], "backgroundColor": "#FF0000" } ] } ] }
        }
        """

    @Test func validateAndRenderNameTheViewWhereThePictureJumps() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("card.json").path
        try Self.closeButtonScene.write(toFile: scene, atomically: true, encoding: .utf8)
        let warning = "to.subviews[0].subviews[1]: the screen at rest and Shift's snapshots draw this differently, "
            + "so the picture jumps here as the transition ends"

        let validated = try CommandRunner.shiftrender("validate", scene)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stderr.contains(warning), "\(validated.stderr)")
        #expect(validated.stderr.components(separatedBy: "jumps here").count == 2, "one view named: \(validated.stderr)")

        let still = dir.appendingPathComponent("last.png").path
        let rendered = try CommandRunner.shiftrender(scene, "-o", still, "--progress", "1")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.stderr.contains(warning), "\(rendered.stderr)")

        let quiet = try CommandRunner.shiftrender("validate", scene, "--quiet")
        #expect(quiet.status == 0 && !quiet.stderr.contains("jumps here"), "\(quiet.stderr)")
        let strict = try CommandRunner.shiftrender("validate", scene, "--strict")
        #expect(strict.status == 1 && strict.stderr.contains("error: ") && strict.stderr.contains("jumps here"), "\(strict.stderr)")
    }
}
