import Foundation
import Testing

/// `info --memory` prints the estimate a render is checked against before any
/// work; these run the real binary and check its figures against each other
/// and against what `render` then does with the same limit.
@Suite(.serialized) struct MemoryEndToEndTests {
    var example: String { CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path }

    /// `info --memory --json` for `arguments`: the limit and each output's total and parts.
    func report(_ arguments: String...) throws -> (limit: Double, outputs: [String: (bytes: Double, parts: [String: Double])]) {
        let result = try CommandRunner.run(CommandRunner.shiftrender, ["info", example, "--memory", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let limit = try #require(object["limitBytes"] as? Double)
        var outputs: [String: (bytes: Double, parts: [String: Double])] = [:]
        for row in try #require(object["outputs"] as? [[String: Any]]) {
            let name = try #require(row["output"] as? String)
            outputs[name] = (try #require(row["bytes"] as? Double), try #require(row["parts"] as? [String: Double]))
        }
        return (limit, outputs)
    }

    @Test func jsonListsEveryOutputWithPartsThatAddUp() throws {
        let (limit, outputs) = try report("--memory-limit", "1G")
        #expect(limit == 1e9)
        #expect(Set(outputs.keys) == ["still", "sheet", "png", "gif", "mp4", "webm", "mov"])
        for (name, row) in outputs {
            #expect(abs(row.parts.values.reduce(0, +) - row.bytes) <= 1, "\(name)")
            // Every output holds the program and the frame the compositor draws.
            #expect(row.parts["program"] ?? 0 > 0, "\(name)")
            #expect(row.bytes > outputs["still"]!.bytes || name == "still", "\(name): a still is the least there is")
        }
        #expect(outputs["mp4"]?.parts["x264"] ?? 0 > 0)
        #expect(outputs["webm"]?.parts["VP9"] ?? 0 > 0)
    }

    @Test func theMP4RowGrowsWithTheCanvasAndThePreset() throws {
        let small = try report("--scale", "1")
        let large = try report("--scale", "3")
        let frame = try #require(small.outputs["still"]?.parts["frame"])
        // 390 x 844 at scale 1; both the drawn frame and the copy PNG writing uses.
        #expect(frame == 2 * 390 * 844 * 4)
        #expect(large.outputs["still"]?.parts["frame"] == 9 * frame)
        let x264 = try #require(small.outputs["mp4"]?.parts["x264"])
        let x264Large = try #require(large.outputs["mp4"]?.parts["x264"])
        // A fixed part (tables, stacks) and a part a pixel: nine times the pixels, between 1x and 9x.
        #expect(x264Large > 3 * x264 && x264Large < 9 * x264)
        #expect(try #require(large.outputs["mp4"]?.bytes) > 2 * (try #require(small.outputs["mp4"]?.bytes)))

        let ultrafast = try #require(try report("--preset", "ultrafast").outputs["mp4"]?.bytes)
        let veryslow = try #require(try report("--preset", "veryslow").outputs["mp4"]?.bytes)
        #expect(ultrafast < small.outputs["mp4"]!.bytes && small.outputs["mp4"]!.bytes < veryslow)
    }

    @Test func textNamesTheLimitAndMarksWhatIsOver() throws {
        let chosen = try CommandRunner.shiftrender("info", example, "--memory", "--memory-limit", "1G")
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdoutText.hasPrefix("Peak memory, estimated before any work (limit 1.0 GB):"), "\(chosen.stdoutText)")
        for label in ["still (.png)", "--sheet", "PNG frames (dir/)", ".gif", ".mp4", ".webm", ".mov"] {
            #expect(chosen.stdoutText.contains("  " + label), "\(label)")
        }
        #expect(!chosen.stdoutText.contains("over the limit"))

        let byDefault = try CommandRunner.shiftrender("info", example, "--memory")
        #expect(byDefault.stdoutText.contains(", half of this machine's memory):"), "\(byDefault.stdoutText)")

        let tight = try CommandRunner.shiftrender("info", example, "--memory", "--memory-limit", "100M")
        let mp4 = try #require(tight.stdoutText.split(separator: "\n").first { $0.hasPrefix("  .mp4") })
        #expect(mp4.hasSuffix("over the limit"), "\(mp4)")

        let bad = try CommandRunner.shiftrender("info", example, "--memory", "--memory-limit", "lots")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--memory-limit must be a size such as 8G"), "\(bad.stderr)")
    }

    /// The figures are the ones `render` checks: a limit between the still's and
    /// the MP4's estimate lets the still through and refuses the MP4 up front.
    @Test func renderChecksTheSameFigures() throws {
        let (_, outputs) = try report()
        let still = try #require(outputs["still"]?.bytes)
        let mp4 = try #require(outputs["mp4"]?.bytes)
        #expect(still < mp4)
        let limit = String(Int((still + mp4) / 2))
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let png = try CommandRunner.shiftrender(
            "render", example, "--frame", "5", "--memory-limit", limit,
            "-o", directory.appendingPathComponent("still.png").path)
        #expect(png.status == 0, "\(png.stderr)")
        let clip = try CommandRunner.shiftrender(
            "render", example, "--memory-limit", limit,
            "-o", directory.appendingPathComponent("clip.mp4").path)
        #expect(clip.status == 2)
        #expect(clip.stderr.contains("this render needs about \(String(format: "%.0f MB", mp4 / 1e6))"), "\(clip.stderr)")
        #expect(clip.stderr.contains("--memory-limit"))
        #expect(CommandRunner.contents(directory) == ["still.png"])
    }

    /// 3-D planes are counted (`LayerMemory`): a view turned in perspective is drawn flat into a texture with its
    /// levels, every frame. A limit between the estimate without them and with them refuses the render up front.
    @Test func threeDPlanesAreCountedAndChecked() throws {
        let cube = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/bench-depth-cube-1080p.json").path
        let result = try CommandRunner.run(CommandRunner.shiftrender, ["info", cube, "--memory", "--json", "--threads", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let rows = try #require(object["outputs"] as? [[String: Any]])
        let still = try #require(rows.first { $0["output"] as? String == "still" })
        let total = try #require(still["bytes"] as? Double)
        let planes = try #require((still["parts"] as? [String: Double])?["3-D layers"])
        // Both roots, 1920 x 1080 px each at most, with their levels: well over a frame.
        #expect(planes > 2 * 1920 * 1080 * 4, "\(planes)")
        // A video's frames are drawn in sequence, the next one prepared while one is drawn: its layers count too.
        let mp4 = try #require(rows.first { $0["output"] as? String == "mp4" }?["parts"] as? [String: Double])
        #expect(mp4["3-D layers"] == planes && (mp4["3-D layers, next frame"] ?? 0) > 0, "\(mp4)")
        #expect(still["parts"].flatMap { ($0 as? [String: Double])?["3-D layers, next frame"] } == nil)
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try CommandRunner.shiftrender(
            "render", cube, "--frame", "30", "--threads", "2", "--memory-limit", String(Int(total - planes / 2)),
            "-o", directory.appendingPathComponent("still.png").path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("3-D layers") && refused.stderr.contains("--memory-limit"), "\(refused.stderr)")
        #expect(CommandRunner.contents(directory).isEmpty)
    }

    /// Images are budgeted from their headers before any is decoded: exit 2, naming the files, views and the knob.
    @Test func imagesOverTheLimitAreRefusedBeforeDecoding() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let poster = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/images/poster.png").path
        var views: [String] = []
        for i in 0 ..< 40 {
            try FileManager.default.copyItem(atPath: poster, toPath: directory.appendingPathComponent("poster\(i).png").path)
            views.append(#"{"frame": [0, 0, 50, 50], "image": "poster\#(i).png"}"#)
        }
        let scene = directory.appendingPathComponent("posters.json")
        try Data((#"{"version": 1, "canvas": {"width": 100, "height": 100}, "from": {"subviews": ["#
            + views.joined(separator: ", ") + #"]}, "to": {}}"#).utf8).write(to: scene)
        let refused = try CommandRunner.shiftrender(
            "render", scene.path, "--frame", "0", "--memory-limit", "70M", "-o", directory.appendingPathComponent("still.png").path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the scene's images need about"), "\(refused.stderr)")
        #expect(refused.stderr.contains("(40 different images"), "\(refused.stderr)")
        #expect(refused.stderr.contains(#""poster0.png": "#) && refused.stderr.contains("at from.subviews[0].image"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--memory-limit"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("still.png").path))
    }
}
