import Foundation
import PNGCodec
import Primitives
import Testing

/// The command line on a transition a scripted finger drives
/// (`transition.interaction`): `info` tells the decision, the rule's numbers
/// and the drag and completion frames; `render` writes every frame, and a
/// cancelled drag ends on its first picture; `--progress` is a still of the
/// transition itself; a gesture that leaves 0...1 progress is a warning
/// with its place, which `--strict` makes an error.
@Suite struct InteractionEndToEndTests {
    /// 200 x 100 pt at 10 fps. Every view lasts T = 1 s on a linear curve (the transition's own duration
    /// and curve): the blue `to` screen fades in over the red `from` (the default animation), and the
    /// green box (id "box", 40 x 40 pt) moves from x = 0 to x = 160. At progress p the box's left edge is
    /// at 160 p and the background is red x (1 - p) + blue x p.
    static func scene(_ interaction: String) -> String {
        """
        {"version": 1, "canvas": {"width": 200, "height": 100}, "fps": 10,
         "transition": {"duration": 1, "curve": "linear",
                        "interaction": \(interaction)},
         "from": {"backgroundColor": "#FF0000",
                  "subviews": [{"frame": [0, 60, 40, 40], "backgroundColor": "#00FF00", "shift": {"id": "box"}}]},
         "to": {"backgroundColor": "#0000FF",
                "subviews": [{"frame": [160, 60, 40, 40], "backgroundColor": "#00FF00", "shift": {"id": "box"}}]}}
        """
    }

    /// The finger moves 60 pt in 0.5 s and lets go: p = 60 / 200 = 0.3 at release, and the last
    /// segment's slope is 60 / 0.5 = 120 pt/s. EasyTransitions: (0.3 > 0.5: no, or 120 > 100: yes) and
    /// 120 > -5: finish, at speed 1, over (1 - 0.3) x 1 s = 0.7 s. Frames: ceil((0.5 + 0.7) x 10) + 1 = 13;
    /// the drag is floor(0.5 x 10) + 1 = 6 of them (0-5), the finish 6-12.
    static let finishing = scene(#"{"gesture": [[0, 0], [0.5, 60]]}"#)
    /// The same drag released at -50 pt/s: (0.3 > 0.5: no, or -50 > 100: no): cancel, over 0.3 x 1 s:
    /// ceil((0.5 + 0.3) x 10) + 1 = 9 frames, the drag 0-5 and the cancel 6-8.
    static let cancelling = scene(#"{"gesture": [[0, 0], [0.5, 60]], "releaseVelocity": -50}"#)

    func write(_ text: String, in directory: URL, as name: String = "scene.json") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func infoJSON(_ scene: String) throws -> [String: Any] {
        let result = try CommandRunner.shiftrender("info", scene, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    /// Each phase as "name first-last (count)".
    func phases(_ object: [String: Any]) -> [String] {
        ((object["phases"] as? [[String: Any]]) ?? []).map { phase in
            let number = { (key: String) in phase[key] as? Int ?? -1 }
            return "\(phase["name"] as? String ?? "?") \(number("firstFrame"))-\(number("lastFrame")) (\(number("frameCount")))"
        }
    }

    // MARK: info

    /// A finger that touches at 0 pt and lets go at once: p = 0 and v = 0 (one point, no segment), so
    /// EasyTransitions cancels over 0 x T = 0 s: one frame, the cancel's end, and no drag frame.
    @Test func aTouchWithoutMovementIsOneCancelledFrame() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.scene(#"{"gesture": [[0, 0]]}"#), in: dir)
        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.status == 0, "\(text.stderr)")
        for line in ["200 x 100 px, 10.0 fps, 1 frame (0.100 s)", "  cancel:  0-0  (1 frame)", "  drag: no frames; cancel: frames 0-0"] {
            #expect(text.stdoutText.contains(line), "missing \(line) in:\n\(text.stdoutText)")
        }
    }

    @Test func infoTellsTheDecisionTheRulesNumbersAndTheFrames() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.finishing, in: dir)
        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.status == 0, "\(text.stderr)")
        for line in [
            "200 x 100 px, 10.0 fps, 13 frames (1.300 s)",
            "  drag:    0-5  (6 frames)",
            "  finish:  6-12  (7 frames)",
            "interaction (easyTransitions): released at 0.500 s, p 0.300, v 120.0 pt/s (last gesture segment)",
            "  decision: finish, by (p 0.3 > 0.5: no, or v 120 pt/s > 100: yes) and v > -5: yes",
            "  drag: frames 0-5; finish: frames 6-12, 0.700 s at speed 1.000",
        ] {
            #expect(text.stdoutText.split(separator: "\n").contains(Substring(line)), "no line \"\(line)\" in\n\(text.stdoutText)")
        }

        let object = try infoJSON(scene)
        #expect(object["frameCount"] as? Int == 13)
        #expect(phases(object) == ["drag 0-5 (6)", "finish 6-12 (7)"])
        let interaction = try #require(object["interaction"] as? [String: Any])
        #expect(interaction["rule"] as? String == "easyTransitions")
        #expect(interaction["decision"] as? String == "finish")
        #expect(interaction["velocitySource"] as? String == "last gesture segment")
        #expect(interaction["extent"] as? Double == 200)
        #expect(interaction["releaseTime"] as? Double == 0.5)
        #expect(interaction["releaseVelocity"] as? Double == 120)
        #expect(interaction["completionSpeed"] as? Double == 1)
        #expect(abs((interaction["releaseProgress"] as? Double ?? -1) - 0.3) < 1e-12)
        #expect(abs((interaction["completionSeconds"] as? Double ?? -1) - 0.7) < 1e-12)
        #expect(interaction["reason"] as? String == "(p 0.3 > 0.5: no, or v 120 pt/s > 100: yes) and v > -5: yes")
    }

