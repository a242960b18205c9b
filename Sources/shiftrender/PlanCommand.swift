import ArgumentParser
import Compositor
import FramePlan
import Foundation
import PNGCodec
import Primitives
import ShiftRender

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Write the frame plan: every frame's display list (plan.json) and the bitmaps it samples (PNG).",
        discussion: "The format is documented in docs/frame-plan.md; another renderer can draw the same frames from it."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: [.short, .customLong("output")], help: "The directory to write (created; must be new or empty).")
    var output: String

    @OptionGroup var overrides: SceneOverrides

    @Flag(help: "Replace a directory that holds an earlier plan.")
    var overwrite = false

    func run() throws {
        let timeline = try makeRenderer(scene, overrides: overrides, quiet: true).timeline
        let interruption = Interruption()
        let directory: DirectoryOutput
        do {
            directory = try DirectoryOutput(target: output, marker: "plan.json", overwrite: overwrite)
        } catch {
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
        do {
            try PlanWriter(timeline: timeline, directory: directory, interruption: interruption).write()
            try directory.commit()
        } catch let exit as ExitCode {
            directory.discard()
            throw exit
        } catch {
            directory.discard()
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
    }
}

/// Streams plan.json frame by frame (memory stays flat in clip length) and
/// writes each source image and rasterized snapshot once as a PNG.
struct PlanWriter {
    let timeline: TransitionTimeline
    let directory: DirectoryOutput
    let interruption: Interruption

    func write() throws {
        try directory.makeSubdirectory("images")
        try directory.makeSubdirectory("snapshots")
        var header = "{\n  \"format\": \"shiftrender-frame-plan\",\n  \"version\": \(FramePlanFormat.version),\n"
        header += "  \"canvas\": \(FramePlanJSON.canvas(timeline.canvas)),\n  \"frameCount\": \(timeline.frameCount),\n"
        var images: [String] = []
        for (i, image) in timeline.images.enumerated() {
            let file = "images/image_\(fourDigits(i)).png"
            try PNGCodec.encode(image, toFileAt: directory.path(file))
            images.append("{\"index\": \(i), \"file\": \"\(file)\", \"width\": \(image.width), \"height\": \(image.height)}")
        }
        header += "  \"images\": [" + images.map { "\n    " + $0 }.joined(separator: ",") + (images.isEmpty ? "" : "\n  ") + "],\n"
        // The compositor rasterizes the snapshots exactly as it will sample them.
        let renderer = FrameRenderer(plan: timeline, threads: ProcessorCount.online)
        var snapshots: [String] = []
        for (i, snapshot) in timeline.snapshots.enumerated() {
            let file = "snapshots/snapshot_\(fourDigits(i)).png"
            try PNGCodec.encode(renderer.snapshotBitmap(i), toFileAt: directory.path(file))
            snapshots.append("{\"index\": \(i), \"name\": \(FramePlanJSON.string(snapshot.name)), \"file\": \"\(file)\", "
                + "\"width\": \(snapshot.pixelWidth), \"height\": \(snapshot.pixelHeight), "
                + "\"items\": \(FramePlanJSON.displayList(snapshot.content, indent: "    "))}")
        }
        header += "  \"snapshots\": [" + snapshots.map { "\n    " + $0 }.joined(separator: ",") + (snapshots.isEmpty ? "" : "\n  ") + "],\n"
        header += "  \"frames\": ["
        guard FileManager.default.createFile(atPath: directory.path("plan.json"), contents: nil),
              let handle = FileHandle(forWritingAtPath: directory.path("plan.json")) else {
            throw OutputError("cannot write '\(directory.target)/plan.json'")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(header.utf8))
        for index in 0..<timeline.frameCount {
            if let signal = interruption.signal {
                printError("interrupted (signal \(signal)); nothing was written")
                throw ExitCode(128 + signal)
            }
            let time = Double(index) / timeline.canvas.framesPerSecond
            let list = FramePlanJSON.displayList(timeline.displayList(frame: index), indent: "    ")
            let entry = (index == 0 ? "\n" : ",\n") + "    {\"index\": \(index), \"time\": \(FramePlanJSON.number(time)), \"items\": \(list)}"
            try handle.write(contentsOf: Data(entry.utf8))
        }
        try handle.write(contentsOf: Data("\n  ]\n}\n".utf8))
    }

    private func fourDigits(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }
}
