import Foundation
import PNGCodec
import Testing

@Suite(.serialized) struct PlanAndInfoEndToEndTests {
    var example: String { CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path }

    @Test func infoListsPairsAnimationsDurationsAndFrames() throws {
        let text = try CommandRunner.shiftrender("info", example)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText.contains("34 frames"))
        #expect(text.stdoutText.contains("\"title\": from.subviews[1].subviews[1] -> to.subviews[2]  0.537 s"))
        #expect(text.stdoutText.contains("to.subviews[5] (play button)  0.456 s, standard, in container, fade, move(x: 0, y: 160)"))

        let json = try CommandRunner.shiftrender("info", example, "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["frameCount"] as? Int == 34)
        let segments = try #require(object["segments"] as? [[String: Any]])
        let views = try #require(segments.first?["views"] as? [[String: Any]])
        let ids = views.compactMap { $0["matchedWith"] != nil ? $0["id"] as? String : nil }
        #expect(Set(ids) == ["card", "poster", "title"])
        // Title: 0.4 + 0.175 * 392.4 / 500 s, its centre moving from (238, 174) to (195, 564).
        let title = try #require(views.first { $0["id"] as? String == "title" })
        let dx: Double = 195 - 238
        let dy: Double = 564 - 174
        let distance = (dx * dx + dy * dy).squareRoot()
        #expect(abs((title["duration"] as? Double ?? 0) - (0.4 + 0.175 * distance / 500)) < 1e-9)
    }