    @Test func infoOnACancelledDragNamesTheCancelPhase() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.cancelling, in: dir)
        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText.contains("interaction (easyTransitions): released at 0.500 s, p 0.300, v -50.0 pt/s (given)\n"))
        #expect(text.stdoutText.contains("  decision: cancel, by (p 0.3 > 0.5: no, or v -50 pt/s > 100: no) and v > -5: no\n"))
        #expect(text.stdoutText.contains("  drag: frames 0-5; cancel: frames 6-8, 0.300 s at speed 1.000\n"))
        let object = try infoJSON(scene)
        #expect(object["frameCount"] as? Int == 9)
        #expect(phases(object) == ["drag 0-5 (6)", "cancel 6-8 (3)"])
        let interaction = try #require(object["interaction"] as? [String: Any])
        #expect(interaction["decision"] as? String == "cancel")
        #expect(interaction["velocitySource"] as? String == "given")
        #expect(abs((interaction["completionSeconds"] as? Double ?? -1) - 0.3) < 1e-12)
    }

    /// navigationTransitions flicked at 1000 pt/s: 1000 > 675 finishes, at speed min(max(0.99, 1000 / 800),
    /// 2.25) = 1.25, so the finish takes 0.7 / 1.25 = 0.56 s: ceil((0.5 + 0.56) x 10) + 1 = 12 frames.
    @Test func infoShowsARulesCompletionSpeed() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(
            Self.scene(#"{"gesture": [[0, 0], [0.5, 60]], "releaseVelocity": 1000, "rule": "navigationTransitions"}"#), in: dir)
        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdoutText.contains(
                "  decision: finish, by v 1000 pt/s > 675: yes, or (p 0.3 >= 0.2: yes and v > -200: yes); "
                    + "completion speed min(max(0.99, v / 800), 2.25) = 1.25\n"))
        #expect(text.stdoutText.contains("  drag: frames 0-5; finish: frames 6-11, 0.560 s at speed 1.250\n"))
        let object = try infoJSON(scene)
        #expect(phases(object) == ["drag 0-5 (6)", "finish 6-11 (6)"])
        let interaction = try #require(object["interaction"] as? [String: Any])
        #expect(interaction["rule"] as? String == "navigationTransitions")
        #expect(interaction["completionSpeed"] as? Double == 1.25)
        #expect(abs((interaction["completionSeconds"] as? Double ?? -1) - 0.56) < 1e-12)
    }

    // MARK: render

    func decodedFrames(_ directory: URL) throws -> [Bitmap] {
        try CommandRunner.contents(directory).map { try PNGCodec.decode(fileAt: directory.appendingPathComponent($0).path) }
    }

    func isGreen(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Bool {
        let p = bitmap.pixel(x: x, y: y)
        return p.r == 0 && p.g == 255 && p.b == 0
    }

    @Test func renderWritesTheDragAndTheCompletionAndACancelEndsOnTheFirstPicture() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cancel = try write(Self.cancelling, in: dir, as: "cancel.json")
        let cancelFrames = dir.appendingPathComponent("cancel")
        let cancelled = try CommandRunner.shiftrender(cancel, "-o", cancelFrames.path + "/")
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        let back = try decodedFrames(cancelFrames)
        #expect(back.count == 9)
        #expect(back.last?.pixels == back.first?.pixels, "a cancelled drag ends on the first frame's picture")
        // Frame 5, the release: w = 0.5 s, p = 0.3, the box's left edge at 160 x 0.3 = 48 pt, so it spans 48..<88.
        let release = try #require(back.count == 9 ? back[5] : nil)
        #expect(isGreen(release, 48, 80) && isGreen(release, 87, 80))
        #expect(!isGreen(release, 47, 80) && !isGreen(release, 88, 80))

        let finish = try write(Self.finishing, in: dir, as: "finish.json")
        let finishFrames = dir.appendingPathComponent("finish")
        let finished = try CommandRunner.shiftrender(finish, "-o", finishFrames.path + "/")
        #expect(finished.status == 0, "\(finished.stderr)")
        let forward = try decodedFrames(finishFrames)
        #expect(forward.count == 13)
        // The drag's frames are the same pictures whatever the decision after it.
        #expect(forward.prefix(6).map(\.pixels) == back.prefix(6).map(\.pixels))
        // The last frame is the `to` screen at rest: blue, the box at 160..<200.
        let end = try #require(forward.last)
        #expect(end.pixel(x: 10, y: 10) == (0, 0, 255, 255))
        #expect(isGreen(end, 160, 80) && isGreen(end, 199, 80) && !isGreen(end, 159, 80))
    }

    /// `--progress P` is the transition at P x T, whatever the finger does: at 0.4 the box spans
    /// 64..<104 pt and the background is 0.6 red + 0.4 blue = (153, 0, 102).
    @Test func progressStillOfAnInteractiveSceneIsTheTransitionAtThatProgress() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var stills: [Bitmap] = []
        for (name, text) in [("finish.json", Self.finishing), ("cancel.json", Self.cancelling)] {
            let scene = try write(text, in: dir, as: name)
            let still = dir.appendingPathComponent(name + ".png").path
            let result = try CommandRunner.shiftrender(scene, "--progress", "0.4", "-o", still)
            #expect(result.status == 0, "\(result.stderr)")
            let bitmap = try PNGCodec.decode(fileAt: still)
            #expect(bitmap.width == 200 && bitmap.height == 100)
            #expect(bitmap.pixel(x: 10, y: 10) == (153, 0, 102, 255))
            #expect(isGreen(bitmap, 64, 80) && isGreen(bitmap, 103, 80))
            #expect(!isGreen(bitmap, 63, 80) && !isGreen(bitmap, 104, 80))
            stills.append(bitmap)
        }
        #expect(stills.count == 2 && stills[0].pixels == stills[1].pixels)
    }

    // MARK: validate and warnings

    @Test(arguments: [
        #"{"gesture": [[0, 0]]}"#,
        #"{"axis": "-x", "gesture": [[0, 0], [0.2, -150]], "rule": "liquid"}"#,
        #"{"axis": "y", "gesture": [[0, 0], [0.2, 50]], "releaseVelocity": 0, "rule": "navigationTransitions"}"#,
        #"{"axis": "-y", "gesture": [[0, 0], [0.2, -50]], "rule": {"threshold": 0.5}}"#,
        #"{"gesture": [[0, 0], [0.2, 50]], "rule": {"threshold": 0.25, "velocity": 0}}"#,
    ])
    func validateAcceptsEveryFormQuietly(interaction: String) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.shiftrender("validate", try write(Self.scene(interaction), in: dir))
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    /// The finger goes 30 pt back (progress -0.15) and then 250 pt on (1.25) of the 200-pt width. Line 3
    /// of the scene holds the interaction from column 32: "{\"gesture\": [[0, 0], [0.2, " puts -30 at
    /// column 59 and "-30], [0.5, " puts 250 at column 71.
    static let overshooting = scene(#"{"gesture": [[0, 0], [0.2, -30], [0.5, 250]]}"#)
    static let warnings = [
        "transition.interaction.gesture[1][1]: translation -30 pt is progress -0.15 of the 200-pt canvas width (axis x): "
            + "the transition holds at 0 there (line 3, column 59)",
        "transition.interaction.gesture[2][1]: translation 250 pt is progress 1.25 of the 200-pt canvas width (axis x): "
            + "the transition holds at 1 there (line 3, column 71)",
    ]

    @Test func aGestureLeavingZeroToOneProgressWarnsWithItsPlaceAndStillRenders() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.overshooting, in: dir)
        let validate = try CommandRunner.shiftrender("validate", scene)
        #expect(validate.status == 0)
        #expect(validate.stderr == Self.warnings.map { "shiftrender: warning: \(scene): \($0)\n" }.joined())

        let still = dir.appendingPathComponent("still.png").path
        let rendered = try CommandRunner.shiftrender(scene, "-o", still, "--frame", "2")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        for warning in Self.warnings {
            #expect(rendered.stderr.components(separatedBy: "shiftrender: warning: \(scene): \(warning)\n").count == 2, "once each")
        }
        // Frame 2 (w = 0.2 s) is where the finger is 30 pt back: progress held at 0, the first picture.
        let first = dir.appendingPathComponent("first.png").path
        #expect(try CommandRunner.shiftrender(scene, "-o", first, "--frame", "0", "--quiet").status == 0)
        #expect(try PNGCodec.decode(fileAt: still).pixels == PNGCodec.decode(fileAt: first).pixels)

        let strict = try CommandRunner.shiftrender(scene, "-o", dir.appendingPathComponent("strict.mp4").path, "--strict")
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("shiftrender: error: \(scene): \(Self.warnings[0])\n"))
        #expect(strict.stderr.contains("shiftrender: error: \(scene): \(Self.warnings[1])\n"))
        #expect(CommandRunner.contents(dir) == ["first.png", "scene.json", "still.png"], "nothing written under --strict")
        #expect(try CommandRunner.shiftrender("validate", "--strict", scene).status == 1)
    }
}
