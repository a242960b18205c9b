import Encoders
import Foundation
import Primitives
import Testing

/// A clip rendered in labelled chunks joins, by stream copy, into the video
/// one render would have made; parts that do not make one video are refused
/// before anything is written.
@Suite("Chunks: labels and joining")
struct ChunkJoinTests {
    static let frames = transitionLikeFrames(width: 64, height: 48, count: 30, alpha: true)

    static func settings(
        preset: String = "medium", crf: Int = 18, transparent: Bool = false,
        width: Int = 64, height: Int = 48
    ) -> VideoSettings {
        VideoSettings(
            width: width, height: height, framesPerSecond: 24, crf: crf, preset: preset,
            background: transparent ? .clear : .black, encoderThreads: 1)
    }

    @Test("the label is in the container, for ffprobe and for VideoChunkLabel.read", arguments: ["mp4", "mov", "webm"])
    func labelIsVisible(ext: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/part.\(ext)"
            try encodeChunk(Self.frames, 10 ... 19, to: path, settings: Self.settings(preset: "ultrafast"))
            let expected = "v1 frames=10-19 clip=30 rate=24/1 scene=sha256:0123abcd"
            #expect(try formatTags(path)[VideoChunk.metadataKey] == expected)
            let label = try #require(try VideoChunkLabel.read(fromFileAt: path))
            #expect(
                label.chunk
                    == VideoChunk(
                        firstFrame: 10, frameCount: 10, clipFrameCount: 30,
                        sceneDigest: "sha256:0123abcd"))
            #expect(label.frameRate == FrameRate(numerator: 24, denominator: 1))
            #expect(label.text == expected)
            try encodeWhole(Array(Self.frames.prefix(3)), to: dir + "/plain.\(ext)", settings: Self.settings(preset: "ultrafast"))
            #expect(try VideoChunkLabel.read(fromFileAt: dir + "/plain.\(ext)") == nil)
        }
    }

    @Test(
        "labels parse only when whole and consistent",
        arguments: [
            "v1 frames=0-9 clip=10 rate=24/1 scene=x", "v2 frames=0-9 clip=10 rate=24/1 scene=x",
            "v1 frames=5-4 clip=10 rate=24/1 scene=x", "v1 frames=0-10 clip=10 rate=24/1 scene=x",
            "v1 frames=0-9 clip=10 rate=48/2 scene=x", "v1 frames=0-9 clip=10 rate=24/1", "",
            "v1 frames=0-9223372036854775807 clip=9223372036854775807 rate=24/1 scene=x",
        ])
    func labelParsing(text: String) {
        let label = VideoChunkLabel(text: text)
        #expect((label != nil) == (text == "v1 frames=0-9 clip=10 rate=24/1 scene=x"), "\(text)")
        #expect(label.map { $0.text == text } ?? true)
    }

    struct Join: CustomTestStringConvertible, Sendable {
        var ext: String
        var preset: String
        var transparent: Bool
        var testDescription: String { "\(ext) \(preset)\(transparent ? " with alpha" : "")" }
    }

    @Test(
        "three chunks join into 30 evenly timed frames: the chunks' packets, decoding as the chunks do",
        arguments: [
            Join(ext: "mp4", preset: "medium", transparent: false),
            Join(ext: "webm", preset: "ultrafast", transparent: true),
            Join(ext: "mov", preset: "medium", transparent: true),
        ])
    func joinThreeChunks(c: Join) throws {
        try withTemporaryDirectory { dir in
            let settings = Self.settings(preset: c.preset, transparent: c.transparent)
            let parts = [0 ... 9, 10 ... 19, 20 ... 29].enumerated().map { dir + "/p\($0.offset + 1).\(c.ext)" }
            for (part, range) in zip(parts, [0 ... 9, 10 ... 19, 20 ... 29]) {
                try encodeChunk(Self.frames, range, to: part, settings: settings)
            }
            let joined = dir + "/joined.\(c.ext)"
            let label = try VideoChunkJoiner.join(parts: parts, to: joined)
            #expect(label.text == "v1 frames=0-29 clip=30 rate=24/1 scene=sha256:0123abcd")
            #expect(try formatTags(joined)[VideoChunk.metadataKey] == label.text)
            #expect(try contents(of: dir) == ["joined.\(c.ext)", "p1.\(c.ext)", "p2.\(c.ext)", "p3.\(c.ext)"])

            // The packets are the chunks' packets, in the chunks' order.
            #expect(try packetHashes(joined) == parts.flatMap { try packetHashes($0) })
            // Frame n at pts n frames on the time base; decode times increasing.
            let (packets, base) = try probePackets(joined)
            #expect(packets.count == 30)
            let expectedPTS = (0 ..< 30).map { Int((Double($0) * Double(base.1) / (24 * Double(base.0))).rounded()) }
            #expect(packets.map(\.pts).sorted() == expectedPTS)
            #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.dts < $1.dts }, "\(packets.map(\.dts))")
            #expect(packets.enumerated().filter { $0.element.isKeyframe }.map(\.offset).starts(with: [0]))
            for start in [10, 20] { #expect(packets[start].isKeyframe, "each chunk starts on a keyframe") }
            if c.ext == "mp4" {
                #expect(packets.map(\.pts) != packets.map(\.pts).sorted(), "B-frames: decode order is not display order")
            }
            let info = try probe(joined)
            #expect(info.int("nb_read_frames") == 30)
            #expect(info.string("r_frame_rate") == "24/1")
            let duration = try #require(info.duration)
            #expect(abs(duration - 1.25) < 0.002, "duration \(duration)")

            // Decoding the joined video gives each chunk's decoded frames, close to the source.
            let decode = { (path: String) in
                try decodeRaw(
                    path, pixelFormat: "rgba", bytesPerPixel: 4, width: 64, height: 48,
                    inputOptions: c.ext == "webm" ? ["-c:v", "libvpx-vp9"] : [])
            }
            let decoded = try decode(joined)
            #expect(try decoded == parts.flatMap { try decode($0) })
            for (frame, source) in zip(decoded, Self.frames) {
                let reference = c.transparent ? source.unpremultipliedPixels() : source.pixels
                let rgb = { (pixels: [UInt8]) in pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }
                #expect(psnr(rgb(frame), rgb(reference)) > 30, "PSNR \(psnr(rgb(frame), rgb(reference)))")
            }
        }
    }

    @Test("the joined MP4 has its index first (faststart) and the same bytes every time")
    func joinedMP4IsFaststartAndRepeatable() throws {
        try withTemporaryDirectory { dir in
            let parts = [dir + "/a.mp4", dir + "/b.mp4"]
            try encodeChunk(Self.frames, 0 ... 14, to: parts[0], settings: Self.settings(preset: "veryfast"))
            try encodeChunk(Self.frames, 15 ... 29, to: parts[1], settings: Self.settings(preset: "veryfast"))
            try VideoChunkJoiner.join(parts: parts, to: dir + "/one.mp4")
            try VideoChunkJoiner.join(parts: parts, to: dir + "/two.mp4")
            let boxes = topLevelBoxes(try fileBytes(dir + "/one.mp4"))
            #expect(try #require(boxes.firstIndex(of: "moov")) < (try #require(boxes.firstIndex(of: "mdat"))), "\(boxes)")
            #expect(try fileBytes(dir + "/one.mp4") == fileBytes(dir + "/two.mp4"))
        }
    }

    @Test(
        "at 29.97 fps too, frame n of the joined video is at n frames, rounded as FFmpeg rounds",
        arguments: ["mp4", "webm"])
    func fractionalRate(ext: String) throws {
        try withTemporaryDirectory { dir in
            var settings = Self.settings(preset: "ultrafast")
            settings.framesPerSecond = 29.97
            let parts = [dir + "/a.\(ext)", dir + "/b.\(ext)", dir + "/c.\(ext)"]
            for (part, range) in zip(parts, [0 ... 10, 11 ... 11, 12 ... 29]) {
                try encodeChunk(Self.frames, range, to: part, settings: settings)
            }
            try VideoChunkJoiner.join(parts: parts, to: dir + "/j.\(ext)")
            let (packets, base) = try probePackets(dir + "/j.\(ext)")
            let expected = (0 ..< 30).map { Int((Double($0) * 1001 * Double(base.1) / (30000 * Double(base.0))).rounded()) }
            #expect(packets.map(\.pts) == expected)
            #expect(try probe(dir + "/j.\(ext)").string("r_frame_rate") == "30000/1001")
            let duration = try #require(try probe(dir + "/j.\(ext)").duration)
            #expect(abs(duration - 1.001) < 0.002, "duration \(duration)")
        }
    }

    @Test("parts at different CRFs join: the CRF changes only the bitstream")
    func differentCRFJoin() throws {
        try withTemporaryDirectory { dir in
            let parts = [dir + "/a.mp4", dir + "/b.mp4"]
            try encodeChunk(Self.frames, 0 ... 14, to: parts[0], settings: Self.settings(crf: 18))
            try encodeChunk(Self.frames, 15 ... 29, to: parts[1], settings: Self.settings(crf: 30))
            try VideoChunkJoiner.join(parts: parts, to: dir + "/joined.mp4")
            #expect(try probe(dir + "/joined.mp4").int("nb_read_frames") == 30)
        }
    }

    @Test("joined parts join again: the joined file carries the label of its range")
    func joinedPartsJoinAgain() throws {
        try withTemporaryDirectory { dir in
            let parts = (0 ..< 3).map { dir + "/p\($0).webm" }
            for (part, range) in zip(parts, [0 ... 9, 10 ... 19, 20 ... 29]) {
                try encodeChunk(Self.frames, range, to: part, settings: Self.settings(preset: "ultrafast"))
            }
            let head = try VideoChunkJoiner.join(parts: Array(parts.prefix(2)), to: dir + "/head.webm")
            #expect(head.chunk.rangeText == "frames 0-19")
            try VideoChunkJoiner.join(parts: [dir + "/head.webm", parts[2]], to: dir + "/all.webm")
            #expect(try packetHashes(dir + "/all.webm") == parts.flatMap { try packetHashes($0) })
        }
    }
}

