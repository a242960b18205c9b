import Foundation
import Testing

/// README's recipe for rendering in parts with GNU parallel, run as written
/// (from README itself, so the two cannot drift), then checked: the joined
/// video holds every frame once, and its packets are exactly the parts'.
@Suite struct SplitRenderEndToEndTests {
    /// The shell block after the `split-render-recipe` marker in README.md.
    static func recipe() throws -> String {
        let readme = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let marker = readme.range(of: "<!-- split-render-recipe -->"),
            let open = readme.range(of: "```sh\n", range: marker.upperBound ..< readme.endIndex),
            let close = readme.range(of: "```", range: open.upperBound ..< readme.endIndex)
        else {
            throw RecipeMissing()
        }
        return String(readme[open.upperBound ..< close.lowerBound])
    }

    struct RecipeMissing: Error {}

    /// A card that moves and grows across the screen, long enough for eight parts.
    static let scene = """
        {"version": 1, "canvas": {"width": 160, "height": 120}, "fps": 30,
         "transition": {"defaultAnimation": "none", "baselineDuration": 1},
         "from": {"backgroundColor": "#FFFFFF", "subviews": [
           {"frame": [10, 10, 40, 30], "backgroundColor": "#E53935", "cornerRadius": 6, "shift": {"id": "card"}}]},
         "to": {"backgroundColor": "#FFFFFF", "subviews": [
           {"frame": [60, 50, 90, 60], "backgroundColor": "#1E88E5", "cornerRadius": 12, "shift": {"id": "card"}}]}}
        """

    @Test("README's GNU parallel recipe renders parts that join into the whole clip (scripts/install-deps.sh installs parallel)")
    func gnuParallelRecipe() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.scene.write(to: dir.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        // `shiftrender` on the PATH is the one just built.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin.appendingPathComponent("shiftrender").path,
            withDestinationPath: CommandRunner.shiftrender)
        let script = "set -e\ncd '\(dir.path)'\nexport PATH='\(bin.path)':\"$PATH\"\n" + (try Self.recipe())
        let run = try CommandRunner.run("/bin/sh", ["-c", script])
        #expect(run.status == 0, "\(run.stderr)")

        let parts = CommandRunner.contents(dir.appendingPathComponent("parts")).map { dir.appendingPathComponent("parts/" + $0).path }
        #expect(parts.count == 8)
        let info = try CommandRunner.shiftrender("info", dir.appendingPathComponent("scene.json").path, "--json")
        let frameCount = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])["frameCount"] as? Int
        let clip = dir.appendingPathComponent("clip.mp4").path
        let frames = try CommandRunner.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_frames", "-show_entries",
                "stream=nb_read_frames", "-of", "csv=p=0", clip,
            ])
        #expect(Int(frames.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) == frameCount)
        // Stream copy: the joined packets are the parts' packets, in order.
        #expect(try Self.packetHashes(clip) == parts.flatMap { try Self.packetHashes($0) })
        #expect(try Self.packetHashes(clip).count == frameCount)
    }

    /// The MD5 of every video packet's payload (ffmpeg's framemd5 of a stream copy).
    static func packetHashes(_ path: String) throws -> [String] {
        let result = try CommandRunner.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-i", path, "-map", "0:v", "-c", "copy",
                "-f", "framemd5", "-",
            ])
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
