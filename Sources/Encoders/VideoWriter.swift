import CFFmpegShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift side of the C shim's `sr_video_writer`: one video file being
/// written by FFmpeg. Which container, codec and pixel format is data
/// (`Configuration`), so ProRes 4444 .mov, VP9 .webm with alpha or GIF are
/// another configuration, not another writer.
final class VideoWriter {
    struct Configuration {
        var formatName: String
        var codecName: String
        var pixelFormat: String
        /// Byte layout of the frames handed to `write`.
        var inputPixelFormat = "rgba"
        var width: Int
        var height: Int
        var frameRate: FrameRate
        /// Encoder private options, e.g. `["crf": "18", "preset": "medium"]`.
        var codecOptions: [(String, String)] = []
        /// Muxer options, e.g. `["movflags": "+faststart"]`.
        var formatOptions: [(String, String)] = []
        var colorPrimaries: String?
        var colorTransfer: String?
        var colorSpace: String?
        var colorRange: String?

        /// H.264 (libx264) in MP4: yuv420p, BT.709 primaries, transfer and
        /// matrix in limited range, the index at the front for streaming.
        static func h264MP4(settings: VideoSettings, frameRate: FrameRate) -> Configuration {
            Configuration(
                formatName: "mp4", codecName: "libx264", pixelFormat: "yuv420p",
                width: settings.width, height: settings.height, frameRate: frameRate,
                codecOptions: [("crf", String(settings.crf)), ("preset", settings.preset)],
                formatOptions: [("movflags", "+faststart")],
                colorPrimaries: "bt709", colorTransfer: "bt709", colorSpace: "bt709", colorRange: "tv"
            )
        }
    }

    private var handle: OpaquePointer?
    /// One message buffer for the writer's lifetime, so writing a frame allocates nothing here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = 1024

    /// Opens `path` (creating or truncating it) and writes the container header.
    /// Throws the shim's message.
    init(path: String, configuration c: Configuration) throws(VideoWriterError) {
        // Locals until the end: a failed init must not run deinit on half a writer.
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.errorBufferSize)
        buffer.initialize(repeating: 0, count: Self.errorBufferSize)

        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        func cString(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            owned.append(copy)
            return UnsafePointer(copy)
        }
        func optionString(_ options: [(String, String)]) -> String {
            options.map { "\($0.0)=\($0.1)" }.joined(separator: ":")
        }

        var config = sr_video_writer_config()
        config.path = cString(path)
        config.format_name = cString(c.formatName)
        config.codec_name = cString(c.codecName)
        config.pixel_format = cString(c.pixelFormat)
        config.input_pixel_format = cString(c.inputPixelFormat)
        config.width = Int32(clamping: c.width)
        config.height = Int32(clamping: c.height)
        config.fps_num = Int32(clamping: c.frameRate.numerator)
        config.fps_den = Int32(clamping: c.frameRate.denominator)
        config.codec_options = cString(optionString(c.codecOptions))
        config.format_options = cString(optionString(c.formatOptions))
        config.color_primaries = cString(c.colorPrimaries)
        config.color_transfer = cString(c.colorTransfer)
        config.color_space = cString(c.colorSpace)
        config.color_range = cString(c.colorRange)

        var opened: OpaquePointer?
        if sr_video_writer_open(&config, &opened, buffer, Self.errorBufferSize) < 0 {
            let text = String(cString: buffer)
            buffer.deallocate()
            throw VideoWriterError(message: text.isEmpty ? "cannot open the video writer" : text)
        }
        handle = opened
        errorBuffer = buffer
    }

    deinit {
        sr_video_writer_free(handle)
        errorBuffer.deallocate()
    }

    var frameCount: Int { Int(sr_video_writer_frame_count(handle)) }

    /// Encodes one frame of `bytesPerRow`-strided pixels in the input pixel format.
    func write(_ pixels: UnsafeRawBufferPointer, bytesPerRow: Int) throws(VideoWriterError) {
        guard let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw VideoWriterError(message: "no pixels given")
        }
        if sr_video_writer_write(handle, base, bytesPerRow, errorBuffer, Self.errorBufferSize) < 0 {
            throw VideoWriterError(message: lastMessage(fallback: "cannot encode a frame"))
        }
    }

    /// Flushes the encoder and writes the trailer; the file is then complete.
    func finish() throws(VideoWriterError) {
        if sr_video_writer_finish(handle, errorBuffer, Self.errorBufferSize) < 0 {
            throw VideoWriterError(message: lastMessage(fallback: "cannot finish the video"))
        }
    }

    /// Closes the file now (without a trailer if unfinished) and releases FFmpeg's state.
    func close() {
        sr_video_writer_free(handle)
        handle = nil
    }

    private func lastMessage(fallback: String) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? fallback : text
    }

    /// Whether this FFmpeg build has the named encoder (e.g. "libx264").
    static func hasEncoder(_ name: String) -> Bool {
        sr_encoder_available(name) != 0
    }
}

/// A failure reported by the shim, already one line.
struct VideoWriterError: Error {
    let message: String
}
