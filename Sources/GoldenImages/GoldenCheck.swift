import Foundation
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

    public init(tolerance: GoldenTolerance = .standard, failureDirectory: String, record: Bool = false) {
        self.tolerance = tolerance
        self.failureDirectory = failureDirectory
        self.record = record
    }

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
            try PNGCodec.encode(actual, toFileAt: goldenPath)
            return Result(passed: true, recorded: true, message: "recorded \(goldenPath)")
        }
        guard FileManager.default.fileExists(atPath: goldenPath) else {
            let actualPath = try writeFailure(actual, name: name + ".actual.png")
            return Result(
                passed: false, recorded: false,
                message: "no golden at \(goldenPath) (record it with SHIFTRENDER_RECORD=1 or --record after looking at \(actualPath))",
                actualPath: actualPath)
        }
        let expected = try PNGCodec.decode(fileAt: goldenPath)
        let comparison = ImageComparison(actual: actual, expected: expected, tolerance: tolerance)
        let summary = comparison.summary(actualSize: (actual.width, actual.height), expectedSize: (expected.width, expected.height))
        guard !comparison.matches else { return Result(passed: true, recorded: false, message: "\(goldenPath): \(summary)") }
        let actualPath = try writeFailure(actual, name: name + ".actual.png")
        let diffPath = try writeFailure(ImageComparison.diffImage(actual: actual, expected: expected), name: name + ".diff.png")
        return Result(
            passed: false, recorded: false,
            message: "\(goldenPath): \(summary); actual: \(actualPath); diff: \(diffPath)",
            actualPath: actualPath, diffPath: diffPath)
    }

    private func writeFailure(_ bitmap: Bitmap, name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: failureDirectory, withIntermediateDirectories: true)
        let path = (failureDirectory as NSString).appendingPathComponent(name)
        try PNGCodec.encode(bitmap, toFileAt: path)
        return path
    }
}
