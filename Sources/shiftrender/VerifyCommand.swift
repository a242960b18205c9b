import ArgumentParser
import Foundation
import GoldenImages
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Render chosen frames and compare them with approved PNGs (goldens).",
        discussion: """
            Goldens are named frame_NNNNN.png after the frame index. The frames checked: every --at and --frame \
            given (both repeatable), or else the first, middle and last frames.

            A mismatch, or a frame without a golden, writes the actual frame, a magnified diff and a contact \
            sheet of all failures to --failures, and the command prints where. A run that passes removes the \
            failure images an earlier run wrote there for the same goldens (never a file verify did not write). \
            Write goldens with --record, after looking at the frames; a golden is never recorded over one of \
            the scene's images.

            Exit codes: 0 all match (or recorded), 1 a mismatch or a missing golden, 2 usage error, \
            3 input/output failure, 128+N stopped by signal N.

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
            "Where the images of a mismatch go (actual, diff, contact sheet). Default: a new private folder "
                + "shiftrender-failures-<scene>-XXXXXX in the system's temporary folder ($TMPDIR, else /tmp).",
            valueName: "DIR"))
    var failures: String?

    @Option(help: ArgumentHelp("The largest difference in any channel (0-255) that still matches.", valueName: "N"))
    var tolerance = GoldenTolerance.standard.maxChannelDifference

    @Flag(help: "Write the rendered frames as the goldens instead of comparing (look at them first).")
    var record = false

    @OptionGroup var overrides: SceneOverrides

    @OptionGroup(title: "Rendering") var rendering: RenderingOptions

    /// A new folder only this user can enter, made by `mkdtemp` under the
    /// system's temporary folder: a failing run must not litter the folder it
    /// ran in (often a checkout), and a fixed name in a shared /tmp could be
    /// a link planted by someone else, leading the images anywhere.
    func makePrivateFailureFolder() throws -> String {
        let name = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(64))
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/shiftrender-failures-\(safe.isEmpty ? "scene" : safe)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            printError("cannot make a folder for failure images in '\(base)': \(String(cString: strerror(errno)))")
            throw ExitStatus.inputOutput
        }
        return String(cString: made)
    }

    func validate() throws {
        guard (0 ... 255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        try FrameSelection.checkMoments(at: at, frames: frame)
    }

    func run() throws {
        let interruption = Interruption()
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
        let privateFolder = failures == nil && !record ? try makePrivateFailureFolder() : nil
        // The private folder stays only when it holds failures.
        if let privateFolder { interruption.onEmergencyExit { rmdir(privateFolder) } }
        defer { if let privateFolder { rmdir(privateFolder) } }
        let failureDirectory = failures ?? privateFolder ?? FileManager.default.temporaryDirectory.path
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
            report = try goldens.verify(frames: frames, cancellation: interruption.cancellation)
        } catch let error as RenderError {
            throw ExitStatus.report(error, interruption: interruption)
        } catch {
            // After a signal, a failure is its echo (a file that was not put in place).
            if let exit = interruption.report() { throw exit }
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
        for (_, result) in report.results { print((result.passed ? "ok    " : "FAIL  ") + result.message) }
        if let exit = interruption.report() { throw exit }
        guard report.passed else {
            print("failure images (actual, diff): \(failureDirectory)")
            if let sheet = report.failureSheetPath { print("contact sheet of failures (actual, diff): \(sheet)") }
            throw ExitStatus.invalidScene
        }
    }
}
