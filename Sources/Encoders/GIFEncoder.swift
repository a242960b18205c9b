import Primitives

/// An animated GIF, looping, small enough for a README: scaled to at most
/// `gif.maxWidth` pixels wide, at most `gif.maxFramesPerSecond` (frames
/// dropped evenly, see `GIFTiming`), on one 256-colour palette built for the
/// whole clip, dithered (`gif.dither`).
///
/// Two passes, memory flat in the clip's length: as frames arrive (on the
/// encoder thread) each kept frame is scaled, its colours counted into the
/// palette (palettegen) and written to an unnamed spool file beside the
/// output (`GIFSpool`); `finish()` then maps every spooled frame onto the
/// palette (paletteuse) and encodes it into the temporary GIF, which is
/// renamed into place. `cancel()` during that second pass stops it within a
/// frame (the writer is interrupted, and the pass checks between frames).
///
/// A transparent canvas gives a GIF with transparency (alpha below 128 is
/// transparent; GIF has no partial alpha); otherwise frames show over black.
public final class GIFEncoder: StreamingFrameEncoder, @unchecked Sendable {
    public let path: String
    public let settings: VideoSettings
    /// Which frames are kept and their delays.
    public let timing: GIFTiming
    /// The GIF's size.
    public let outputWidth: Int
    public let outputHeight: Int
    /// Frames accepted so far (before dropping).
    public var frameCount: Int { core.frameCount }

    let core: StreamingEncoder

    public init(path: String, settings: VideoSettings) throws {
        self.path = path
        self.settings = settings
        let rate = try settings.validateCommon(path: path)
        try settings.gif.validate(path: path)
        timing = GIFTiming(sourceRate: rate, maxFramesPerSecond: settings.gif.maxFramesPerSecond)
        (outputWidth, outputHeight) = settings.gif.outputSize(width: settings.width, height: settings.height)
        guard VideoWriter.hasEncoder("gif") else {
            throw EncoderError(.writeFailed, path: path, reason: "this FFmpeg build has no gif encoder")
        }

        let output = try AtomicOutput(path: path, kind: .file, overwrite: settings.overwrite)
        let sink: GIFSink
        do {
            sink = try GIFSink(
                path: path, temporaryPath: output.temporaryPath, directory: output.targetFolder,
                sourceWidth: settings.width, sourceHeight: settings.height,
                width: outputWidth, height: outputHeight, timing: timing,
                keepAlpha: settings.isTransparent, options: settings.gif)
        } catch {
            output.discard()
            throw error
        }
        core = StreamingEncoder(
            path: path, width: settings.width, height: settings.height, noun: "GIF", output: output,
            sink: sink, workers: 1, buffers: 2, threadName: "sr-gif")
    }

    deinit {
        core.cancel()
    }

}

/// Pass one in `consume`, pass two in `complete`.
private final class GIFSink: FrameSink, @unchecked Sendable {
    private let path: String
    private let temporaryPath: String
    private let width: Int
    private let height: Int
    private let timing: GIFTiming
    private let keepAlpha: Bool
    private let options: GIFOptions
    private let scaler: FrameScaler
    private var palette: PaletteBuilder?
    private let spool: GIFSpool
    private let writerThread = WriterThread(name: "sr-gif-writer")
    /// One scaled frame, reused for every frame in both passes (in the second,
    /// read here and written on the writer's thread, one after the other).
    private var scratch: [UInt8]

    init(
        path: String, temporaryPath: String, directory: String, sourceWidth: Int, sourceHeight: Int,
        width: Int, height: Int, timing: GIFTiming, keepAlpha: Bool, options: GIFOptions
    ) throws {
        self.path = path
        self.temporaryPath = temporaryPath
        self.width = width
        self.height = height
        self.timing = timing
        self.keepAlpha = keepAlpha
        self.options = options
        scaler = try FrameScaler(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight,
            width: width, height: height, path: path)
        palette = try PaletteBuilder(width: width, height: height, path: path)
        spool = try GIFSpool(directory: directory, frameBytes: width * height * 4, path: path)
        scratch = [UInt8](repeating: 0, count: width * height * 4)
    }

    deinit {
        writerThread.end()
    }

    func consume(_ frame: Bitmap, index: Int) throws {
        guard timing.keeps(index) else { return }
        guard let palette else { throw EncoderError(.misuse, path: path, reason: "the GIF was completed") }
        try scratch.withUnsafeMutableBytes { buffer in
            try scaler.scale(frame, into: buffer, keepAlpha: keepAlpha, path: path)
            try palette.add(UnsafeRawBufferPointer(buffer), bytesPerRow: width * 4, path: path)
            try spool.write(UnsafeRawBufferPointer(buffer), path: path)
        }
    }

    func complete(frameCount: Int, isCancelled: () -> Bool) throws {
        guard let builder = palette else { throw EncoderError(.misuse, path: path, reason: "the GIF was completed") }
        let entries = try builder.finish(path: path)
        palette = nil
        let writer: VideoWriter
        do {
            writer = try VideoWriter(
                path: temporaryPath,
                configuration: .gif(
                    width: width, height: height, frameRate: timing.frameRate, palette: entries, options: options))
        } catch {
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
        writerThread.hold(writer)
        do {
            for index in 0 ..< spool.frameCount {
                if isCancelled() { throw EncoderError.cancelled(path: path) }
                try scratch.withUnsafeMutableBytes { buffer in try spool.read(index, into: buffer, path: path) }
                // `self`, not the buffer: an interrupted write goes on after this returns.
                try writerThread.perform { writer throws(VideoWriterError) in try self.writeScratch(to: writer) }
            }
            try writerThread.perform { writer throws(VideoWriterError) in try writer.finishAndClose() }
        } catch let error as VideoWriterError {
            throw EncoderError(.writeFailed, path: path, reason: error.message)
        }
        writerThread.end()
        spool.close()
    }

    /// On the writer's thread.
    private func writeScratch(to writer: VideoWriter) throws(VideoWriterError) {
        let result = scratch.withUnsafeBytes { buffer in
            Result { () throws(VideoWriterError) in try writer.write(buffer, bytesPerRow: width * 4) }
        }
        try result.get()
    }

    func interrupt() {
        writerThread.interrupt()
    }

    func abandon() {
        writerThread.end()
        palette = nil
        spool.close()
    }
}
