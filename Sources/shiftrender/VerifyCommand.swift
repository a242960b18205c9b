import ArgumentParser
import Foundation
import GoldenImages
import ShiftRender

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Render chosen frames and compare them with approved PNGs (goldens).",
        discussion: """
            Goldens are named frame_NNNNN.png after the frame index. The frames checked: every --at and --frame \
            given (both repeatable), or else the first, middle and last frames.

            A mismatch, or a frame without a golden, writes the actual frame, a magnified diff and a contact \
            sheet of all failures to --failures, and the command prints where. Write goldens with --record, \
            after looking at the frames.

            Exit codes: 0 all match (or recorded), 1 a mismatch or a missing golden, 2 usage error, \
            3 input/output failure.

            Examples:
              shiftrender verify scene.json --golden goldens/ --record   write goldens
              shiftrender verify scene.json --golden goldens/            compare
              shiftrender verify scene.json --golden goldens/ --at 0.1 --frame 20
            """
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(help: ArgumentHelp("The folder of golden PNGs (frame_NNNNN.png).", valueName: "DIR"))
    var golden: String

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("A time to check, in seconds, rounded to the nearest frame (repeatable).", valueName: "SECONDS"))
    var at: [Double] = []

    @Option(parsing: .singleValue, help: ArgumentHelp("A frame to check, 0-based (repeatable).", valueName: "N"))
    var frame: [Int] = []

    @Option(
        help: ArgumentHelp(
            "Where the images of a mismatch go (actual, diff, contact sheet). Default: "
                + "shiftrender-failures/<scene> in the system's temporary folder ($TMPDIR, else /tmp).",
            valueName: "DIR"))
    var failures: String?

    @Option(help: ArgumentHelp("The largest difference in any channel (0-255) that still matches.", valueName: "N"))
    var tolerance = GoldenTolerance.standard.maxChannelDifference

    @Flag(help: "Write the rendered frames as the goldens instead of comparing (look at them first).")
    var record = false

    @OptionGroup var overrides: SceneOverrides

    @OptionGroup(title: "Rendering") var rendering: RenderingOptions

    /// `--failures`, or a folder named after the scene under the system's
    /// temporary folder: a failing run must not litter the folder it ran in
    /// (often a checkout), and a fixed place per scene is easy to find again.
    var failureDirectory: String {
        if let failures { return failures }
        let name = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
        return FileManager.default.temporaryDirectory
            .appendingPathComponent("shiftrender-failures").appendingPathComponent(name.isEmpty ? "scene" : name).path
    }

    func validate() throws {
        guard (0 ... 255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        try FrameSelection.checkMoments(at: at, frames: frame)
    }

    func run() throws {
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
        let goldens = SceneGoldens(
            renderer: renderer, goldenDirectory: golden, failureDirectory: failureDirectory,
            tolerance: GoldenTolerance(maxChannelDifference: tolerance),
            record: record || GoldenCheck.recordRequested)
        var frames = frame + at.map { Int(($0 * renderer.framesPerSecond).rounded()) }
        if frames.isEmpty { frames = goldens.defaultFrames }
        if let beyond = frames.first(where: { $0 > renderer.frameCount - 1 }) {
            printError("frame \(beyond) is past the end: the clip has frames 0-\(renderer.frameCount - 1)")
            throw ExitStatus.usage
        }
        let report: SceneGoldens.Report
        do {
            report = try goldens.verify(frames: frames)
        } catch let error as RenderError {
            throw ExitStatus.report(error)
        } catch {
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
        for (_, result) in report.results { print((result.passed ? "ok    " : "FAIL  ") + result.message) }
        guard report.passed else {
            print("failure images (actual, diff): \(failureDirectory)")
            if let sheet = report.failureSheetPath { print("contact sheet of failures (actual, diff): \(sheet)") }
            throw ExitStatus.invalidScene
        }
    }
}
