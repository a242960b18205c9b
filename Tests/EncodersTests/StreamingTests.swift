import Encoders
import Foundation
import Primitives
import Testing

/// Frames stream through a bounded set of buffers, on encoder threads;
/// cancelling from anywhere, or failing anywhere, leaves nothing behind.
@Suite("Streaming, cancelling and failing")
struct StreamingTests {
    static let outputs = ["out.mp4", "out.mov", "out.webm", "out.gif", "frames/", "seq/f_%04d.png"]

    static func settings(_ width: Int = 48, _ height: Int = 32) -> VideoSettings {
        VideoSettings(width: width, height: height, framesPerSecond: 30, preset: "ultrafast", background: .clear)
    }

    @Test(
        "exchange hands frames over without a copy and gives back a same-sized buffer; output equals append's",
        arguments: ["frames/", "out.gif"])
    func exchange(output: String) throws {
        try withTemporaryDirectory { dir in
            let frames = transitionLikeFrames(width: 48, height: 32, count: 8, alpha: true)
            let byAppend = try OutputFormat.encoder(forOutputPath: dir + "/a-" + output, settings: Self.settings())
            for frame in frames { try byAppend.append(frame) }
            try byAppend.finish()

            let byExchange = try OutputFormat.encoder(forOutputPath: dir + "/b-" + output, settings: Self.settings())
            var buffer = Bitmap(width: 48, height: 32)
            for frame in frames {
                buffer.pixels = frame.pixels  // as a renderer draws into the buffer it has
                buffer = try byExchange.exchange(buffer)
                #expect(buffer.width == 48 && buffer.height == 32 && buffer.pixels.count == 48 * 32 * 4)
            }
            try byExchange.finish()
            if output.hasSuffix("/") {
                for name in try contents(of: dir + "/a-" + output) {
                    #expect(try fileBytes(dir + "/a-" + output + name) == fileBytes(dir + "/b-" + output + name))
                }
            } else {
                #expect(try fileBytes(dir + "/a-" + output) == fileBytes(dir + "/b-" + output))
            }
        }
    }

    @Test(
        "cancel from another thread mid-render removes everything; an earlier output stays untouched",
        arguments: outputs)
    func cancelFromAnotherThread(output: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + output
            // An earlier output at the target, to be left exactly as it was.
            var earlier: [String: [UInt8]] = [:]
            if output.hasSuffix("/") || output.contains("%") {
                let naming = PNGFrameNaming.pattern(path) ?? .directory(path)
                try FileManager.default.createDirectory(atPath: naming.directory, withIntermediateDirectories: true)
                earlier[naming.directory + "/" + naming.name(0)] = [1, 2, 3]
            } else {
                earlier[path] = [4, 5, 6]
            }
            for (file, bytes) in earlier { try writeBytes(bytes, to: file) }
            let before = try contents(of: dir)

            var settings = Self.settings(64, 48)
            settings.overwrite = true
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
            let frames = transitionLikeFrames(width: 64, height: 48, count: 4)
            let appended = Appended()
            let canceller = Thread {
                while appended.count < 10 { usleep(1000) }
                encoder.cancel()
            }
            canceller.start()
            var failure: EncoderError?
            for index in 0 ..< 100_000 {
                do {
                    try encoder.append(frames[index % frames.count])
                    appended.increment()
                } catch let error as EncoderError {
                    failure = error
                    break
                }
            }
            while !canceller.isFinished { usleep(1000) }
            #expect(failure?.kind == .cancelled, "append after cancel says the encoder was cancelled")
            #expect(throws: EncoderError.self) { try encoder.finish() }
            encoder.cancel()
            #expect(try contents(of: dir) == before, "no temporary file or directory remains")
            for (file, bytes) in earlier { #expect(try fileBytes(file) == bytes) }
            if output.contains("%") {
                #expect(try contents(of: dir + "/seq") == ["f_0000.png"])
            }
        }
    }

