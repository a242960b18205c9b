import Foundation
import PNGCodec
import Primitives
import Testing

/// `--reverse` gives the way back of a scene, `info` tells the clip phase by
/// phase as `render` writes it, and `help render` says what from and to are.
@Suite(.serialized) struct DirectionAndPhasesEndToEndTests {
    /// A list presenting a detail: a matched card that moves and grows, so
    /// that a swap of the screens or of the direction shows in the pixels.
    static func scene(direction: String, from: String, to: String, hold: String = "") -> String {
        """
        {
          "version": 1,
          "canvas": { "width": 40, "height": 30, "scale": 1, "background": "#000000" },
          "fps": 24,
          "transition": { "direction": "\(direction)", "baselineDuration": 0.2, "defaultAnimation": "fade"\(hold) },
          "from": \(from),
          "to": \(to)
        }
        """
    }

    static let list = """
        { "backgroundColor": "#FFFFFF", "subviews": [
            { "frame": [4, 10, 32, 8], "backgroundColor": "#FF0000", "shift": { "id": "card" } },
            { "frame": [4, 22, 10, 4], "backgroundColor": "#00FF00" } ] }
        """
    static let detail = """
        { "backgroundColor": "#202020", "subviews": [
            { "frame": [0, 0, 40, 16], "backgroundColor": "#0000FF", "shift": { "id": "card" } } ] }
        """

    func frames(_ arguments: [String], in dir: URL, _ name: String) throws -> [Bitmap] {
        let out = dir.appendingPathComponent(name)
        let result = try CommandRunner.run(CommandRunner.shiftrender, arguments + ["-o", out.path + "/"])
        #expect(result.status == 0, "\(result.stderr)")
        return try CommandRunner.contents(out).map { try PNGCodec.decode(fileAt: out.appendingPathComponent($0).path) }
    }

    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReversedPresentIsTheHandWrittenDismissWithTheScreensSwapped() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let present = try write(Self.scene(direction: "present", from: Self.list, to: Self.detail), "present.json", in: dir)
        let dismiss = try write(Self.scene(direction: "dismiss", from: Self.detail, to: Self.list), "dismiss.json", in: dir)
        let reversed = try frames([present, "--reverse"], in: dir, "reversed")
        let handWritten = try frames([dismiss], in: dir, "dismiss")
        #expect(reversed.count > 3)
        #expect(reversed == handWritten)
        // Not what --direction does: that keeps the screens, so the clip starts on the list.
        let directionOnly = try frames([present, "--direction", "dismiss"], in: dir, "direction")
        #expect(directionOnly != handWritten)
        // Reversing the hand-written dismiss gives the present back.
        #expect(try frames([dismiss, "--reverse"], in: dir, "twice") == (try frames([present], in: dir, "present")))
    }

    @Test func infoTellsThePhasesRenderWrites() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // At 24 fps: hold before 0.1 s = 2.4 -> 2 frames, pause 0.1 s -> 2, hold after 0.125 s = 3 frames exactly.
        let hold = ", \"hold\": { \"before\": 0.1, \"after\": 0.125 }, \"roundtripPause\": 0.1"
        let scene = try write(
            Self.scene(direction: "roundtrip", from: Self.list, to: Self.detail, hold: hold), "scene.json", in: dir)
        let json = try CommandRunner.shiftrender("info", scene, "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let phases = try #require(object?["phases"] as? [[String: Any]])
        let names = phases.compactMap { $0["name"] as? String }
        #expect(names == ["holdBefore", "present", "pause", "dismiss", "holdAfter"])
        let ranges = phases.compactMap { p in (p["firstFrame"] as? Int).flatMap { a in (p["lastFrame"] as? Int).map { a ... $0 } } }
        #expect(ranges.map(\.count) == phases.compactMap { $0["frameCount"] as? Int })
        #expect(ranges[0].count == 2 && ranges[2].count == 2 && ranges[4].count == 3)

        let frames = try frames([scene], in: dir, "frames")
        #expect(ranges.map(\.count).reduce(0, +) == frames.count)
        #expect(object?["frameCount"] as? Int == frames.count)
        #expect(ranges.first?.lowerBound == 0)
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(b.lowerBound == a.upperBound + 1) }
        // A still phase holds one picture: the motion's first (hold before) or the
        // last picture of the motion before it (pause, hold after).
        for (i, name) in names.enumerated() where !["present", "dismiss"].contains(name) {
            let held = name == "holdBefore" ? frames[ranges[1].lowerBound] : frames[ranges[i - 1].upperBound]
            for f in ranges[i] { #expect(frames[f] == held, "frame \(f) of \(name)") }
        }
        // A motion phase changes the picture from one frame to the next.
        for i in [1, 3] {
            for f in ranges[i].dropFirst() { #expect(frames[f] != frames[f - 1], "frame \(f) of \(names[i])") }
        }

        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.stdoutText.contains("hold before:  0-1  (2 frames, 0.100 s in the scene)"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("pause:"))
        #expect(text.stdoutText.contains("hold after:"))
    }

    @Test func helpRenderSaysWhatFromAndToAreAndHowToGoBack() throws {
        let help = try CommandRunner.shiftrender("help", "render")
        #expect(help.status == 0)
        let text = help.stdoutText.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("from and to are Shift's Animator arguments, whatever the direction"))
        #expect(text.contains("--reverse"))
        // The old example offered --direction dismiss as the way back, which keeps the screens.
        #expect(!help.stdoutText.contains("back.mp4 --direction dismiss"))
        #expect(help.stdoutText.contains("back.mp4 --reverse"))
    }
}