extension ChunkJoinTests {
    @Test("parts given out of order (as a shell glob orders part-10 before part-9) join in frame order, byte for byte")
    func anyOrder() throws {
        try withTemporaryDirectory { dir in
            let settings = Self.settings(preset: "ultrafast", width: 64)
            let ranges = [0 ... 9, 10 ... 19, 20 ... 29]
            let parts = ranges.indices.map { dir + "/p\($0).mp4" }
            for (range, path) in zip(ranges, parts) { try encodeChunk(Self.frames, range, to: path, settings: settings) }
            try VideoChunkJoiner.join(parts: parts, to: dir + "/ordered.mp4")
            try VideoChunkJoiner.join(parts: [parts[2], parts[0], parts[1]], to: dir + "/shuffled.mp4")
            #expect(try fileBytes(dir + "/shuffled.mp4") == fileBytes(dir + "/ordered.mp4"))
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        /// (file name, frames, preset, width) of each part, in the order given to the joiner.
        var parts: [(String, ClosedRange<Int>, String, Int)]
        var output = "joined.mp4"
        var message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "gap", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mp4", 15 ... 29, "ultrafast", 64)],
            message: "P/p2.mp4 starts at frame 15 but P/p1.mp4 ends at frame 9: frames 10-14 are missing"),
        Refusal(
            name: "one frame missing", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mp4", 11 ... 29, "ultrafast", 64)],
            message: "P/p2.mp4 starts at frame 11 but P/p1.mp4 ends at frame 9: frame 10 is missing"),
        Refusal(
            name: "overlap", parts: [("p1.mp4", 0 ... 14, "ultrafast", 64), ("p2.mp4", 10 ... 29, "ultrafast", 64)],
            message: "P/p2.mp4 starts at frame 10 but P/p1.mp4 ends at frame 14: frames 10-14 would be in the video twice"),
        Refusal(
            name: "same range twice", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mp4", 0 ... 9, "ultrafast", 64)],
            message: "P/p2.mp4 and P/p1.mp4 both hold frames 0-9: give each range once"),
        Refusal(
            name: "same file twice", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p1.mp4", 0 ... 9, "ultrafast", 64)],
            message: "P/p1.mp4 is given twice"),
        Refusal(
            name: "other preset", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mp4", 10 ... 29, "medium", 64)],
            message: "P/p2.mp4 differs from P/p1.mp4 in its profile High, not Constrained Baseline; parts join only "
                + "when encoded with the same settings"),
        Refusal(
            name: "other size", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mp4", 10 ... 29, "ultrafast", 96)],
            message: "P/p2.mp4 differs from P/p1.mp4 in its size 96x48, not 64x48"),
        Refusal(
            name: "mixed containers", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.mov", 10 ... 29, "ultrafast", 64)],
            message: "P/p2.mov is MOV but the joined video is MP4: the parts and the joined video must be one container"),
        Refusal(
            name: "output of another container", parts: [("p1.webm", 0 ... 9, "ultrafast", 64)], output: "joined.mp4",
            message: "P/p1.webm is WebM but the joined video is MP4"),
        Refusal(
            name: "a GIF part", parts: [("p1.gif", 0 ... 9, "ultrafast", 64), ("p2.gif", 10 ... 29, "ultrafast", 64)],
            output: "joined.gif", message: "the joined video must be .mp4, .mov or .webm, like its parts"),
        Refusal(
            name: "a GIF among MP4s", parts: [("p1.mp4", 0 ... 9, "ultrafast", 64), ("p2.gif", 10 ... 29, "ultrafast", 64)],
            message: "P/p2.gif is a GIF: only MP4, MOV and WebM chunks join by stream copy"),
    ]

