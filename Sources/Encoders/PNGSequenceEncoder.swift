import OutputFiles
import PNGCodec
import Primitives

/// One PNG per frame, in a directory (`frames/` -> `frame_00000.png`...) or
/// named by a pattern (`out/f_%04d.png`); see `PNGFrameNaming`. RGBA with
/// straight alpha when the canvas is transparent, RGB otherwise, at
/// `settings.pngCompressionLevel`.
///
/// Frames are encoded in parallel on `settings.encoderThreads` workers
/// (deflate dominates the cost and every frame is independent) with a bounded
/// window of frames in flight; each file's bytes are the same as a
/// sequential run's.
///
/// The sequence is a file set (`OutputFiles.FileSet`): the frames it
/// writes, numbered from `settings.firstFrameNumber`. A folder holding any
/// of them is refused unless `settings.overwrite`; then exactly those are
/// replaced. Every other file stays, frames it does not write included (of
/// a longer or another range: numbers are absolute, so ranges rendered
/// apart join into one sequence), and `warnings` names those after
/// `finish()`. Frames go into a temporary folder and appear in `finish()`:
/// a new folder whole, in an existing one frame by frame, each complete.
public final class PNGSequenceEncoder: StreamingFrameEncoder, @unchecked Sendable {
    /// The output path as given.
    public let directory: String
    public let naming: PNGFrameNaming
    public let settings: VideoSettings
    /// Frames accepted so far.
    public var frameCount: Int { core.frameCount }
    /// After `finish()`: that the folder still holds frames this sequence
    /// did not write ("'frames/' still holds 500 frames (frame_00500.png ...
    /// frame_00999.png) from an earlier render").
    public var warnings: [String] { output.warnings }

    let core: StreamingEncoder
    private let output: AtomicOutput

    /// How far the workers' priority is lowered (`WorkerThread`). The
    /// compositor draws a frame in fixed bands, one per core, and waits for the
    /// last: a worker sharing a core with a band at equal priority delays that
    /// band while the other core, its band done, idles. Below the compositor,
    /// the workers take what it leaves and run alone while it waits for a free
    /// buffer. On the 1080p benchmark scene, 2 cores, this kept 1.97 cores busy
    /// instead of 1.68 (1.25x the frames per second); 5 is the least that did
    /// (3: 1.79). The cost: threads of other programs at normal priority (in the
    /// same session, where the kernel groups by session) outrank the workers, so
    /// an export competing with such work ran about 10% slower. Figures in
    /// benchmarks/RESULTS.md.
    static let workerNiceness: Int32 = 5

    /// The least number of digits in a directory's frame numbers.
    public static let minimumDigits = 5

    /// The file name of frame `index` in a directory sequence.
    public static func frameName(_ index: Int) -> String {
        PNGFrameNaming.directory(".").name(index)
    }

    /// True for names `frameName` produces (`frame_` digits `.png`).
    public static func isFrameName(_ name: String) -> Bool {
        PNGFrameNaming.directory(".").isMember(name)
    }

    /// Checks the settings and the target, then makes the temporary
    /// directory. `path` is a directory, or a pattern (`PNGFrameNaming.pattern`).
    /// Nothing is left behind when this throws.
    public init(directory path: String, settings: VideoSettings) throws {
        directory = path
        self.settings = settings
        let naming = PNGFrameNaming.pattern(path) ?? .directory(path)
        self.naming = naming
        _ = try settings.validateCommon(path: path)
        try settings.validatePNG(path: path)

        // The frames certain to be written (all when the count is known, else
        // the first) are checked now, so a clash is refused before any work,
        // naming every frame in the way. What was not known is checked in finish().
        let expected = (0 ..< max(settings.expectedFrameCount ?? 1, 1)).map { naming.name(settings.firstFrameNumber + $0) }
        let frames = FileSet(noun: "frame", isMember: { naming.isMember($0) }, expectedMembers: expected)
        let output = try AtomicOutput(
            path: naming.isPattern ? naming.directory : path, kind: .fileSet(frames),
            overwrite: settings.overwrite, reportedPath: path)
        self.output = output
        let workers = settings.resolvedThreads
        core = StreamingEncoder(
            path: path, width: settings.width, height: settings.height, noun: "sequence", output: output,
            sink: PNGFileSink(
                naming: naming, firstNumber: settings.firstFrameNumber, output: output, path: path,
                keepAlpha: settings.isTransparent, level: settings.pngCompressionLevel),
            // One frame per worker plus one queued keeps every worker busy.
            workers: workers, buffers: workers + 1, threadName: "sr-png", workerNiceness: Self.workerNiceness)
    }

    deinit {
        core.cancel()
    }

}

/// Each frame to its own file in the temporary directory.
private final class PNGFileSink: FrameSink, @unchecked Sendable {
    let naming: PNGFrameNaming
    let firstNumber: Int
    let output: AtomicOutput
    let base: String
    let path: String
    let keepAlpha: Bool
    /// One writer (buffers and compressor) per worker, reused frame after frame.
    let writers: PNGFrameWriter.Pool

    init(naming: PNGFrameNaming, firstNumber: Int, output: AtomicOutput, path: String, keepAlpha: Bool, level: Int) {
        self.naming = naming
        self.firstNumber = firstNumber
        self.output = output
        base = output.temporaryPath
        self.path = path
        self.keepAlpha = keepAlpha
        writers = PNGFrameWriter.Pool(compressionLevel: level)
    }

    func consume(_ frame: Bitmap, index: Int) throws {
        do {
            let writer = try writers.take(path: path)
            defer { writers.recycle(writer) }
            try writer.write(frame, toFileAt: naming.path(firstNumber + index, in: base), keepAlpha: keepAlpha)
        } catch let error as PNGError {
            // A full disk can show as another error (a short write, a failed close); name it when it is the cause.
            let reason = output.fileSystemProblem() ?? error.reason
            throw EncoderError(.writeFailed, path: path, reason: "frame \(firstNumber + index): \(reason)")
        }
    }

    func complete(frameCount: Int, isCancelled: () -> Bool) throws {}

    func abandon() {}
}
