import Foundation
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
        check = GoldenCheck(tolerance: tolerance, failureDirectory: failureDirectory, record: record)
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
    public func verify(frames: [Int]? = nil) throws -> Report {
        let indices = Array(Set(frames ?? defaultFrames)).sorted()
        var results: [(frame: Int, result: GoldenCheck.Result)] = []
        var failed: [(index: Int, bitmap: Bitmap)] = []
        for index in indices {
            let bitmap = try renderer.still(.frame(index))
            let result = try check.check(bitmap, goldenPath: goldenPath(frame: index))
            results.append((index, result))
            if !result.passed {
                failed.append((index, bitmap))
                if let diff = result.diffPath, let image = try? PNGCodec.decode(fileAt: diff) { failed.append((index, image)) }
            }
        }
        var sheetPath: String?
        if !failed.isEmpty {
            let sheet = ContactSheet.sheet(failed, fps: renderer.framesPerSecond, background: renderer.scene.canvas.background)
            let path = (check.failureDirectory as NSString).appendingPathComponent("failures-sheet.png")
            if (try? PNGCodec.encode(sheet, toFileAt: path)) != nil { sheetPath = path }
        }
        return Report(results: results, failureSheetPath: sheetPath)
    }
}