    @Test("parts that do not make one video are refused, naming them, and nothing is written", arguments: refusals)
    func refused(c: Refusal) throws {
        try withTemporaryDirectory { dir in
            var paths: [String] = []
            for (name, range, preset, width) in c.parts {
                let path = dir + "/" + name
                if !FileManager.default.fileExists(atPath: path) {
                    let frames = width == 64 ? Self.frames : transitionLikeFrames(width: width, height: 48, count: 30)
                    try encodeChunk(frames, range, to: path, settings: Self.settings(preset: preset, width: width))
                }
                paths.append(path)
            }
            let before = try contents(of: dir)
            let output = dir + "/" + c.output
            let error = try #require(throws: EncoderError.self) { try VideoChunkJoiner.join(parts: paths, to: output) }
            #expect(error.kind == .cannotJoin)
            #expect(error.path == output)
            #expect(error.reason.contains(c.message.replacingOccurrences(of: "P/", with: dir + "/")), "\(error.reason)")
            #expect(!error.description.contains("\n"))
            #expect(try contents(of: dir) == before, "nothing written")
        }
    }

    @Test("a part without a label, or of another scene, is refused with what to do")
    func unlabelledOrForeign() throws {
        try withTemporaryDirectory { dir in
            try encodeChunk(Self.frames, 0 ... 9, to: dir + "/p1.webm", settings: Self.settings(preset: "ultrafast"))
            try encodeWhole(Array(Self.frames[10...]), to: dir + "/p2.webm", settings: Self.settings(preset: "ultrafast"))
            try encodeChunk(
                Self.frames, 10 ... 29, to: dir + "/p3.webm", settings: Self.settings(preset: "ultrafast"),
                digest: "sha256:ffff")
            let unlabelled = try #require(throws: EncoderError.self) {
                try VideoChunkJoiner.join(parts: [dir + "/p1.webm", dir + "/p2.webm"], to: dir + "/j.webm")
            }
            #expect(
                unlabelled.reason == "\(dir)/p2.webm has no chunk label: render each part with --frames A-B "
                    + "(shiftrender labels such parts with their range and scene), then join them")
            let foreign = try #require(throws: EncoderError.self) {
                try VideoChunkJoiner.join(parts: [dir + "/p1.webm", dir + "/p3.webm"], to: dir + "/j.webm")
            }
            #expect(
                foreign.reason.contains("p3.webm was rendered from another scene or other options than"),
                "\(foreign.reason)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/j.webm"))
        }
    }

    @Test("a part cut short, or not starting on a keyframe, is refused")
    func damagedParts() throws {
        try withTemporaryDirectory { dir in
            let settings = Self.settings(preset: "ultrafast")
            try encodeChunk(Self.frames, 0 ... 9, to: dir + "/p1.mp4", settings: settings)
            try encodeChunk(Self.frames, 10 ... 29, to: dir + "/p2.mp4", settings: settings)
            // Remuxed by ffmpeg keeping the label: the first 12 packets only, or all but the first.
            let keep = ["-map_metadata", "0", "-movflags", "+use_metadata_tags", "-c", "copy"]
            let short = try run(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", dir + "/p2.mp4"] + keep
                    + ["-frames:v", "12", dir + "/short.mp4"])
            #expect(short.status == 0, "\(short.stderr)")
            let late = try run(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-i", dir + "/p2.mp4", "-ss", "0.1", "-copyinkf"]
                    + keep + [dir + "/late.mp4"])
            #expect(late.status == 0, "\(late.stderr)")
            let cut = try #require(throws: EncoderError.self) {
                try VideoChunkJoiner.join(parts: [dir + "/p1.mp4", dir + "/short.mp4"], to: dir + "/j.mp4")
            }
            #expect(cut.reason.contains("short.mp4 holds 12 frames but its label says 20 (frames 10-29)"), "\(cut.reason)")
            let unkeyed = try #require(throws: EncoderError.self) {
                try VideoChunkJoiner.join(parts: [dir + "/p1.mp4", dir + "/late.mp4"], to: dir + "/j.mp4")
            }
            #expect(unkeyed.reason.contains("late.mp4 does not start on a keyframe"), "\(unkeyed.reason)")
        }
    }

    @Test("an existing output is replaced only when allowed; a missing part is named")
    func outputAndMissingParts() throws {
        try withTemporaryDirectory { dir in
            let parts = [dir + "/a.mov", dir + "/b.mov"]
            try encodeChunk(Self.frames, 0 ... 9, to: parts[0], settings: Self.settings())
            try encodeChunk(Self.frames, 10 ... 29, to: parts[1], settings: Self.settings())
            try writeBytes([1, 2, 3], to: dir + "/j.mov")
            let exists = try #require(throws: EncoderError.self) { try VideoChunkJoiner.join(parts: parts, to: dir + "/j.mov") }
            #expect(exists.kind == .targetNotEmpty)
            #expect(try fileBytes(dir + "/j.mov") == [1, 2, 3])
            try VideoChunkJoiner.join(parts: parts, to: dir + "/j.mov", overwrite: true)
            #expect(try probe(dir + "/j.mov").int("nb_read_frames") == 30)

            let missing = try #require(throws: EncoderError.self) {
                try VideoChunkJoiner.join(parts: [parts[0], dir + "/gone.mov"], to: dir + "/k.mov")
            }
            #expect(missing.kind == .unreadable)
            #expect(missing.description.hasPrefix("cannot read '\(dir)/gone.mov': "), "\(missing)")
            #expect(missing.description.contains("No such file or directory"), "\(missing)")
        }
    }

    @Test("an encoder refuses a chunk whose frame count differs from its label, and invalid chunks")
    func chunkFrameCountAndValidation() throws {
        try withTemporaryDirectory { dir in
            var settings = Self.settings(preset: "ultrafast")
            settings.chunk = VideoChunk(firstFrame: 0, frameCount: 5, clipFrameCount: 30, sceneDigest: "d")
            let encoder = try VideoFileEncoder(path: dir + "/short.mp4", settings: settings)
            for frame in Self.frames.prefix(4) { try encoder.append(frame) }
            let error = try #require(throws: EncoderError.self) { try encoder.finish() }
            #expect(error.kind == .frameMismatch)
            #expect(error.reason == "the chunk label says 5 frames (frames 0-4) but 4 were appended; nothing was written")
            #expect(try contents(of: dir).isEmpty)

            for chunk in [
                VideoChunk(firstFrame: -1, frameCount: 5, clipFrameCount: 30, sceneDigest: "d"),
                VideoChunk(firstFrame: 0, frameCount: 0, clipFrameCount: 30, sceneDigest: "d"),
                VideoChunk(firstFrame: 26, frameCount: 5, clipFrameCount: 30, sceneDigest: "d"),
                VideoChunk(firstFrame: .max, frameCount: .max, clipFrameCount: 30, sceneDigest: "d"),
                VideoChunk(firstFrame: 0, frameCount: 5, clipFrameCount: 30, sceneDigest: "a b"),
                VideoChunk(firstFrame: 0, frameCount: 5, clipFrameCount: 30, sceneDigest: ""),
            ] {
                settings.chunk = chunk
                let invalid = try #require(throws: EncoderError.self) {
                    try VideoFileEncoder(path: dir + "/bad.mp4", settings: settings)
                }
                #expect(invalid.kind == .invalidSettings && invalid.reason.hasPrefix("chunk: "), "\(invalid)")
            }
            #expect(try contents(of: dir).isEmpty)
        }
    }
}
