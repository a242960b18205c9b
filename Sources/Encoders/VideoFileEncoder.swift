import Primitives

/// A video file through FFmpeg: `.mp4` (H.264), `.mov` (ProRes 4444) or
/// `.webm` (VP9); see `VideoWriter.Configuration` for each one's codec,
/// pixel format and tags. Frame i is at exactly i/fps seconds.
///
/// Outputs that carry alpha (ProRes and VP9 with a transparent background)
/// get straight alpha: the encoder thread un-premultiplies each frame
/// (`Unpremultiply`, the one implementation) before the shim converts it.
/// H.264 has no alpha: a translucent pixel shows as if composited over black.
/// H.264 needs even sides; an odd size is padded with the background (and
/// said in `warnings`) or refused, as `settings.oddSize` says.
///
/// Frames are encoded on a thread of their own (FFmpeg's encoders add
/// theirs) while the caller makes the next; see `StreamingEncoder`. Writes
/// `.<name>.partial-<random>` beside `path` and renames it over `path` in
/// `finish()`; see `AtomicOutput`.
///
/// With `settings.chunk`, the file is one part of a longer clip: its
/// container carries the chunk label (`VideoChunk`), `finish()` refuses a
/// frame count other than the label's, and `VideoChunkJoiner` joins the parts.
public final class VideoFileEncoder: StreamingFrameEncoder, @unchecked Sendable {
    public let path: String
    /// `.mp4`, `.mov` or `.webm`.
    public let format: OutputFormat
    public let settings: VideoSettings
    public let frameRate: FrameRate
    /// The size in the file: the frame size, or one more on an odd side
    /// H.264 padded.
    public let encodedWidth: Int
    public let encodedHeight: Int
    public let warnings: [String]
    /// Frames accepted so far.
    public var frameCount: Int { core.frameCount }

    let core: StreamingEncoder

    /// Checks the settings, then opens the temporary file and the encoder.
    /// Nothing is left behind when this throws.
    public init(path: String, format: OutputFormat = .mp4, settings: VideoSettings) throws {
        self.path = path
        self.format = format
        self.settings = settings
        frameRate = try settings.validateCommon(path: path)

        let configuration: VideoWriter.Configuration
        var warnings: [String] = []
        switch format {
        case .mp4:
            try settings.validateH264(path: path)
            let even = OddSizePolicy.evenSize(width: settings.width, height: settings.height)
            if even != (settings.width, settings.height) {
                let evenText = "\(even.width)x\(even.height)"
                switch settings.oddSize {
                case .refuse:
                    throw EncoderError(
                        .invalidSettings, path: path,
                        reason:
                            "H.264 yuv420p needs even width and height; \(settings.sizeText) is odd: "
                            + "let it be padded to \(evenText) with the background (--odd-size pad), "
                            + "change the canvas size or scale, or write .mov, .webm or a PNG sequence")
                case .pad:
                    warnings.append(
                        "'\(path)': padded \(settings.sizeText) to \(evenText) with the canvas "
                            + "background, as H.264 yuv420p needs even width and height "
                            + "(--odd-size refuse to stop instead)")
                }
            }
            configuration = .h264MP4(settings: settings, frameRate: frameRate, encodedSize: even)
        case .mov:
            try settings.validatePreset(path: path)
            configuration = .prores4444MOV(settings: settings, frameRate: frameRate)
        case .webm:
            try settings.validateVP9(path: path)
            configuration = .vp9WebM(settings: settings, frameRate: frameRate)
        case .gif, .pngSequence:
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "\(format) is not a video file format; use OutputFormat.encoder")
        }
        guard VideoWriter.hasEncoder(configuration.codecName) else {
            throw EncoderError(
                .writeFailed, path: path,
                reason:
                    "this FFmpeg build has no \(configuration.codecName) encoder; install an FFmpeg that has it")
        }
        encodedWidth = configuration.outputWidth ?? settings.width
        encodedHeight = configuration.outputHeight ?? settings.height
        self.warnings = warnings

        let output = try AtomicOutput(path: path, kind: .file, overwrite: settings.overwrite)
        let writer: VideoWriter
        do {
            writer = try VideoWriter(path: output.temporaryPath, configuration: configuration)
        } catch {
            output.discard()
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
        core = StreamingEncoder(
            path: path, width: settings.width, height: settings.height, noun: "video", output: output,
            sink: VideoWriterSink(
                writer: writer, path: path, straightAlpha: configuration.storesStraightAlpha,
                chunk: settings.chunk),
            // One frame encoding, one queued: enough to keep the encoder fed
            // while the caller fills a third.
            workers: 1, buffers: 2, threadName: "sr-\(format.rawValue)")
    }

    deinit {
        core.cancel()
    }

}

/// Frames into one `VideoWriter`, in order: the pipeline's single worker
/// hands each to the writer's own thread and waits, so that a cancel need
/// not wait for x264 (`WriterThread`).
private final class VideoWriterSink: FrameSink, @unchecked Sendable {
    private let writerThread = WriterThread(name: "sr-video-writer")
    private let path: String
    private let chunk: VideoChunk?
    /// Straight-alpha copy of the frame being written, allocated once, when
    /// the output keeps alpha; touched only on the writer's thread. A copy
    /// rather than converting the pipeline's buffer in place: with `exchange`
    /// the caller may still hold a reference to that buffer for a moment, and
    /// writing to it would then copy it.
    private var straight: [UInt8]?

    init(writer: VideoWriter, path: String, straightAlpha: Bool, chunk: VideoChunk?) {
        self.path = path
        self.chunk = chunk
        straight = straightAlpha ? [] : nil
        writerThread.hold(writer)
    }

    deinit {
        writerThread.end()
    }

    func consume(_ frame: Bitmap, index: Int) throws {
        do {
            try writerThread.perform { writer throws(VideoWriterError) in try self.write(frame, to: writer) }
        } catch {
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
    }

    func complete(frameCount: Int, isCancelled: () -> Bool) throws {
        if let chunk, chunk.frameCount != frameCount {
            throw EncoderError(
                .frameMismatch, path: path,
                reason:
                    "the chunk label says \(chunk.frameCount) frames (\(chunk.rangeText)) but \(frameCount) "
                    + "\(frameCount == 1 ? "was" : "were") appended; nothing was written")
        }
        do {
            try writerThread.perform { writer throws(VideoWriterError) in try writer.finishAndClose() }
        } catch {
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
        writerThread.end()
    }

    func interrupt() {
        writerThread.interrupt()
    }

    func abandon() {
        writerThread.end()
    }

    /// On the writer's thread.
    private func write(_ frame: Bitmap, to writer: VideoWriter) throws(VideoWriterError) {
        let result = frame.pixels.withUnsafeBytes { pixels in
            guard straight != nil else {
                return Result { () throws(VideoWriterError) in try writer.write(pixels, bytesPerRow: frame.bytesPerRow) }
            }
            if straight?.count != pixels.count { straight = [UInt8](repeating: 0, count: pixels.count) }
            return straight!.withUnsafeMutableBytes { converted in
                Unpremultiply.row(pixels.baseAddress!, into: converted.baseAddress!, count: frame.width * frame.height)
                return Result { () throws(VideoWriterError) in
                    try writer.write(UnsafeRawBufferPointer(converted), bytesPerRow: frame.bytesPerRow)
                }
            }
        }
        try result.get()
    }
}
