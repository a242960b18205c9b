#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PNGCodec
import Primitives

/// One PNG per frame, in a directory (`frames/` -> `frame_00000.png`...) or
/// named by a pattern (`out/f_%04d.png`); see `PNGFrameNaming`. RGBA with
/// straight alpha when the canvas is transparent, RGB otherwise, at
/// `settings.pngCompressionLevel`.
///
/// Frames are encoded in parallel on `settings.encoderThreads` workers
/// (zlib dominates the cost and every frame is independent) with a bounded
/// window of frames in flight; each file's bytes are the same as a
/// sequential run's.
///
/// Frames go into a temporary directory and appear at the target in
/// `finish()` (see `AtomicOutput`). A target already holding frames is
/// refused unless `settings.overwrite`: a directory must then hold only
/// `frame_*.png` files; a pattern's directory may hold other files, which
/// stay, while every earlier file matching the pattern is replaced.
public final class PNGSequenceEncoder: StreamingFrameEncoder, @unchecked Sendable {
    /// The output path as given.
    public let directory: String
    public let naming: PNGFrameNaming
    public let settings: VideoSettings
    /// Frames accepted so far.
    public var frameCount: Int { core.frameCount }

    let core: StreamingEncoder

    /// The least number of digits in a directory's frame numbers.
    public static let minimumDigits = 5

    /// The file name of frame `index` in a directory sequence of `count` frames.
    public static func frameName(_ index: Int, of count: Int = 0) -> String {
        PNGFrameNaming.directory(".").name(index, of: count)
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

        let output: AtomicOutput
        if naming.isPattern, AtomicOutput.fileType(naming.directory) == S_IFDIR {
            output = try AtomicOutput(path: naming.directory, kind: .files(
                replacing: settings.overwrite, isMember: naming.isMember, memberDescription: naming.patternText))
        } else {
            // A new directory (or a directory target): it appears whole.
            output = try AtomicOutput(path: naming.isPattern ? naming.directory : path, kind: .directory(
                replacing: settings.overwrite, isReplaceable: naming.isMember))
        }
        let workers = settings.resolvedThreads
        core = StreamingEncoder(
            path: path, width: settings.width, height: settings.height, noun: "sequence", output: output,
            sink: PNGFileSink(naming: naming, firstNumber: settings.firstFrameNumber, base: output.temporaryPath, path: path,
                              keepAlpha: settings.isTransparent, level: settings.pngCompressionLevel),
            // One frame per worker plus one queued keeps every worker busy.
            workers: workers, buffers: workers + 1, threadName: "sr-png")
    }

    deinit {
        core.cancel()
    }

}

/// Each frame to its own file in the temporary directory.
private final class PNGFileSink: FrameSink, @unchecked Sendable {
    let naming: PNGFrameNaming
    let firstNumber: Int
    let base: String
    let path: String
    let keepAlpha: Bool
    let level: Int

    init(naming: PNGFrameNaming, firstNumber: Int, base: String, path: String, keepAlpha: Bool, level: Int) {
        self.naming = naming
        self.firstNumber = firstNumber
        self.base = base
        self.path = path
        self.keepAlpha = keepAlpha
        self.level = level
    }

    func consume(_ frame: Bitmap, index: Int) throws {
        do {
            try PNGCodec.writeFrame(frame, toFileAt: naming.path(firstNumber + index, in: base), keepAlpha: keepAlpha,
                                    compressionLevel: level)
        } catch let error as PNGError {
            throw EncoderError(.writeFailed, path: path, reason: "frame \(index): \(error.reason)")
        }
    }

    func complete(frameCount: Int, isCancelled: () -> Bool) throws {
        // Past 100000 frames a directory's numbers need more digits; widen
        // every name so they still sort.
        let last = firstNumber + frameCount
        for index in firstNumber..<last where !naming.isPattern {
            let from = naming.name(index), to = naming.name(index, of: last)
            if from == to { break }
            if rename(base + "/" + from, base + "/" + to) != 0 {
                throw EncoderError(.writeFailed, path: path,
                                   reason: "cannot rename \(from): \(AtomicOutput.describe(errno: errno))")
            }
        }
    }

    func abandon() {}
}
