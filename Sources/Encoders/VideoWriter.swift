import CFFmpegShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift side of the C shim's `sr_video_writer`: one video file being
/// written by FFmpeg. Which container, codec and pixel format is data
/// (`Configuration`), so H.264 .mp4, ProRes 4444 .mov, VP9 .webm with alpha
/// and GIF are four configurations of one writer.
///
/// One thread at a time writes, finishes and closes; `interrupt()` may come
/// from any other thread at any moment while the writer is alive: the C
/// handle stays allocated until deinit, so the flag it sets is never freed
/// under the interrupting thread (closing releases FFmpeg's state only).
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
        /// The output keeps alpha, which it stores straight: the frames, which
        /// are premultiplied, are un-premultiplied before `write` (by
        /// `VideoWriterSink`; the shim converts pixels as they come).
        var storesStraightAlpha = false
        /// One container metadata entry, e.g. the chunk label.
        var metadata: (key: String, value: String)?
        /// Encoded size when larger than `width` x `height` (padding); nil: the same.
        var outputWidth: Int?
        var outputHeight: Int?
        /// Padding pixel, in the input's layout and premultiplication.
        var padColor: [UInt8] = [0, 0, 0, 255]
        /// Let the encoder take sizes its chroma subsampling does not divide.
        var allowOddSize = false
        /// Encoder threads; 0 lets FFmpeg choose.
        var threads = 0
        /// GIF: the palette every frame is mapped onto, 256 entries 0xAARRGGBB,
        /// and paletteuse's options.
        var palette: [UInt32]?
        var paletteOptions: String?

        /// H.264 (libx264) in MP4: yuv420p, BT.709 primaries, transfer and
        /// matrix in limited range, the index at the front for streaming.
        /// Frames are encoded as they are: premultiplied colour is the frame
        /// over black. `encodedSize` is even (padded) when the frames are not.
        /// x264's headers are "stitchable": they do not depend on the content
        /// or the CRF, so chunks encoded apart have identical headers and join
        /// (`VideoChunkJoiner`).
        static func h264MP4(
            settings: VideoSettings, frameRate: FrameRate,
            encodedSize: (width: Int, height: Int)
        ) -> Configuration {
            var c = Configuration(
                formatName: "mp4", codecName: "libx264", pixelFormat: "yuv420p",
                width: settings.width, height: settings.height, frameRate: frameRate,
                codecOptions: [
                    ("crf", String(settings.crf)), ("preset", settings.preset),
                    ("x264-params", "stitchable=1"),
                ],
                formatOptions: [("movflags", "+faststart" + (settings.chunk == nil ? "" : "+use_metadata_tags"))],
                colorPrimaries: "bt709", colorTransfer: "bt709", colorSpace: "bt709", colorRange: "tv"
            )
            c.outputWidth = encodedSize.width
            c.outputHeight = encodedSize.height
            c.padColor = settings.premultipliedBackground
            c.threads = settings.encoderThreads ?? 0
            c.metadata = settings.chunk.map { (VideoChunk.metadataKey, $0.label(frameRate: frameRate)) }
            return c
        }

        /// ProRes 4444 (prores_ks) in QuickTime, what video editors import:
        /// 10-bit 4:4:4 with a 16-bit alpha plane when the canvas is
        /// transparent (straight alpha, as ProRes defines it), without one
        /// otherwise; BT.709 tags; Apple's vendor id so Final Cut takes it
        /// as its own.
        static func prores4444MOV(settings: VideoSettings, frameRate: FrameRate) -> Configuration {
            let alpha = settings.isTransparent
            var c = Configuration(
                formatName: "mov", codecName: "prores_ks", pixelFormat: alpha ? "yuva444p10le" : "yuv444p10le",
                width: settings.width, height: settings.height, frameRate: frameRate,
                codecOptions: [("profile", "4444"), ("vendor", "apl0")] + (alpha ? [("alpha_bits", "16")] : []),
                formatOptions: settings.chunk == nil ? [] : [("movflags", "+use_metadata_tags")],
                colorPrimaries: "bt709", colorTransfer: "bt709", colorSpace: "bt709", colorRange: "tv"
            )
            c.storesStraightAlpha = alpha
            c.threads = settings.encoderThreads ?? 0
            c.metadata = settings.chunk.map { (VideoChunk.metadataKey, $0.label(frameRate: frameRate)) }
            return c
        }

        /// VP9 (libvpx) in WebM at constant quality (`vp9CRF`, bitrate
        /// unconstrained), yuva420p with straight alpha when the canvas is
        /// transparent (browsers play it with alpha), yuv420p otherwise; BT.709
        /// tags; odd sizes as they are (libvpx rounds chroma up).
        static func vp9WebM(settings: VideoSettings, frameRate: FrameRate) -> Configuration {
            let alpha = settings.isTransparent
            let speed = VP9Speed(preset: settings.preset)
            var c = Configuration(
                formatName: "webm", codecName: "libvpx-vp9", pixelFormat: alpha ? "yuva420p" : "yuv420p",
                width: settings.width, height: settings.height, frameRate: frameRate,
                codecOptions: [
                    ("crf", String(settings.vp9CRF)), ("b", "0"),
                    ("deadline", speed.deadline), ("cpu-used", String(speed.cpuUsed)), ("row-mt", "1"),
                ],
                colorPrimaries: "bt709", colorTransfer: "bt709", colorSpace: "bt709", colorRange: "tv"
            )
            c.storesStraightAlpha = alpha
            c.allowOddSize = true
            // libvpx uses one thread unless told otherwise.
            c.threads = settings.resolvedThreads
            c.metadata = settings.chunk.map { (VideoChunk.metadataKey, $0.label(frameRate: frameRate)) }
            return c
        }

        /// An animated GIF of `width` x `height` straight BGRA frames (the
        /// GIF spool's), mapped onto `palette` with `dither`, looping as
        /// `loopCount` says. The muxer turns the rate into delays in 1/100 s.
        static func gif(
            width: Int, height: Int, frameRate: FrameRate, palette: [UInt32],
            options: GIFOptions
        ) -> Configuration {
            var c = Configuration(
                formatName: "gif", codecName: "gif", pixelFormat: "pal8", inputPixelFormat: "bgra",
                width: width, height: height, frameRate: frameRate,
                formatOptions: [("loop", String(options.loopCount))]
            )
            c.palette = palette
            // diff_mode: only the rectangle that changed is re-dithered, so
            // still areas stay identical between frames and cost nothing.
            c.paletteOptions = options.dither.paletteUseOptions + ":diff_mode=rectangle:alpha_threshold=128"
            return c
        }
    }

    /// libvpx's speed for an x264 preset name, so one `--preset` serves both.
    struct VP9Speed {
        var deadline: String
        var cpuUsed: Int

        init(preset: String) {
            switch preset {
            case "ultrafast": (deadline, cpuUsed) = ("realtime", 8)
            case "superfast": (deadline, cpuUsed) = ("realtime", 7)
            case "veryfast": (deadline, cpuUsed) = ("realtime", 6)
            case "faster", "fast": (deadline, cpuUsed) = ("good", 5)
            case "slow": (deadline, cpuUsed) = ("good", 3)
            case "slower": (deadline, cpuUsed) = ("good", 2)
            case "veryslow", "placebo": (deadline, cpuUsed) = ("good", 1)
            default: (deadline, cpuUsed) = ("good", 4)
            }
        }
    }

    private let handle: OpaquePointer?
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
        config.output_width = Int32(clamping: c.outputWidth ?? 0)
        config.output_height = Int32(clamping: c.outputHeight ?? 0)
        config.pad_color = (c.padColor[0], c.padColor[1], c.padColor[2], c.padColor[3])
        config.allow_odd_size = c.allowOddSize ? 1 : 0
        config.thread_count = Int32(clamping: c.threads)
        config.palette_options = cString(c.paletteOptions)
        config.metadata_key = cString(c.metadata?.key)
        config.metadata_value = cString(c.metadata?.value)

        var opened: OpaquePointer?
        let status = (c.palette ?? []).withUnsafeBufferPointer { entries in
            config.palette = c.palette == nil ? nil : entries.baseAddress
            return sr_video_writer_open(&config, &opened, buffer, Self.errorBufferSize)
        }
        if status < 0 {
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

    /// Makes the `write` or `finish` in progress on another thread, and every
    /// later one, throw promptly: at the encoder's next packet, or the file's
    /// next I/O buffer. Safe from any thread while this object is alive.
    func interrupt() {
        sr_video_writer_interrupt(handle)
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

    /// Finishes and closes the file.
    func finishAndClose() throws(VideoWriterError) {
        try finish()
        close()
    }

    /// Closes the file now (without a trailer if unfinished) and releases
    /// FFmpeg's state. Not while another thread is in `write` or `finish`.
    func close() {
        sr_video_writer_close(handle)
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
