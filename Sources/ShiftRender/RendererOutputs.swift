import Compositor
import Encoders
import Foundation
import OutputFiles
import PNGCodec
import Primitives

extension Renderer {
    /// The encoder settings for this scene: its pixel size, frame rate and
    /// background, with every knob at its default. Change knobs on a copy and
    /// pass it to `render(to:settings:...)`.
    public func videoSettings() -> VideoSettings {
        VideoSettings(
            width: pixelWidth, height: pixelHeight, framesPerSecond: framesPerSecond,
            background: timeline.canvas.background)
    }

    /// Renders frames `frames` (default: all) to `path`, in the format its
    /// extension names (`OutputFormat`): .mp4, .mov, .webm, .gif, a folder
    /// (`frames/`) or a pattern (`f_%04d.png`) of PNGs. Frames stream from the
    /// compositor to the encoder, so memory does not grow with the clip.
    /// `progress` is called on this thread after each frame and at each stage.
    /// Nothing appears at `path` unless the render completes; on cancel or
    /// failure nothing is left behind. Returns warnings worth showing (e.g. an
    /// odd size padded for H.264).
    ///
    /// With `frames`, a video is a chunk: it is labelled with its frame range,
    /// the clip's length and the scene's digest, and starts on a keyframe, so
    /// that `VideoChunkJoiner` can join chunks rendered apart (on several
    /// machines) by stream copy. PNG frames keep the clip's frame numbers.
    @discardableResult
    public func render(
        to path: String, settings: VideoSettings? = nil, frames: ClosedRange<Int>? = nil,
        cancellation: RenderCancellation? = nil,
        progress: (RenderProgress) -> Void = { _ in }
    ) throws(RenderError) -> [String] {
        let range = try frameRange(frames)
        var settings = settings ?? videoSettings()
        guard settings.width == pixelWidth, settings.height == pixelHeight else {
            throw RenderError(
                .usage,
                "the settings are for \(settings.width)x\(settings.height) frames; "
                    + "this scene renders \(pixelWidth)x\(pixelHeight)")
        }
        settings.firstFrameNumber = range.lowerBound
        settings.expectedFrameCount = range.count
        if frames != nil {
            settings.chunk = VideoChunk(
                firstFrame: range.lowerBound, frameCount: range.count, clipFrameCount: frameCount,
                sceneDigest: SceneDigest.of(scene))
        }
        let cancellation = cancellation ?? RenderCancellation()
        try cancellation.check()
        let format: OutputFormat
        do {
            format = try OutputFormat.detect(path: path)
        } catch {
            throw Self.renderError(error)
        }
        // Checked before the encoder opens its temporary output or its codec.
        try refuseInputs(path, members: format == .pngSequence ? sequenceFiles(path, range) : [])
        try checkMemory(MemoryEstimate.encoder(format, settings: settings))
        let encoder: any FrameEncoder
        do {
            encoder = try format.encoder(path: path, settings: settings)
        } catch {
            throw Self.renderError(error)
        }
        var report = RenderProgress(stage: .preparing, framesDone: 0, frameCount: range.count)
        do {
            try cancellation.whileRunning(onCancel: { encoder.cancel() }) {
                progress(report)
                let compositor = try self.compositor(with: MemoryEstimate.encoder(format, settings: settings))
                try cancellation.check()
                var frame = Bitmap(width: settings.width, height: settings.height)
                var held = HeldFrame()
                report.stage = .frames
                // The next frame's list is made and prepared while this one is drawn (`FrameSequence`).
                var sequence = FrameSequence(renderer: compositor, frames: Array(range))
                while let (_, list) = sequence.next() {
                    try cancellation.check()
                    if !held.copy(list, into: &frame) { sequence.draw(into: &frame) }
                    // Hands the frame over and takes back a free buffer: compositing
                    // the next frame overlaps encoding this one, with no copy.
                    held.release()
                    let handedOver = frame
                    frame = try encoder.exchange(frame)
                    held.keep(list, handedOver)
                    report.framesDone += 1
                    progress(report)
                }
                report.stage = .finishing
                progress(report)
                try encoder.finish()
            }
        } catch {
            encoder.cancel()
            throw cancellation.isCancelled ? RenderError.cancelled : Self.renderError(error)
        }
        return encoder.warnings
    }

