import CFFmpegShim

/// The Swift side of the shim's `sr_packet_reader`: the packets of one video
/// file's video stream, read without decoding. `interrupt()` may come from
/// any thread while this object is alive (the handle is freed only in deinit).
final class PacketReader: @unchecked Sendable {
    struct Packet {
        var pts: Int64?
        var dts: Int64?
        var duration: Int64
        var isKeyframe: Bool
    }

    let path: String
    /// FFmpeg's demuxer name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    let formatName: String
    /// ISO-BMFF major brand ("isom", "qt  "), empty for other containers.
    let majorBrand: String
    let streamCount: Int
    let codecName: String
    /// The video stream's time base, numerator and denominator.
    let timeBase: (Int, Int)
    /// The container metadata entry asked for at open, if present.
    let label: String?
    fileprivate let handle: OpaquePointer

    /// Opens `path`. Throws the shim's one-line message.
    init(path: String, labelKey: String?) throws(VideoWriterError) {
        var summary = sr_stream_summary()
        var opened: OpaquePointer?
        var message = [CChar](repeating: 0, count: 1024)
        let status = message.withUnsafeMutableBufferPointer {
            sr_packet_reader_open(path, labelKey, &opened, &summary, $0.baseAddress, $0.count)
        }
        guard status >= 0, let opened else { throw VideoWriterError(message: shimMessage(message)) }
        self.path = path
        handle = opened
        formatName = Self.text(summary.format_name)
        majorBrand = Self.text(summary.major_brand)
        streamCount = Int(summary.stream_count)
        codecName = Self.text(summary.codec_name)
        timeBase = (Int(summary.time_base_num), Int(summary.time_base_den))
        label = summary.has_label != 0 ? Self.text(summary.label) : nil
    }

    deinit {
        sr_packet_reader_free(handle)
    }

    /// The next packet of the video stream, nil at the end.
    func next() throws(VideoWriterError) -> Packet? {
        var info = sr_packet_info()
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer {
            sr_packet_reader_next(handle, &info, $0.baseAddress, $0.count)
        }
        if status < 0 { throw VideoWriterError(message: shimMessage(message)) }
        guard status > 0 else { return nil }
        return Packet(
            pts: info.pts == Int64.min ? nil : info.pts, dts: info.dts == Int64.min ? nil : info.dts,
            duration: info.duration, isKeyframe: info.keyframe != 0)
    }

    /// How this file's stream differs from `other`'s, this one's value first
    /// ("size 96x64, not 64x48"); nil when they could be one stream.
    func difference(from other: PacketReader) -> String? {
        var text = [CChar](repeating: 0, count: 512)
        let differs = text.withUnsafeMutableBufferPointer {
            sr_packet_reader_difference(handle, other.handle, $0.baseAddress, $0.count)
        }
        return differs == 0 ? nil : shimMessage(text)
    }

    func interrupt() {
        sr_packet_reader_interrupt(handle)
    }

    /// A fixed-size C string field as a Swift string.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// The Swift side of `sr_packet_writer`: a new file of one video stream shaped
/// like a reader's, taking that reader's packets unchanged with new
/// timestamps. `interrupt()` as `PacketReader`'s.
final class PacketWriter: @unchecked Sendable {
    private let handle: OpaquePointer

    init(
        path: String, formatName: String, model: PacketReader, frameRate: FrameRate,
        metadata: (key: String, value: String)?, formatOptions: String
    ) throws(VideoWriterError) {
        var opened: OpaquePointer?
        var message = [CChar](repeating: 0, count: 1024)
        let status = message.withUnsafeMutableBufferPointer {
            sr_packet_writer_open(
                path, formatName, model.handle, Int32(frameRate.numerator),
                Int32(frameRate.denominator), metadata?.key, metadata?.value, formatOptions,
                &opened, $0.baseAddress, $0.count)
        }
        guard status >= 0, let opened else { throw VideoWriterError(message: shimMessage(message)) }
        handle = opened
    }

    deinit {
        sr_packet_writer_free(handle)
    }

    /// Writes `reader`'s current packet with these timestamps (in its stream's time base).
    func write(from reader: PacketReader, pts: Int64, dts: Int64, duration: Int64) throws(VideoWriterError) {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer {
            sr_packet_writer_write(handle, reader.handle, pts, dts, duration, $0.baseAddress, $0.count)
        }
        if status < 0 { throw VideoWriterError(message: shimMessage(message)) }
    }

    /// Writes the trailer and closes the file.
    func finish() throws(VideoWriterError) {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer {
            sr_packet_writer_finish(handle, $0.baseAddress, $0.count)
        }
        if status < 0 { throw VideoWriterError(message: shimMessage(message)) }
    }

    func interrupt() {
        sr_packet_writer_interrupt(handle)
    }
}
