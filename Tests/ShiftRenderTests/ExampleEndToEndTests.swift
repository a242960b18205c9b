import Foundation
import GoldenImages
import PNGCodec
import ShiftRender
import Testing

/// The built `scene-in-swift` executable, run as a person would: a `.png`
/// path gets the middle frame, pixel for pixel what the library renders
/// from the JSON example; a `.gif` path gets the whole clip; a bad path or
/// no path gets a message and a non-zero exit status.
@Suite struct ExampleEndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle in the build folder (the test
    /// target depends on it, so it is built first).
    static var executable: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("scene-in-swift").path
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both streams are a few lines, far below a pipe's buffer, so reading one after the other cannot block.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func aPNGPathGetsTheMiddleFrameOfTheExample() throws {
        let folder = try RepositoryFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Self.run(Self.executable, [folder + "/still.png"])
        #expect(run.status == 0, "\(run.stderr)")
        let fromJSON = try Renderer(fileAt: ExampleSceneTests.examplePath)
        let middle = fromJSON.frameCount / 2
        #expect(run.stdout.contains("frame \(middle) of \(fromJSON.frameCount)"))
        let written = try PNGCodec.decode(fileAt: folder + "/still.png")
        let comparison = ImageComparison(
            actual: written, expected: try fromJSON.still(.frame(middle)),
            tolerance: GoldenTolerance(maxChannelDifference: 0))
        #expect(comparison.matches, "\(comparison.summary(actualSize: (written.width, written.height), expectedSize: (390, 844)))")
    }

    @Test func aGIFPathGetsTheWholeClip() throws {
        let folder = try RepositoryFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gif = folder + "/example.gif"
        let run = try Self.run(Self.executable, [gif])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: gif)).prefix(6)) == Array("GIF89a".utf8))
        let probe = try Self.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", gif,
            ])
        let renderer = try Renderer(fileAt: ExampleSceneTests.examplePath)
        let timing = GIFTiming(sourceRate: try #require(FrameRate(framesPerSecond: renderer.framesPerSecond)), maxFramesPerSecond: 30)
        let frames = timing.gifFrameCount(forClipFrames: renderer.frameCount)
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gif,390,844,\(frames)", "\(probe.stderr)")
        #expect(FileManager.default.subpaths(atPath: folder) == ["example.gif"], "no temporary file is left behind")
    }

    @Test func badArgumentsExitWithAMessage() throws {
        let none = try Self.run(Self.executable, [])
        #expect(none.status == 2)
        #expect(none.stderr.contains("scene-in-swift: error: expected one output path"))
        #expect(none.stderr.contains("usage: scene-in-swift <output>"))

        let folder = try RepositoryFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unsupported = try Self.run(Self.executable, [folder + "/clip.avi"])
        #expect(unsupported.status == 2)
        #expect(unsupported.stderr.contains("unsupported output"))
        let unwritable = try Self.run(Self.executable, [folder + "/missing/folder/still.png"])
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.hasPrefix("scene-in-swift: error: "))
        #expect(FileManager.default.subpaths(atPath: folder) == [])
    }
}
