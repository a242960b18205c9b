import Foundation
import OutputFiles
public import ShiftRender

/// A scene's frames checked against a folder of goldens named after the frame
/// index (`frame_00012.png`): what `shiftrender verify` does, for a test suite.
///
/// ```swift
/// let renderer = try Renderer(fileAt: "Scenes/card.json")
/// let report = try SceneGoldens(renderer: renderer, goldenDirectory: "Tests/Goldens/card",
///                               failureDirectory: "/tmp/golden-failures").verify()
/// #expect(report.passed, "\(report.messages)")
/// ```
public struct SceneGoldens: Sendable {
    public struct Report: Sendable {
        public var results: [(frame: Int, result: GoldenCheck.Result)]
        /// A contact sheet of every mismatch (actual, then diff), when there were any.
        public var failureSheetPath: String?

        public var passed: Bool { results.allSatisfy(\.result.passed) }
        public var messages: [String] { results.map(\.result.message) }
    }

    public let renderer: Renderer
    public let goldenDirectory: String
    public let check: GoldenCheck

    public init(
        renderer: Renderer, goldenDirectory: String, failureDirectory: String,
        tolerance: GoldenTolerance = .standard, record: Bool = GoldenCheck.recordRequested
    ) {
        self.renderer = renderer
        self.goldenDirectory = goldenDirectory
        var check = GoldenCheck(tolerance: tolerance, failureDirectory: failureDirectory, record: record)
        // The scene's file and images: no golden or failure image is ever written over them.
        check.protectedFiles = renderer.inputFiles
        self.check = check
    }

    /// The golden file of frame `index`.
    public func goldenPath(frame index: Int) -> String {
        (goldenDirectory as NSString).appendingPathComponent("frame_\(String(format: "%05d", index)).png")
    }

    /// The first, middle and last frames: where a transition starts, moves fastest and settles.
    public var defaultFrames: [Int] {
        let last = renderer.frameCount - 1
        return Array(Set([0, last / 2, last])).sorted()
    }

    /// Renders each of `frames` (default: `defaultFrames`; duplicates once) and
    /// checks (or records) it. Frames outside the clip throw `RenderError` `.usage`.
    ///
    /// Recording refuses, before anything is drawn, a golden that is one of the
    /// scene's files (by device and inode). Afterwards the failure folder holds
    /// this run's failure images for these goldens and none of an earlier run's:
    /// a passing run removes them all (only files golden checks wrote and that
    /// are unchanged since). `cancellation` is polled before each frame and
    /// each file; a cancelled run throws `RenderError` `.cancelled`, and no
    /// file is left half-written.
    public func verify(frames: [Int]? = nil, cancellation: RenderCancellation? = nil) throws -> Report {
        let indices = Array(Set(frames ?? defaultFrames)).sorted()
        if check.record { try refuseInputGoldens(indices) }
        var results: [(frame: Int, result: GoldenCheck.Result)] = []
        var failed: [(index: Int, bitmap: Bitmap)] = []
        for index in indices {
            try cancellation?.check()
            let bitmap = try renderer.still(.frame(index))
            try cancellation?.check()
            let result = try check.check(bitmap, goldenPath: goldenPath(frame: index))
            results.append((index, result))
            if !result.passed {
                failed.append((index, bitmap))
                if let diff = result.diffPath, let image = try? PNGCodec.decode(fileAt: diff) { failed.append((index, image)) }
            }
        }
        var written = Set(results.flatMap { [$0.result.actualPath, $0.result.diffPath].compactMap { $0 } }.map {
            ($0 as NSString).lastPathComponent
        })
        var sheetPath: String?
        if !failed.isEmpty {
            try cancellation?.check()
            let sheet = ContactSheet.sheet(failed, fps: renderer.framesPerSecond, background: renderer.scene.canvas.background)
            if let path = try? check.writeFailure(sheet, name: Self.sheetName, goldenPath: goldenPath(frame: 0)) {
                sheetPath = path
                written.insert(Self.sheetName)
            }
        }
        if !check.record {
            try check.failureFolder.removeEarlier(key: FailureFolder.key(goldenFolder: goldenDirectory), keeping: written)
        }
        return Report(results: results, failureSheetPath: sheetPath)
    }

    /// The contact sheet of a run's failures, in the failure folder.
    static let sheetName = "failures-sheet.png"

    /// Throws when a golden to record is one of the scene's files (or a declared input).
    private func refuseInputGoldens(_ indices: [Int]) throws {
        let inputs = check.inputs
        for index in indices where inputs.contains(goldenPath(frame: index)) {
            throw OutputError(
                .isInput, path: goldenPath(frame: index),
                reason: "it is one of the scene's files (an image it shows); refusing to record a golden over it")
        }
    }
}