    /// A grid of up to 12 frames spread over `frames` (default: all), each
    /// labelled with its index and time. Frames are drawn into the sheet one at
    /// a time, so memory holds one frame besides the sheet.
    public func contactSheet(frames: ClosedRange<Int>? = nil, cancellation: RenderCancellation? = nil) throws(RenderError) -> Bitmap {
        let range = try frameRange(frames)
        let picked = ContactSheet.pick(range)
        let compositor = try self.compositor(with: try contactSheetMemory(frames: range))
        var sheet = ContactSheet(
            count: picked.count, frameWidth: pixelWidth, frameHeight: pixelHeight,
            fps: framesPerSecond, background: timeline.canvas.background)
        var frame = Bitmap(width: 0, height: 0)
        for (tile, index) in picked.enumerated() {
            try cancellation?.check()
            compositor.render(frame: index, into: &frame)
            sheet.draw(frame, index: index, tile: tile)
        }
        return sheet.sheet
    }

    /// The files a PNG sequence at `path` writes for `range`.
    func sequenceFiles(_ path: String, _ range: ClosedRange<Int>) -> [String] {
        let naming = PNGFrameNaming.pattern(path) ?? .directory(path)
        return range.map { naming.directory + "/" + naming.name($0) }
    }

    /// What a contact sheet of `frames` (default: all) holds besides drawing
    /// frames: add it to `memoryEstimate(adding:)` for the sheet's estimate.
    public func contactSheetMemory(frames: ClosedRange<Int>? = nil) throws(RenderError) -> MemoryEstimate {
        let count = ContactSheet.pick(try frameRange(frames)).count
        var estimate = MemoryEstimate()
        // Each frame is drawn into its tile as a source: a padded copy, and the levels an even
        // shrink builds (under one and a half frames).
        let frame = Double(pixelWidth) * Double(pixelHeight) * 4
        estimate.add(
            "contact sheet",
            Double(ContactSheet.byteCount(count: count, frameWidth: pixelWidth, frameHeight: pixelHeight))
                + 2.5 * frame)
        return estimate
    }

    /// `frames`, or the whole clip; `.usage` when it reaches past the end.
    func frameRange(_ frames: ClosedRange<Int>?) throws(RenderError) -> ClosedRange<Int> {
        let last = frameCount - 1
        guard let frames else { return 0 ... last }
        guard frames.lowerBound >= 0, frames.upperBound <= last else {
            throw RenderError(.usage, "frames \(frames.lowerBound)-\(frames.upperBound) is past the end: the clip has frames 0-\(last)")
        }
        return frames
    }

    static func renderError(_ error: any Error) -> RenderError {
        if let error = error as? RenderError { return error }
        if let error = error as? OutputError { return RenderError(error) }
        if let error = error as? EncoderError {
            switch error.kind {
            case .cancelled: return RenderError.cancelled
            case .unsupportedOutput, .invalidSettings: return RenderError(.usage, error.description)
            default: return RenderError(.output, error.description)
            }
        }
        return RenderError(.output, "\(error)")
    }
}

extension Renderer {
    /// Writes `bitmap` as a PNG at `path` (RGB when opaque, RGBA otherwise),
    /// under a temporary name renamed into place when complete. An existing
    /// file is replaced only with `overwrite`, and never when it is an input
    /// of a render (a scene file or an image) or read-only. `cancellation`
    /// is checked before and after the PNG is encoded, and after
    /// `AtomicOutput.stopCommits()` (a signal) the rename never comes: either
    /// way the target is as it was and `.cancelled` is thrown.
    public static func writePNG(
        _ bitmap: Bitmap, to path: String, overwrite: Bool = false, cancellation: RenderCancellation? = nil
    ) throws(RenderError) {
        try cancellation?.check()
        do {
            // The target is checked (and its temporary reserved) before the
            // encoding, which for a large picture takes a while.
            try AtomicOutput.writeFile(at: path, overwrite: overwrite) { temporary in
                let bytes = try PNGCodec.encode(bitmap)
                try cancellation?.check()
                // Written into the temporary file itself: it holds the output's lock,
                // so it must not be replaced by another file.
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
                defer { try? handle.close() }
                try handle.write(contentsOf: bytes)
            }
        } catch let error as OutputError {
            throw RenderError(error)
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError(.output, "\(error)")
        }
    }
}
