/// One part of a clip rendered in parts (`--frames 0-99`, `--frames 100-199`
/// ..., maybe on several machines) that `VideoChunkJoiner` joins without
/// re-encoding: which frames of the clip it holds, and of which scene.
///
/// The video encoders write it into the container as a label
/// (`VideoChunkLabel`), under `metadataKey`, a key mp4 and mov keep with
/// `use_metadata_tags` and Matroska keeps as a tag of its own, so ffprobe
/// shows it for all three (`format_tags`).
public struct VideoChunk: Sendable, Hashable {
    /// The clip-wide index of the chunk's first frame.
    public var firstFrame: Int
    /// Frames in the chunk.
    public var frameCount: Int
    /// Frames in the whole clip.
    public var clipFrameCount: Int
    /// Names what was rendered (e.g. a hash of the scene file and the render
    /// options), computed by the caller and opaque here: parts join only when
    /// theirs are equal. 1 to 128 printable ASCII characters, no spaces.
    public var sceneDigest: String

    public init(firstFrame: Int, frameCount: Int, clipFrameCount: Int, sceneDigest: String) {
        self.firstFrame = firstFrame
        self.frameCount = frameCount
        self.clipFrameCount = clipFrameCount
        self.sceneDigest = sceneDigest
    }

    /// The container metadata key of the label. Matroska stores keys in
    /// capitals (`SHIFTRENDER_CHUNK`); readers match it without regard to case.
    public static let metadataKey = "shiftrender_chunk"

    /// The clip-wide index of the chunk's last frame (wrapping, not trapping,
    /// for a chunk that `validate` would refuse).
    public var lastFrame: Int { firstFrame &+ frameCount &- 1 }

    /// "frames 100-199", as messages name a chunk's range.
    public var rangeText: String { "frames \(firstFrame)-\(lastFrame)" }

    /// The label an encoder at `frameRate` writes for this chunk.
    public func label(frameRate: FrameRate) -> String {
        VideoChunkLabel(chunk: self, frameRate: frameRate).text
    }

    func validate(path: String) throws {
        func refuse(_ reason: String) -> EncoderError {
            EncoderError(.invalidSettings, path: path, reason: "chunk: \(reason)")
        }
        guard firstFrame >= 0 else { throw refuse("first frame \(firstFrame) is negative") }
        guard frameCount >= 1 else { throw refuse("a chunk holds at least one frame, not \(frameCount)") }
        guard clipFrameCount >= 1, frameCount <= clipFrameCount, firstFrame <= clipFrameCount - frameCount else {
            throw refuse("\(frameCount) frames from frame \(firstFrame) do not fit in a clip of \(clipFrameCount) frames")
        }
        guard Self.isValidDigest(sceneDigest) else {
            throw refuse("the scene digest must be 1 to 128 printable ASCII characters without spaces")
        }
    }

    static func isValidDigest(_ digest: String) -> Bool {
        (1 ... 128).contains(digest.utf8.count) && digest.utf8.allSatisfy { (0x21 ... 0x7E).contains($0) }
    }
}

/// A chunk label as stored in a file: the chunk and the frame rate it was
/// encoded at, as text `v1 frames=100-199 clip=600 rate=24/1 scene=<digest>`
/// (readable in ffprobe's output; `v1` lets a later format be told apart).
public struct VideoChunkLabel: Sendable, Hashable {
    public var chunk: VideoChunk
    public var frameRate: FrameRate

    public init(chunk: VideoChunk, frameRate: FrameRate) {
        self.chunk = chunk
        self.frameRate = frameRate
    }

    public var text: String {
        "v1 frames=\(chunk.firstFrame)-\(chunk.lastFrame) clip=\(chunk.clipFrameCount) "
            + "rate=\(frameRate.numerator)/\(frameRate.denominator) scene=\(chunk.sceneDigest)"
    }

    /// Parses `text`; nil unless it is a complete, consistent v1 label.
    public init?(text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 5, words[0] == "v1" else { return nil }
        var fields: [Substring: Substring] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            fields[word[..<equals]] = word[word.index(after: equals)...]
        }
        guard let frames = fields["frames"], let clipText = fields["clip"], let rate = fields["rate"],
            let digest = fields["scene"]
        else { return nil }
        let range = frames.split(separator: "-", omittingEmptySubsequences: false)
        let ratio = rate.split(separator: "/", omittingEmptySubsequences: false)
        guard range.count == 2, ratio.count == 2,
            let first = Int(range[0]), let last = Int(range[1]), let clip = Int(clipText),
            let numerator = Int(ratio[0]), let denominator = Int(ratio[1]),
            let frameRate = FrameRate(numerator: numerator, denominator: denominator),
            frameRate.numerator == numerator, frameRate.denominator == denominator,
            first >= 0, last >= first, last < clip
        else { return nil }
        let chunk = VideoChunk(
            firstFrame: first, frameCount: last - first + 1, clipFrameCount: clip,
            sceneDigest: String(digest))
        guard VideoChunk.isValidDigest(chunk.sceneDigest) else { return nil }
        self.init(chunk: chunk, frameRate: frameRate)
    }

    /// The label of the video file at `path`; nil when it has none or it is
    /// not a label. Throws `.unreadable` when the file cannot be read as a video.
    public static func read(fromFileAt path: String) throws -> VideoChunkLabel? {
        do {
            let reader = try PacketReader(path: path, labelKey: VideoChunk.metadataKey)
            return reader.label.flatMap(VideoChunkLabel.init(text:))
        } catch {
            throw EncoderError(.unreadable, path: path, reason: error.message)
        }
    }
}
