import ArgumentParser
import Foundation
import GoldenImages
import PNGCodec
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
        guard (0...255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        if at.contains(where: { !($0.isFinite && $0 >= 0) }) { throw ValidationError("--at must be 0 or more seconds") }
        if frame.contains(where: { $0 < 0 }) { throw ValidationError("--frame must be 0 or more") }
    }

    func run() throws {
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
        let last = renderer.frameCount - 1
        var indices = frame + at.map { Int(($0 * renderer.framesPerSecond).rounded()) }
        if indices.isEmpty { indices = [0, last / 2, last] }
        if let beyond = indices.first(where: { $0 > last }) {
            printError("frame \(beyond) is past the end: the clip has frames 0-\(last)")
            throw ExitStatus.usage
        }
        indices = Array(Set(indices)).sorted()
        let check = GoldenCheck(tolerance: GoldenTolerance(maxChannelDifference: tolerance),
                                failureDirectory: failures, record: record || GoldenCheck.recordRequested)
        var failed: [(index: Int, bitmap: Bitmap)] = []
        for index in indices {
            let bitmap: Bitmap
            do { bitmap = try renderer.still(.frame(index)) } catch { throw ExitStatus.report(error) }
            let path = (golden as NSString).appendingPathComponent("frame_\(String(format: "%05d", index)).png")
            let result: GoldenCheck.Result
            do {
                result = try check.check(bitmap, goldenPath: path)
            } catch {
                printError("\(error)")
                throw ExitStatus.invalidScene
            }
            print((result.passed ? "ok    " : "FAIL  ") + result.message)
            if !result.passed {
                failed.append((index, bitmap))
                if let diff = result.diffPath, let image = try? PNGCodec.decode(fileAt: diff) { failed.append((index, image)) }
            }
        }
        guard failed.isEmpty else {
            let sheet = (failures as NSString).appendingPathComponent("failures-sheet.png")
            let picture = ContactSheet.sheet(failed, fps: renderer.framesPerSecond, background: renderer.scene.canvas.background)
            if (try? PNGCodec.encode(picture, toFileAt: sheet)) != nil { print("contact sheet of failures (actual, diff): \(sheet)") }
            throw ExitStatus.invalidScene
        }
    }
}
