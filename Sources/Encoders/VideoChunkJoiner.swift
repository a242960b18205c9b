import CFFmpegShim
import OutputFiles
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Joins the parts of a clip rendered in chunks (`--frames 0-99`,
/// `--frames 100-199`, ... on one machine or several) into one video, by
/// stream copy: the joined file's packets are exactly the chunks' packets,
/// nothing is decoded or re-encoded, so joining is as fast as copying the
/// files and loses nothing.
///
/// What joins: MP4 (H.264), MOV (ProRes) or WebM (VP9) parts from
/// `VideoFileEncoder` with a chunk label (`VideoSettings.chunk`), all of one
/// container, with the same scene digest, clip length and frame rate, without
/// gaps or overlaps, and with identical stream parameters
/// (codec, size, pixel format, colour tags, time base, alpha, codec headers).
/// Parts encoded at another CRF join: the CRF changes only the bitstream
/// (x264's headers are made "stitchable"), so a clip may be re-rendered in
/// part at another quality. Another preset or codec option usually changes
/// the headers and is refused. Everything is checked, by reading every part
/// through, before anything is written, and refusals name the parts involved
/// ("part2.mp4 starts at frame 150 but part1.mp4 ends at frame 99: frames
/// 100-149 are missing"). Parts may be given in any order: each knows its
/// range, so they are joined in frame order (`part-*.mp4` from a shell glob,
/// where `part-10` sorts before `part-9`, joins as it should).
///
/// The joined file: frame n of it has pts n frames on the chunks' time base
/// (rounded as FFmpeg rounds where the container's base is coarser, as
/// WebM's milliseconds), decode timestamps keep each chunk's B-frame
/// reordering and strictly increase, the duration is the frames' at the
/// rate, MP4 gets `+faststart`, and it is bit-exact. It carries a chunk label
/// for the joined range, so joined parts join again. It is written to a
/// temporary file beside `output` and renamed into place (`AtomicOutput`).
///
/// `cancel()` may come from any thread: the read or write in progress stops
/// at its next packet or I/O buffer, `join()` throws `.cancelled`, and
/// nothing is left behind.
public final class VideoChunkJoiner: @unchecked Sendable {
    /// The chunk files, as given (any order).
    public let parts: [String]
    public let output: String
    /// Whether a file already at `output` may be replaced.
    public let overwrite: Bool

    private let cancelled = Atomic<Bool>(false)
    private let state = ConditionLock()
    // Guarded by `state`.
    private var started = false
    private var running = false
    private var activeReader: PacketReader?
    private var activeWriter: PacketWriter?

    public init(parts: [String], output: String, overwrite: Bool = false) {
        self.parts = parts
        self.output = output
        self.overwrite = overwrite
    }

    /// Joins `parts` into `output`; see the type's documentation.
    @discardableResult
    public static func join(parts: [String], to output: String, overwrite: Bool = false) throws -> VideoChunkLabel {
        try VideoChunkJoiner(parts: parts, output: output, overwrite: overwrite).join()
    }

    /// Checks the parts, then writes the joined video. Returns its label (the
    /// joined range, which need not be the whole clip). Throws `EncoderError`:
    /// `.cannotJoin` naming the parts involved, `.unreadable` naming a part,
    /// `.targetNotEmpty` when `output` exists and `overwrite` is false,
    /// `.cannotJoin` (before anything is read) when `output` is one of the
    /// parts, whatever `overwrite` says, `.cancelled`. On any error the
    /// target is as it was. Call once.
    @discardableResult
    public func join() throws -> VideoChunkLabel {
        try begin()
        defer { end() }
        try checkCancelled()
        let container = try container()
        let partFiles = InputFiles(paths: parts)
        try checkOutputIsNoPart(partFiles)
        let survey = try surveyParts(container: container)
        // The parts are checked again when the joined file is put in place: one may have been renamed meanwhile.
        let target = try AtomicOutput(path: output, kind: .file, overwrite: overwrite, inputs: InputFiles.declared.union(partFiles))
        do {
            try write(survey, container: container, to: target.temporaryPath)
            try checkCancelled()
            try target.commit()
        } catch {
            target.discard()
            throw isCancelled ? EncoderError.cancelled(path: output) : error
        }
        return survey.joinedLabel
    }

    /// Stops a `join()` in progress on another thread (or refuses a later
    /// one) and returns once it has removed its temporary file. Safe from any
    /// thread, more than once; after `join()` returned it does nothing.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        state.withLock {
            activeReader?.interrupt()
            activeWriter?.interrupt()
            while running { state.wait() }
        }
    }

    // MARK: Checks

    private struct Part {
        let path: String
        let label: VideoChunkLabel
        /// Where its first frame lands in the joined video.
        let offset: Int64
        let packetCount: Int
    }

    private struct Survey {
        var parts: [Part]
        var joinedLabel: VideoChunkLabel
        var clock: FrameClock
    }

    private static let joinable: [OutputFormat] = [.mp4, .mov, .webm]

    /// The one container of the parts and the output.
    private func container() throws -> OutputFormat {
        guard !parts.isEmpty else { throw cannotJoin("no parts were given") }
        let format = try? OutputFormat.detect(path: output)
        guard let format, Self.joinable.contains(format) else {
            throw cannotJoin("the joined video must be .mp4, .mov or .webm, like its parts")
        }
        var seen = Set<String>()
        for part in parts {
            guard seen.insert(part).inserted else { throw cannotJoin("\(part) is given twice") }
            let partFormat = try? OutputFormat.detect(path: part)
            guard let partFormat, Self.joinable.contains(partFormat) else {
                throw cannotJoin("\(part) is \(Self.name(partFormat)): only MP4, MOV and WebM chunks join by stream copy")
            }
            guard partFormat == format else {
                throw cannotJoin(
                    "\(part) is \(Self.name(partFormat)) but the joined video is \(Self.name(format)): "
                        + "the parts and the joined video must be one container")
            }
        }
        return format
    }

    /// The joined video never replaces one of its parts, even with
    /// `overwrite`: compared by device and inode, so `./a.mp4`, or a symbolic
    /// or hard link to a part, counts as that part.
    private func checkOutputIsNoPart(_ partFiles: InputFiles) throws {
        guard partFiles.contains(output) else { return }
        let part = parts.first { InputFiles(paths: [$0]).contains(output) } ?? output
        throw cannotJoin(
            "it is the part '\(part)'; the joined video never replaces one of its parts (not even with --overwrite): "
                + "name another file")
    }

    /// The parts sorted by their labels' first frames (stable; a part without a
    /// readable label keeps its place, for the survey to refuse with its reason).
    private func partsInFrameOrder() throws -> [String] {
        var firstFrames: [String: Int] = [:]
        for path in parts {
            try checkCancelled()
            if let label = try? VideoChunkLabel.read(fromFileAt: path) { firstFrames[path] = label.chunk.firstFrame }
        }
        guard firstFrames.count == parts.count else { return parts }
        return parts.enumerated().sorted { a, b in
            let (x, y) = (firstFrames[a.element] ?? 0, firstFrames[b.element] ?? 0)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Reads every part through: labels, ranges, stream parameters, timestamps.
    private func surveyParts(container: OutputFormat) throws -> Survey {
        var surveyed: [Part] = []
        var first: (reader: PacketReader, label: VideoChunkLabel)?
        var lastDecodeTime: Int64?
        var clock: FrameClock?
        let ordered = try partsInFrameOrder()
        for path in ordered {
            try checkCancelled()
            let reader = try open(path)
            try checkContainer(reader, container)
            let label = try chunkLabel(reader)
            let offset: Int64
            if let first {
                try checkSameClip(label, path, as: first.label, ordered[0])
                try checkFollows(label, path, surveyed.last!)
                if let difference = reader.difference(from: first.reader) {
                    throw cannotJoin(
                        "\(path) differs from \(ordered[0]) in its \(difference); parts join only when "
                            + "encoded with the same settings (size, background, preset; the CRF may differ)")
                }
                offset = Int64(label.chunk.firstFrame - first.label.chunk.firstFrame)
            } else {
                first = (reader, label)
                clock = try FrameClock(frameRate: label.frameRate, timeBase: reader.timeBase, part: path, output: output)
                offset = 0
            }
            let count = try checkPackets(reader, label, offset: offset, clock: clock!, lastDecodeTime: &lastDecodeTime)
            surveyed.append(Part(path: path, label: label, offset: offset, packetCount: count))
            release(reader)
        }
        let head = surveyed[0].label
        let tail = surveyed[surveyed.count - 1].label.chunk
        let joined = VideoChunk(
            firstFrame: head.chunk.firstFrame, frameCount: tail.lastFrame - head.chunk.firstFrame + 1,
            clipFrameCount: head.chunk.clipFrameCount, sceneDigest: head.chunk.sceneDigest)
        return Survey(
            parts: surveyed, joinedLabel: VideoChunkLabel(chunk: joined, frameRate: head.frameRate),
            clock: clock!)
    }

    private func checkContainer(_ reader: PacketReader, _ container: OutputFormat) throws {
        let demuxer = reader.formatName
        let matches: Bool
        switch container {
        case .mp4: matches = demuxer.contains("mp4") && reader.majorBrand != "qt  "
        case .mov: matches = demuxer.contains("mov") && reader.majorBrand == "qt  "
        default: matches = demuxer.contains("webm")
        }
        guard matches else {
            throw cannotJoin(
                "\(reader.path) is not \(Self.name(container)) inside (FFmpeg reads it as "
                    + "\(demuxer)\(reader.majorBrand.isEmpty ? "" : ", brand '\(reader.majorBrand)'"))")
        }
        guard reader.streamCount == 1 else {
            throw cannotJoin("\(reader.path) has \(reader.streamCount) streams; chunks hold one video stream")
        }
    }

    private func chunkLabel(_ reader: PacketReader) throws -> VideoChunkLabel {
        guard let text = reader.label else {
            throw cannotJoin(
                "\(reader.path) has no chunk label: render each part with --frames A-B "
                    + "(shiftrender labels such parts with their range and scene), then join them")
        }
        guard let label = VideoChunkLabel(text: text) else {
            throw cannotJoin("\(reader.path) has a chunk label this version cannot read: '\(text)'")
        }
        return label
    }

    private func checkSameClip(
        _ label: VideoChunkLabel, _ path: String, as first: VideoChunkLabel, _ firstPath: String
    )
        throws
    {
        guard label.chunk.sceneDigest == first.chunk.sceneDigest else {
            throw cannotJoin(
                "\(path) was rendered from another scene or other options than \(firstPath) "
                    + "(scene digest \(label.chunk.sceneDigest), not \(first.chunk.sceneDigest))")
        }
        guard label.chunk.clipFrameCount == first.chunk.clipFrameCount else {
            throw cannotJoin(
                "\(path) belongs to a clip of \(label.chunk.clipFrameCount) frames but \(firstPath) "
                    + "to one of \(first.chunk.clipFrameCount)")
        }
        guard label.frameRate == first.frameRate else {
            throw cannotJoin("\(path) plays at \(label.frameRate) fps but \(firstPath) at \(first.frameRate)")
        }
    }

    /// Consecutive ranges, in the order given.
    private func checkFollows(_ label: VideoChunkLabel, _ path: String, _ previous: Part) throws {
        let chunk = label.chunk
        let before = previous.label.chunk
        if chunk.firstFrame == before.firstFrame && chunk.frameCount == before.frameCount {
            throw cannotJoin("\(path) and \(previous.path) both hold \(chunk.rangeText): give each range once")
        }
        if chunk.firstFrame < before.firstFrame {
            throw cannotJoin(
                "\(path) (\(chunk.rangeText)) comes before \(previous.path) (\(before.rangeText)) "
                    + "in the clip: give the parts in frame order")
        }
        if chunk.firstFrame > before.lastFrame + 1 {
            let missing =
                chunk.firstFrame - 1 == before.lastFrame + 1
                ? "frame \(before.lastFrame + 1) is missing" : "frames \(before.lastFrame + 1)-\(chunk.firstFrame - 1) are missing"
            throw cannotJoin(
                "\(path) starts at frame \(chunk.firstFrame) but \(previous.path) ends at frame "
                    + "\(before.lastFrame): \(missing)")
        }
        if chunk.firstFrame <= before.lastFrame {
            let last = min(before.lastFrame, chunk.lastFrame)
            throw cannotJoin(
                "\(path) starts at frame \(chunk.firstFrame) but \(previous.path) ends at frame "
                    + "\(before.lastFrame): frames \(chunk.firstFrame)-\(last) would be in the video twice")
        }
    }

    /// Reads a part's packets: a keyframe first, one packet per frame of its
    /// label's range at evenly spaced times, decode times increasing across
    /// the joined video. Returns the packet count.
    private func checkPackets(
        _ reader: PacketReader, _ label: VideoChunkLabel, offset: Int64, clock: FrameClock,
        lastDecodeTime: inout Int64?
    ) throws -> Int {
        let path = reader.path
        var frames = Set<Int64>()
        while let packet = try next(reader) {
            if frames.isEmpty && !packet.isKeyframe {
                throw cannotJoin(
                    "\(path) does not start on a keyframe, so it cannot be decoded on its own; "
                        + "render the part again")
            }
            guard let timing = clock.place(packet, offset: offset) else {
                throw cannotJoin(
                    "\(path) has a frame at pts \(packet.pts.map(String.init) ?? "none"), off the "
                        + "\(label.frameRate) fps grid of its time base \(clock.timeBase.0)/\(clock.timeBase.1)")
            }
            let local = timing.frame - offset
            guard local < Int64(label.chunk.frameCount), frames.insert(local).inserted else {
                throw cannotJoin(
                    "\(path) holds more frames than its label's \(label.chunk.frameCount) "
                        + "(\(label.chunk.rangeText)), or one twice")
            }
            if let lastDecodeTime, timing.dts <= lastDecodeTime {
                throw cannotJoin("\(path): its decode timestamps would not follow the previous part's")
            }
            lastDecodeTime = timing.dts
        }
        guard frames.count == label.chunk.frameCount else {
            throw cannotJoin(
                "\(path) holds \(frames.count) frames but its label says \(label.chunk.frameCount) "
                    + "(\(label.chunk.rangeText)): it may be cut short; render the part again")
        }
        return frames.count
    }

    // MARK: Writing

    private func write(_ survey: Survey, container: OutputFormat, to temporaryPath: String) throws {
        var model: PacketReader?
        var writer: PacketWriter?
        for part in survey.parts {
            try checkCancelled()
            let reader = try open(part.path)
            if let model {
                if reader.difference(from: model) != nil { throw changed(part.path) }
            } else {
                model = reader
                writer = try openWriter(temporaryPath, container: container, model: reader, label: survey.joinedLabel)
            }
            var count = 0
            while let packet = try next(reader) {
                try checkCancelled()
                guard let timing = survey.clock.place(packet, offset: part.offset) else { throw changed(part.path) }
                do {
                    try writer!.write(from: reader, pts: timing.pts, dts: timing.dts, duration: timing.duration)
                } catch {
                    throw EncoderError(.writeFailed, path: output, reason: error.message)
                }
                count += 1
            }
            guard count == part.packetCount else { throw changed(part.path) }
            if reader !== model { release(reader) }
        }
        do {
            try writer!.finish()
        } catch {
            throw EncoderError(.writeFailed, path: output, reason: error.message)
        }
    }

    private func openWriter(
        _ path: String, container: OutputFormat, model: PacketReader, label: VideoChunkLabel
    )
        throws -> PacketWriter
    {
        let formatName: String
        let options: String
        switch container {
        case .mp4: (formatName, options) = ("mp4", "movflags=+faststart+use_metadata_tags")
        case .mov: (formatName, options) = ("mov", "movflags=+use_metadata_tags")
        default: (formatName, options) = ("webm", "")
        }
        do {
            let writer = try PacketWriter(
                path: path, formatName: formatName, model: model, frameRate: label.frameRate,
                metadata: (VideoChunk.metadataKey, label.text), formatOptions: options)
            track(writer: writer)
            return writer
        } catch {
            throw EncoderError(.writeFailed, path: output, reason: error.message)
        }
    }

    // MARK: Helpers

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    private func checkCancelled() throws {
        if isCancelled { throw EncoderError.cancelled(path: output) }
    }

    private func begin() throws {
        try state.withLock {
            guard !started else {
                throw EncoderError(.misuse, path: output, reason: "join() runs once; make another joiner")
            }
            started = true
            running = true
        }
    }

    private func end() {
        state.withLock {
            running = false
            activeReader = nil
            activeWriter = nil
            state.broadcast()
        }
    }

    private func open(_ path: String) throws -> PacketReader {
        let reader: PacketReader
        do {
            reader = try PacketReader(path: path, labelKey: VideoChunk.metadataKey)
        } catch {
            throw isCancelled ? EncoderError.cancelled(path: output) : EncoderError(.unreadable, path: path, reason: error.message)
        }
        state.withLock {
            activeReader = reader
            if isCancelled { reader.interrupt() }
        }
        return reader
    }

    private func release(_ reader: PacketReader) {
        state.withLock { if activeReader === reader { activeReader = nil } }
    }

    private func track(writer: PacketWriter) {
        state.withLock {
            activeWriter = writer
            if isCancelled { writer.interrupt() }
        }
    }

    private func next(_ reader: PacketReader) throws -> PacketReader.Packet? {
        do {
            return try reader.next()
        } catch {
            throw isCancelled
                ? EncoderError.cancelled(path: output)
                : EncoderError(.unreadable, path: reader.path, reason: error.message)
        }
    }

    private func cannotJoin(_ reason: String) -> EncoderError {
        EncoderError(.cannotJoin, path: output, reason: reason)
    }

    private func changed(_ path: String) -> EncoderError {
        cannotJoin("\(path) changed while the parts were being joined")
    }

    private static func name(_ format: OutputFormat?) -> String {
        switch format {
        case .mp4: return "MP4"
        case .mov: return "MOV"
        case .webm: return "WebM"
        case .gif: return "a GIF"
        case .pngSequence: return "a PNG sequence"
        case nil: return "not a video file this module writes"
        }
    }
}

/// Frame index <-> timestamp at a constant rate on a stream's time base,
/// rounded to nearest as FFmpeg rounds when it rescales (so WebM's
/// millisecond times at 24 fps are 0, 42, 83, 125...).
struct FrameClock {
    let frameRate: FrameRate
    let timeBase: (Int, Int)

    init(frameRate: FrameRate, timeBase: (Int, Int), part: String, output: String) throws {
        guard timeBase.0 > 0, timeBase.1 > 0, timeBase.0 <= Int(Int32.max), timeBase.1 <= Int(Int32.max) else {
            throw EncoderError(.cannotJoin, path: output, reason: "\(part) has no usable time base")
        }
        self.frameRate = frameRate
        self.timeBase = timeBase
    }

    func timestamp(ofFrame index: Int64) -> Int64 {
        sr_rescale(index, Int32(frameRate.denominator), Int32(frameRate.numerator), Int32(timeBase.0), Int32(timeBase.1))
    }

    /// Where a part's packet goes in the joined video: its frame (the part's
    /// frame plus `offset`), pts, dts moved by as much as its pts, and
    /// duration. nil when its pts is not on the frame grid.
    func place(
        _ packet: PacketReader.Packet, offset: Int64
    )
        -> (frame: Int64, pts: Int64, dts: Int64, duration: Int64)?
    {
        guard let pts = packet.pts, let dts = packet.dts else { return nil }
        let local = sr_rescale(
            pts, Int32(timeBase.0), Int32(timeBase.1), Int32(frameRate.denominator),
            Int32(frameRate.numerator))
        guard local >= 0, local < Int64(Int32.max), timestamp(ofFrame: local) == pts else { return nil }
        let frame = local + offset
        let joinedPts = timestamp(ofFrame: frame)
        let (joinedDts, overflow) = dts.addingReportingOverflow(joinedPts - pts)
        guard !overflow, joinedDts <= joinedPts else { return nil }
        return (frame, joinedPts, joinedDts, timestamp(ofFrame: frame + 1) - joinedPts)
    }
}
