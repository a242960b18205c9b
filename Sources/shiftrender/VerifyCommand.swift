import ArgumentParser
import Foundation
import GoldenImages
import ShiftRender

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Render chosen frames and compare them with golden PNGs (exit 0 when all match, 1 otherwise).",
        discussion: """
            Goldens are named frame_NNNNN.png after the frame index. Frames: --at and --frame may be repeated;
            without them, the first, middle and last frames. A mismatch writes the actual frame, a magnified
            diff and a contact sheet of all failures to --failures. Write goldens with --record, after looking.

            Examples:
              shiftrender verify scene.json --golden goldens/ --record         write goldens (look at them!)
              shiftrender verify scene.json --golden goldens/                  compare
              shiftrender verify scene.json --golden goldens/ --at 0.1 --frame 20
            """
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(help: ArgumentHelp("The folder of golden PNGs.", valueName: "dir"))
    var golden: String

    @Option(parsing: .singleValue, help: ArgumentHelp("A time to check, in seconds (repeatable).", valueName: "SECONDS"))
    var at: [Double] = []

    @Option(parsing: .singleValue, help: ArgumentHelp("A frame index to check (repeatable).", valueName: "N"))
    var frame: [Int] = []

    @Option(help: ArgumentHelp("Where mismatches are written.", valueName: "dir"))
    var failures = "shiftrender-failures"

    @Option(help: "The largest channel difference (of 255) that still matches.")
    var tolerance = GoldenTolerance.standard.maxChannelDifference

    @Flag(help: "Write the rendered frames as the goldens instead of comparing.")
    var record = false

    @OptionGroup var overrides: SceneOverrides

    @OptionGroup(title: "Rendering") var rendering: RenderingOptions

    func validate() throws {
        guard (0 ... 255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        // The longest clip is 100 000 frames at 1 fps or more: anything later is past any end.
        if at.contains(where: { !($0.isFinite && $0 >= 0 && $0 <= 1e6) }) {
            throw ValidationError("--at must be a time in seconds, 0 or more")
        }
        if frame.contains(where: { $0 < 0 }) { throw ValidationError("--frame must be 0 or more") }
    }

    func run() throws {
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
        let goldens = SceneGoldens(
            renderer: renderer, goldenDirectory: golden, failureDirectory: failures,
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
            if let sheet = report.failureSheetPath { print("contact sheet of failures (actual, diff): \(sheet)") }
            throw ExitStatus.invalidScene
        }
    }
}