    @Test(
        "cancel racing finish leaves either the complete output or nothing, never a temporary",
        arguments: ["out.gif", "out.mp4", "frames/"])
    func cancelDuringFinish(output: String) throws {
        for delay in [0, 500, 3000, 20000] {
            try withTemporaryDirectory { dir in
                let path = dir + "/" + output
                let encoder = try OutputFormat.encoder(forOutputPath: path, settings: Self.settings(160, 120))
                for frame in transitionLikeFrames(width: 160, height: 120, count: 12) { try encoder.append(frame) }
                let canceller = Thread {
                    usleep(useconds_t(delay))
                    encoder.cancel()
                }
                canceller.start()
                let finished = (try? encoder.finish()) != nil
                while !canceller.isFinished { usleep(1000) }
                let names = try contents(of: dir)
                if finished {
                    #expect(names == [output.replacingOccurrences(of: "/", with: "")])
                    if !output.hasSuffix("/") { #expect(try probe(path).int("nb_read_frames") ?? 0 > 0) }
                } else {
                    #expect(names.isEmpty, "\(names)")
                }
            }
        }
    }

    @Test("an unwritable output path fails cleanly, before any frame", arguments: outputs)
    func unwritable(output: String) throws {
        try withTemporaryDirectory { dir in
            try writeBytes([0], to: dir + "/afile")
            for parent in [dir + "/afile", "/proc/shiftrender-missing"] {
                let path = parent + "/" + output
                let error = try #require(throws: EncoderError.self) {
                    try OutputFormat.encoder(forOutputPath: path, settings: Self.settings())
                }
                #expect(error.kind == .targetNotWritable, "\(error)")
                #expect(error.description.hasPrefix("cannot write '"), "\(error)")
                #expect(!error.description.contains("\n"))
            }
            #expect(try contents(of: dir) == ["afile"])
        }
    }

    @Test("a failure on an encoder thread reaches the caller and removes the output")
    func workerFailure() throws {
        try withTemporaryDirectory { dir in
            let encoder = try PNGSequenceEncoder(directory: dir + "/frames/", settings: Self.settings())
            try encoder.append(Bitmap(width: 48, height: 32))
            // Pull the temporary directory away under the workers.
            let temporary = try #require(try contents(of: dir).first)
            try FileManager.default.removeItem(atPath: dir + "/" + temporary)
            var caught: EncoderError?
            do {
                for _ in 0 ..< 50 { try encoder.append(Bitmap(width: 48, height: 32)) }
                try encoder.finish()
            } catch let error as EncoderError {
                caught = error
            }
            let error = try #require(caught)
            #expect(error.kind == .writeFailed, "\(error)")
            #expect(error.reason.contains("cannot create the file"), "\(error.reason)")
            #expect(try contents(of: dir).isEmpty)
            let later = try #require(throws: EncoderError.self) { try encoder.append(Bitmap(width: 48, height: 32)) }
            #expect(later.reason.contains("failed earlier"))
        }
    }

    @Test(
        "peak memory does not grow with the clip: 10x the frames, within 10% of the peak",
        .timeLimit(.minutes(10)), arguments: ["mp4", "mov", "webm", "gif", "png"])
    func memoryIsFlat(format: String) throws {
        func peak(frames: Int) throws -> Int {
            // MP4 at the default preset, whose look-ahead is what could grow;
            // the slow codecs at their fastest, which keeps the test short.
            let result = try run(
                benchExecutable(),
                [
                    "--format", format, "--frames", String(frames), "--size", "320x180", "--fps", "60",
                    "--preset", format == "mp4" ? "medium" : "ultrafast", "--transparent",
                ])
            let line = String(decoding: result.stdout, as: UTF8.self)
            guard result.status == 0, let field = line.split(separator: " ").first(where: { $0.hasPrefix("vmhwm_kb=") }),
                let kilobytes = Int(field.dropFirst(9))
            else {
                throw ToolFailed(description: "encoders-bench failed: \(line) \(result.stderr)")
            }
            return kilobytes
        }
        // 1 s and 10 s at 60 fps.
        let short = try peak(frames: 60)
        let long = try peak(frames: 600)
        #expect(Double(long) <= Double(short) * 1.10, "\(format): 60 frames \(short) KiB, 600 frames \(long) KiB")
    }
}

/// A counter shared with the cancelling thread.
final class Appended: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}

/// The encoders-bench executable built beside the test bundle.
func benchExecutable() -> String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("encoders-bench").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "encoders-bench"
}
