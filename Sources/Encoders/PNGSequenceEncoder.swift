#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PNGCodec
import Primitives

/// One PNG per frame in a directory: `frame_00000.png`, `frame_00001.png`...
/// Names are zero-padded to at least five digits, and to as many as the last
/// index needs, so they sort in frame order. Opaque frames are written as RGB,
/// others as straight-alpha RGBA.
///
/// Frames go into a temporary directory beside the target, renamed into place
/// in `finish()`; see `AtomicOutput`. The target may be missing or empty; a
/// directory already holding files is refused unless `settings.overwrite` is
/// set and it holds only `frame_*.png` files of an earlier sequence.
public final class PNGSequenceEncoder: FrameEncoder {
    public let directory: String
    public let settings: VideoSettings
    /// Frames written so far.
    public private(set) var frameCount = 0

    private var output: AtomicOutput?
    private var failure: String?

    /// The least number of digits in a frame number.
    public static let minimumDigits = 5

    /// The file name of frame `index` in a sequence of `count` frames.
    public static func frameName(_ index: Int, of count: Int = 0) -> String {
        let digits = max(minimumDigits, String(max(count - 1, 0)).count)
        let number = String(index)
        return "frame_" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
    }

    /// True for names `frameName` produces (`frame_` digits `.png`).
    public static func isFrameName(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        return digits.count >= minimumDigits && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    /// Checks the settings and the target directory, then makes the temporary
    /// directory. Nothing is left behind when this throws.
    public init(directory: String, settings: VideoSettings) throws {
        self.directory = directory
        self.settings = settings
        _ = try settings.validateCommon(path: directory)
        output = try AtomicOutput(
            path: directory,
            kind: .directory(replacing: settings.overwrite, isReplaceable: Self.isFrameName))
    }

    deinit {
        cancel()
    }

    public func append(_ frame: Bitmap) throws {
        let output = try activeOutput()
        guard frame.width == settings.width, frame.height == settings.height,
              frame.pixels.count == frame.width * frame.height * 4 else {
            throw fail(.frameMismatch, "frame \(frameCount) is \(frame.width)x\(frame.height) "
                + "(\(frame.pixels.count) bytes); this sequence is \(settings.sizeText)")
        }
        let file = output.temporaryPath + "/" + Self.frameName(frameCount)
        do {
            try PNGCodec.encode(frame, toFileAt: file)
        } catch let error as PNGError {
            throw fail(.writeFailed, "frame \(frameCount): \(error.reason)")
        }
        frameCount += 1
    }

    public func finish() throws {
        let output = try activeOutput()
        guard frameCount > 0 else {
            throw fail(.misuse, "no frames were appended; a sequence needs at least one")
        }
        // Past 100000 frames the numbers need more digits; widen every name so
        // they still sort.
        if Self.frameName(frameCount - 1) != Self.frameName(frameCount - 1, of: frameCount) {
            for index in 0..<frameCount {
                let from = output.temporaryPath + "/" + Self.frameName(index)
                let to = output.temporaryPath + "/" + Self.frameName(index, of: frameCount)
                if from != to, rename(from, to) != 0 {
                    throw fail(.writeFailed, "cannot rename \(from): \(AtomicOutput.describe(errno: errno))")
                }
            }
        }
        do {
            try output.commit()
        } catch {
            self.output = nil
            failure = "\(error)"
            throw error
        }
        self.output = nil
    }

    public func cancel() {
        output?.discard()
        output = nil
    }

    private func activeOutput() throws -> AtomicOutput {
        if let output { return output }
        throw EncoderError.noMoreFrames(path: directory, earlierFailure: failure)
    }

    private func fail(_ kind: EncoderError.Kind, _ reason: String) -> EncoderError {
        cancel()
        failure = reason
        return EncoderError(kind, path: directory, reason: reason)
    }
}