    /// The cascade feature scene: five rows 0.06 s apart on `deceleration`, 0.35 s each (the transition's
    /// defaults), so the segment lasts 4 x 0.06 + 0.35 = 0.59 s: ceil(0.59 x 30) + 1 = 19 frames.
    @Test func infoShowsEachViewsDelayDurationAndCurve() throws {
        let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/features/timing-cascade.json").path
        let text = try CommandRunner.shiftrender("info", scene)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText.contains("present: 0.590 s (until its last view ends)"))
        #expect(text.stdoutText.contains("to.subviews[0].subviews[0] (row 0)  0.350 s, deceleration, in to, fade"))
        #expect(text.stdoutText.contains("to.subviews[0].subviews[4] (row 4)  0.350 s from 0.240 s, deceleration, in to, fade"))
        let json = try CommandRunner.shiftrender("info", scene, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["frameCount"] as? Int == 19)
        let segment = try #require((object["segments"] as? [[String: Any]])?.first)
        #expect(abs((segment["duration"] as? Double ?? 0) - 0.59) < 1e-12)
        let rows = try #require(segment["views"] as? [[String: Any]]).filter { ($0["name"] as? String)?.hasPrefix("row") == true }
        #expect(rows.count == 5)
        for (i, row) in rows.enumerated() {
            #expect(abs((row["delay"] as? Double ?? -1) - 0.06 * Double(i)) < 1e-12)
            #expect(row["duration"] as? Double == 0.35 && row["curve"] as? String == "deceleration")
        }
        // A spring without a duration: its settling time, named as the scene spells it.
        let spring = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/features/timing-spring.json").path
        let springText = try CommandRunner.shiftrender("info", spring)
        #expect(springText.stdoutText.contains("(ball)  1.212 s, spring(response: 0.5, dampingFraction: 0.45)"))
    }

    @Test func planWritesEveryFramesDisplayListAndTheBitmapsItSamples() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("plan")
        let result = try CommandRunner.shiftrender("plan", example, "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: out.appendingPathComponent("plan.json"))
        let plan = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(plan["format"] as? String == "shiftrender-frame-plan")
        let frames = try #require(plan["frames"] as? [[String: Any]])
        #expect(frames.count == 34)
        #expect(frames.map { $0["index"] as? Int } == Array(0 ..< 34))
        let snapshots = try #require(plan["snapshots"] as? [[String: Any]])
        for snapshot in snapshots {
            let file = out.appendingPathComponent(snapshot["file"] as? String ?? "").path
            let bitmap = try PNGCodec.decode(fileAt: file)
            #expect(bitmap.width == snapshot["width"] as? Int)
            #expect(bitmap.height == snapshot["height"] as? Int)
        }
        let images = try #require(plan["images"] as? [[String: Any]])
        #expect(images.count == 9)  // the poster, the star and the example's seven labels' drawn text
        // Every bitmap an item samples exists in the plan.
        for frame in frames {
            for item in frame["items"] as? [[String: Any]] ?? [] {
                let paint = item["paint"] as? [String: Any] ?? [:]
                if let i = paint["snapshot"] as? Int { #expect(i < snapshots.count) }
                if let i = paint["image"] as? Int { #expect(i < images.count) }
            }
        }
        // Deterministic: a second run writes the same bytes.
        let again = dir.appendingPathComponent("again")
        _ = try CommandRunner.shiftrender("plan", example, "-o", again.path)
        #expect(try Data(contentsOf: again.appendingPathComponent("plan.json")) == data)
        // A non-empty target is refused unless --overwrite (and then only an earlier plan).
        let refused = try CommandRunner.shiftrender("plan", example, "-o", out.path)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("--overwrite"))
        #expect(try CommandRunner.shiftrender("plan", example, "-o", out.path, "--overwrite").status == 0)
        #expect(Set(CommandRunner.contents(dir)) == ["plan", "again"])
    }

    /// The attack that deleted a whole folder: any plan.json in it made --overwrite replace it all.
    @Test func planOverwriteReplacesOnlyAnEarlierPlansFiles() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = dir.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: p.appendingPathComponent("src"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: p.appendingPathComponent("images"), withIntermediateDirectories: true)
        try "{}".write(to: p.appendingPathComponent("plan.json"), atomically: true, encoding: .utf8)
        try "x".write(to: p.appendingPathComponent("important.txt"), atomically: true, encoding: .utf8)
        try "code".write(to: p.appendingPathComponent("src/main.swift"), atomically: true, encoding: .utf8)
        // Files an earlier, larger plan would have written, and one it would not.
        try "stale".write(to: p.appendingPathComponent("images/image_0012.png"), atomically: true, encoding: .utf8)
        try "mine".write(to: p.appendingPathComponent("images/logo.png"), atomically: true, encoding: .utf8)

        let refused = try CommandRunner.shiftrender("plan", example, "-o", p.path + "/")
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("already holds 1 of the plan files this output writes (plan.json)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--overwrite"))

        let result = try CommandRunner.shiftrender("plan", example, "-o", p.path + "/", "--overwrite")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: p.appendingPathComponent("important.txt"), encoding: .utf8) == "x")
        #expect(try String(contentsOf: p.appendingPathComponent("src/main.swift"), encoding: .utf8) == "code")
        #expect(CommandRunner.contents(p) == ["images", "important.txt", "plan.json", "snapshots", "src"])
        #expect(CommandRunner.contents(p.appendingPathComponent("images")) == (0 ..< 9).map { "image_000\($0).png" } + ["logo.png"])
        let plan = try JSONSerialization.jsonObject(with: Data(contentsOf: p.appendingPathComponent("plan.json"))) as? [String: Any]
        #expect((plan?["frames"] as? [Any])?.count == 34)
        for snapshot in plan?["snapshots"] as? [[String: Any]] ?? [] {
            #expect(FileManager.default.fileExists(atPath: p.appendingPathComponent(snapshot["file"] as? String ?? "-").path))
        }
    }

    @Test func planIntoAFolderOfOtherFilesNeedsNoOverwrite() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "notes".write(to: dir.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.shiftrender("plan", example, "-o", dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(CommandRunner.contents(dir) == ["images", "notes.md", "plan.json", "snapshots"])
    }

    @Test func planNeverWritesOverItsOwnScene() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("plan.json")
        try redToBlueScene.write(to: scene, atomically: true, encoding: .utf8)
        let result = try CommandRunner.shiftrender("plan", scene.path, "-o", dir.path, "--overwrite")
        #expect(result.status == 3)
        #expect(
            result.stderr.contains("'\(dir.path)/plan.json' is an input of this render; refusing to write over it"),
            "\(result.stderr)")
        #expect(try String(contentsOf: scene, encoding: .utf8) == redToBlueScene)
        #expect(CommandRunner.contents(dir) == ["plan.json"])
    }

    @Test func planOfAnInvalidSceneWritesNothing() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("bad.json")
        try "{\"version\": 1, \"canvas\": {\"width\": -4, \"height\": 10}, \"from\": {}, \"to\": {}}".write(
            to: scene, atomically: true, encoding: .utf8)
        let result = try CommandRunner.shiftrender("plan", scene.path, "-o", dir.appendingPathComponent("plan").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("canvas.width: -4 is out of range"))
        #expect(CommandRunner.contents(dir) == ["bad.json"])
    }
}

/// Outputs named relative to the working directory, one component deep: the
/// check made before the scene loads trapped on them once.
@Suite struct RelativeOutputEndToEndTests {
    @Test(arguments: [
        ["plan", "SCENE", "-o", "p/"], ["SCENE", "-o", "x.mp4"], ["SCENE", "-o", "frames/"],
        ["SCENE", "-o", "still.png", "--frame", "3"], ["SCENE", "--sheet", "sheet.png"],
    ])
    func relativeOutputs(arguments: [String]) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path
        let command = ([CommandRunner.shiftrender] + arguments.map { $0 == "SCENE" ? scene : $0 })
            .map { "'\($0)'" }.joined(separator: " ")
        let result = try CommandRunner.run("/bin/sh", ["-c", "cd '\(dir.path)' && " + command])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(CommandRunner.contents(dir).count == 1, "\(CommandRunner.contents(dir))")
    }
}
