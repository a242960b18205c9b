import Foundation
import OutputFiles
public import Primitives
import PNGCodec

/// Checks a rendered image against a golden PNG file, recording it instead
/// when asked. Use it from your own tests:
///
/// ```swift
/// let result = try GoldenCheck(failureDirectory: "/tmp/golden-failures")
///     .check(frame, goldenPath: "Tests/Goldens/card_0012.png")
/// #expect(result.passed, "\(result.message)")
/// ```
public struct GoldenCheck: Sendable {
    public struct Result: Sendable {
        public var passed: Bool
        public var recorded: Bool
        public var message: String
        /// The rendered frame, written on a mismatch.
        public var actualPath: String?
        /// The magnified difference, written on a mismatch of same-sized images.
        public var diffPath: String?
    }

    public var tolerance: GoldenTolerance
    /// Where the actual frame and the diff image of a mismatch are written.
    public var failureDirectory: String
    /// Write the golden instead of comparing (only on request).
    public var record: Bool
    /// Files no golden or failure image may be written over, compared by
    /// device and inode (a scene's file and its images); the process's
    /// declared inputs (`InputFiles.declare`) are never written over either.
    public var protectedFiles: [String] = []

    public init(tolerance: GoldenTolerance = .standard, failureDirectory: String, record: Bool = false) {
        self.tolerance = tolerance
        self.failureDirectory = failureDirectory
        self.record = record
    }

    /// What no file written here may replace.
    var inputs: InputFiles { InputFiles.declared.union(InputFiles(paths: protectedFiles)) }

    /// True when the environment asks for recording (`SHIFTRENDER_RECORD=1`).
    public static var recordRequested: Bool { ProcessInfo.processInfo.environment["SHIFTRENDER_RECORD"] == "1" }

    public func check(_ actual: Bitmap, goldenPath: String) throws -> Result {
        let name = ((goldenPath as NSString).lastPathComponent as NSString).deletingPathExtension
        if record {
            // A golden that still matches stays as it is: re-recording a suite
            // rewrites only what changed, so the review sees only that.
            if FileManager.default.fileExists(atPath: goldenPath), let existing = try? PNGCodec.decode(fileAt: goldenPath),
                ImageComparison(actual: actual, expected: existing, tolerance: tolerance).matches
            {
                return Result(passed: true, recorded: false, message: "\(goldenPath): unchanged")
            }
            try FileManager.default.createDirectory(
                atPath: (goldenPath as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            // Complete or not at all, never over an input (a scene's image kept beside the goldens).
            let bytes = try PNGCodec.encode(actual)
            try AtomicOutput.writeFile(at: goldenPath, overwrite: true, inputs: inputs) { temporary in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
                defer { try? handle.close() }
                try handle.write(contentsOf: bytes)
            }
            return Result(passed: true, recorded: true, message: "recorded \(goldenPath)")
        }
        guard FileManager.default.fileExists(atPath: goldenPath) else {
            let actualPath = try writeFailure(actual, name: name + ".actual.png", goldenPath: goldenPath)
            return Result(
                passed: false, recorded: false,
                message: "no golden at \(goldenPath) (record it with SHIFTRENDER_RECORD=1 or --record after looking at \(actualPath))",
                actualPath: actualPath)
        }
        let expected = try PNGCodec.decode(fileAt: goldenPath)
        let comparison = ImageComparison(actual: actual, expected: expected, tolerance: tolerance)
        let summary = comparison.summary(actualSize: (actual.width, actual.height), expectedSize: (expected.width, expected.height))
        guard !comparison.matches else { return Result(passed: true, recorded: false, message: "\(goldenPath): \(summary)") }
        let actualPath = try writeFailure(actual, name: name + ".actual.png", goldenPath: goldenPath)
        let diffPath = try writeFailure(
            ImageComparison.diffImage(actual: actual, expected: expected), name: name + ".diff.png", goldenPath: goldenPath)
        return Result(
            passed: false, recorded: false,
            message: "\(goldenPath): \(summary); actual: \(actualPath); diff: \(diffPath)",
            actualPath: actualPath, diffPath: diffPath)
    }

    /// The failure folder, as it records what it holds (`FailureFolder`).
    var failureFolder: FailureFolder { FailureFolder(path: failureDirectory, inputs: inputs) }

    /// Writes a failure image, recorded as written for the goldens beside `goldenPath`.
    /// A file of that name that golden checks did not write is never replaced: this throws.
    func writeFailure(_ bitmap: Bitmap, name: String, goldenPath: String) throws -> String {
        let key = FailureFolder.key(goldenFolder: (goldenPath as NSString).deletingLastPathComponent)
        return try failureFolder.write(bitmap, name: name, key: key)
    }
}
