import Encoders
import Foundation
import Primitives
import Testing

/// "Never half-written": whatever happens before `finish()` succeeds, the
/// target is as it was and no temporary output remains.
@Suite("Never half-written")
struct AtomicOutputTests {
    static let settings = VideoSettings(width: 32, height: 32, framesPerSecond: 24, preset: "ultrafast")
    static let frame = Bitmap(width: 32, height: 32, fill: (200, 40, 10, 255))

    @Test("while encoding, only a temporary file beside the target exists")
    func temporaryBesideTarget() throws {
        try withTemporaryDirectory { dir in
            let encoder = try VideoFileEncoder(path: dir + "/out.mp4", format: .mp4, settings: Self.settings)
            try encoder.append(Self.frame)
            let names = try contents(of: dir)
            #expect(names.count == 1)
            #expect(names.first?.hasPrefix(".out.mp4.partial-") == true, "\(names)")
            try encoder.finish()
            #expect(try contents(of: dir) == ["out.mp4"])
        }
    }

    @Test("cancel removes every trace", arguments: [OutputFormat.mp4, .pngSequence])
    func cancelRemovesEverything(format: OutputFormat) throws {
        try withTemporaryDirectory { dir in
            let path = format == .mp4 ? dir + "/out.mp4" : dir + "/frames/"
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: Self.settings)
            for _ in 0 ..< 3 { try encoder.append(Self.frame) }
            encoder.cancel()
            #expect(try contents(of: dir).isEmpty)
            encoder.cancel()  // twice is fine
            #expect(throws: EncoderError.self) { try encoder.append(Self.frame) }
            #expect(throws: EncoderError.self) { try encoder.finish() }
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test(
        "a wrong-sized frame fails the append and removes the temporary output",
        arguments: [OutputFormat.mp4, .pngSequence])
    func wrongSizedFrame(format: OutputFormat) throws {
        try withTemporaryDirectory { dir in
            let path = format == .mp4 ? dir + "/out.mp4" : dir + "/frames/"
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: Self.settings)
            try encoder.append(Self.frame)
            let error = try #require(throws: EncoderError.self) {
                try encoder.append(Bitmap(width: 30, height: 32))
            }
            #expect(error.kind == .frameMismatch)
            #expect(error.description.contains("'\(path)'"))
            #expect(error.description.contains("30x32"))
            #expect(try contents(of: dir).isEmpty)
            let later = try #require(throws: EncoderError.self) { try encoder.append(Self.frame) }
            #expect(later.kind == .misuse)
            #expect(later.reason.contains("failed earlier"))
        }
    }

    @Test("a frame whose byte count does not match its size is refused, not read past")
    func inconsistentBitmap() throws {
        try withTemporaryDirectory { dir in
            let encoder = try VideoFileEncoder(path: dir + "/out.mp4", format: .mp4, settings: Self.settings)
            var frame = Self.frame
            frame.pixels.removeLast(100)
            #expect(throws: EncoderError.self) { try encoder.append(frame) }
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test(
        "an existing file is refused without overwrite, for every single-file format",
        arguments: ["out.mp4", "out.mov", "out.webm", "out.gif"])
    func existingFileRefused(name: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + name
            try writeBytes(Array("an earlier render".utf8), to: path)
            let error = try #require(throws: EncoderError.self) {
                try OutputFormat.encoder(forOutputPath: path, settings: Self.settings)
            }
            #expect(error.kind == .targetNotEmpty)
            #expect(
                error.description == "cannot write '\(path)': it already exists; "
                    + "allow overwriting (--overwrite) to replace it, or choose another name")
            #expect(try fileBytes(path) == Array("an earlier render".utf8))
            #expect(try contents(of: dir) == [name])
        }
    }

    @Test("with overwrite, an existing file is untouched by a cancelled encode and replaced by a finished one")
    func existingFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            let old = Array("an earlier render".utf8)
            try writeBytes(old, to: path)
            var settings = Self.settings
            settings.overwrite = true

            let cancelled = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            for _ in 0 ..< 5 { try cancelled.append(Self.frame) }
            #expect(try fileBytes(path) == old, "untouched while encoding")
            cancelled.cancel()
            #expect(try fileBytes(path) == old)
            #expect(try contents(of: dir) == ["out.mp4"])

            let failed = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            try failed.append(Self.frame)
            _ = try? failed.append(Bitmap(width: 2, height: 2))
            #expect(try fileBytes(path) == old)
            #expect(try contents(of: dir) == ["out.mp4"])

            let finished = try VideoFileEncoder(path: path, format: .mp4, settings: settings)
            for _ in 0 ..< 5 { try finished.append(Self.frame) }
            try finished.finish()
            #expect(try probe(path).int("nb_read_frames") == 5)
            #expect(try contents(of: dir) == ["out.mp4"])
        }
    }

    @Test("a read-only existing file is refused even with overwrite")
    func readOnlyFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.gif"
            try writeBytes([1, 2, 3], to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            var settings = Self.settings
            settings.overwrite = true
            let error = try #require(throws: EncoderError.self) { try GIFEncoder(path: path, settings: settings) }
            #expect(error.description == "cannot write '\(path)': '\(path)' is read-only")
            #expect(try fileBytes(path) == [1, 2, 3])
            #expect(try contents(of: dir) == ["out.gif"])
        }
    }

    @Test("a stale partial of a dead writer is swept when the next encoder opens the target")
    func stalePartialSwept() throws {
        try withTemporaryDirectory { dir in
            try writeBytes([0], to: dir + "/.out.mp4.partial-k3x9")
            let encoder = try VideoFileEncoder(path: dir + "/out.mp4", format: .mp4, settings: Self.settings)
            try encoder.append(Self.frame)
            try encoder.finish()
            #expect(try contents(of: dir) == ["out.mp4"])
        }
    }

    @Test("an encoder released without finish leaves nothing behind")
    func releasedWithoutFinish() throws {
        try withTemporaryDirectory { dir in
            do {
                let encoder = try VideoFileEncoder(path: dir + "/out.mp4", format: .mp4, settings: Self.settings)
                try encoder.append(Self.frame)
                let sequence = try PNGSequenceEncoder(directory: dir + "/frames", settings: Self.settings)
                try sequence.append(Self.frame)
                #expect(try contents(of: dir).count == 2)
            }
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test("finishing with no frames is refused and leaves nothing", arguments: [OutputFormat.mp4, .pngSequence])
    func noFrames(format: OutputFormat) throws {
        try withTemporaryDirectory { dir in
            let path = format == .mp4 ? dir + "/out.mp4" : dir + "/frames/"
            let encoder = try OutputFormat.encoder(forOutputPath: path, settings: Self.settings)
            #expect(throws: EncoderError.self) { try encoder.finish() }
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test("a directory under a regular file is refused with a clear message", arguments: [OutputFormat.mp4, .pngSequence])
    func underRegularFile(format: OutputFormat) throws {
        try withTemporaryDirectory { dir in
            try writeBytes([0], to: dir + "/afile")
            let path = format == .mp4 ? dir + "/afile/out.mp4" : dir + "/afile/frames/"
            let error = try #require(throws: EncoderError.self) {
                try OutputFormat.encoder(forOutputPath: path, settings: Self.settings)
            }
            #expect(error.kind == .targetNotWritable)
            #expect(error.description == "cannot write '\(path)': '\(dir)/afile' is not a directory")
            #expect(try contents(of: dir) == ["afile"])
        }
    }

    @Test("a missing directory is refused with a clear message")
    func missingDirectory() throws {
        let path = "/proc/shiftrender-test/out.mp4"
        let error = try #require(throws: EncoderError.self) {
            try VideoFileEncoder(path: path, format: .mp4, settings: Self.settings)
        }
        #expect(error.kind == .targetNotWritable)
        #expect(error.description == "cannot write '\(path)': the directory '/proc/shiftrender-test' does not exist")
    }

    @Test("a read-only directory is refused", .enabled(if: geteuid() != 0, "root writes anywhere"))
    func readOnlyDirectory() throws {
        try withTemporaryDirectory { dir in
            let locked = dir + "/locked"
            try FileManager.default.createDirectory(
                atPath: locked, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o500])
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked) }
            let error = try #require(throws: EncoderError.self) {
                try VideoFileEncoder(path: locked + "/out.mp4", format: .mp4, settings: Self.settings)
            }
            #expect(error.description.contains("is not writable"))
        }
    }

    @Test("a directory standing at an .mp4 target is refused")
    func directoryAtFileTarget() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(atPath: dir + "/clip.mp4", withIntermediateDirectories: false)
            // An existing directory asks for a PNG sequence, so go to the encoder directly.
            let error = try #require(throws: EncoderError.self) {
                try VideoFileEncoder(path: dir + "/clip.mp4", format: .mp4, settings: Self.settings)
            }
            #expect(error.description.contains("is a directory"))
            #expect(try contents(of: dir) == ["clip.mp4"])
        }
    }
}
