import Primitives

/// H.264 video in an MP4 file: libx264 at the settings' CRF and preset,
/// yuv420p converted by swscale with the BT.709 matrix and tagged BT.709
/// (primaries, transfer, matrix; limited range), the index (`moov`) at the
/// front of the file, frame i at exactly i/fps seconds.
///
/// Frames are premultiplied, and the video has no alpha, so a translucent
/// pixel shows as if composited over black.
///
/// Writes `.<name>.partial-<random>` beside `path` and renames it over `path`
/// in `finish()`; see `AtomicOutput`.
public final class MP4Encoder: FrameEncoder {
    public let path: String
    public let settings: VideoSettings
    public let frameRate: FrameRate
    /// Frames accepted so far.
    public private(set) var frameCount = 0

    private var output: AtomicOutput?
    private var writer: VideoWriter?
    private var failure: String?

    /// Checks the settings (even size for yuv420p, CRF, preset, frame rate),
    /// then opens the temporary file and the encoder. Nothing is left behind
    /// when this throws.
    public init(path: String, settings: VideoSettings) throws {
        self.path = path
        self.settings = settings
        frameRate = try settings.validateH264(path: path)
        guard VideoWriter.hasEncoder("libx264") else {
            throw EncoderError(.writeFailed, path: path, reason:
                "this FFmpeg build has no libx264 encoder; install an FFmpeg built with --enable-libx264")
        }
        let output = try AtomicOutput(path: path, kind: .file)
        do {
            writer = try VideoWriter(
                path: output.temporaryPath,
                configuration: .h264MP4(settings: settings, frameRate: frameRate))
        } catch {
            output.discard()
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
        self.output = output
    }

    deinit {
        cancel()
    }

    public func append(_ frame: Bitmap) throws {
        let writer = try activeWriter()
        guard frame.width == settings.width, frame.height == settings.height,
              frame.pixels.count == frame.width * frame.height * 4 else {
            throw fail(.frameMismatch, "frame \(frameCount) is \(frame.width)x\(frame.height) "
                + "(\(frame.pixels.count) bytes); this video is \(settings.sizeText)")
        }
        let result = frame.pixels.withUnsafeBytes { bytes in
            Result { () throws(VideoWriterError) in try writer.write(bytes, bytesPerRow: frame.bytesPerRow) }
        }
        if case .failure(let error) = result {
            throw fail(.writeFailed, error.message)
        }
        frameCount += 1
    }

    public func finish() throws {
        let writer = try activeWriter()
        guard frameCount > 0 else {
            throw fail(.misuse, "no frames were appended; a video needs at least one")
        }
        do {
            try writer.finish()
        } catch {
            throw fail(.writeFailed, error.message)
        }
        writer.close()
        self.writer = nil
        do {
            try output?.commit()
        } catch {
            output = nil
            failure = "\(error)"
            throw error
        }
        output = nil
    }

    public func cancel() {
        writer?.close()
        writer = nil
        output?.discard()
        output = nil
    }

    private func activeWriter() throws -> VideoWriter {
        if let writer { return writer }
        throw EncoderError.noMoreFrames(path: path, earlierFailure: failure)
    }

    /// Abandons the output and returns the error to throw.
    private func fail(_ kind: EncoderError.Kind, _ reason: String) -> EncoderError {
        cancel()
        failure = reason
        return EncoderError(kind, path: path, reason: reason)
    }
}
