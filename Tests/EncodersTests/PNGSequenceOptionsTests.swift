import Encoders
import Foundation
import PNGCodec
import Primitives
import Testing

@Suite("PNG sequences: parallel, patterns, levels, alpha")
struct PNGSequenceOptionsTests {
    static func settings(
        threads: Int? = nil, level: Int = 3, transparent: Bool = true, overwrite: Bool = false
    )
        -> VideoSettings
    {
        VideoSettings(
            width: 40, height: 30, framesPerSecond: 30, overwrite: overwrite,
            background: transparent ? .clear : .white, pngCompressionLevel: level,
            encoderThreads: threads)
    }

    func write(_ path: String, _ settings: VideoSettings, count: Int = 10) throws {
        let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
        for frame in transitionLikeFrames(width: 40, height: 30, count: count, alpha: settings.isTransparent) {
            try encoder.append(frame)
        }
        try encoder.finish()
    }

    @Test("frames encoded on 4 threads are byte-identical to one thread's")
    func parallelMatchesSequential() throws {
        try withTemporaryDirectory { dir in
            try write(dir + "/one/", Self.settings(threads: 1), count: 24)
            try write(dir + "/four/", Self.settings(threads: 4), count: 24)
            let names = try contents(of: dir + "/one")
            #expect(names.count == 24)
            #expect(try contents(of: dir + "/four") == names)
            for name in names {
                #expect(try fileBytes(dir + "/one/" + name) == fileBytes(dir + "/four/" + name), "\(name)")
            }
        }
    }

    @Test("RGBA (colour type 6) when transparent, RGB (2) when opaque; both read back as the frames")
    func alphaOrNot() throws {
        try withTemporaryDirectory { dir in
            for transparent in [true, false] {
                let target = dir + "/\(transparent)/"
                try write(target, Self.settings(transparent: transparent), count: 2)
                let bytes = try fileBytes(target + "frame_00000.png")
                #expect(bytes[25] == (transparent ? 6 : 2))
                let decoded = try PNGCodec.decode(fileAt: target + "frame_00001.png")
                let source = transitionLikeFrames(width: 40, height: 30, count: 2, alpha: transparent)[1]
                #expect(maximumDifference(decoded, source) <= 1)
            }
        }
    }

    @Test("compression levels trade size for time; every level decodes to the same pixels")
    func compressionLevels() throws {
        try withTemporaryDirectory { dir in
            var sizes: [Int] = []
            for level in [0, 3, 9] {
                try write(dir + "/l\(level)/", Self.settings(level: level), count: 1)
                sizes.append(try fileBytes(dir + "/l\(level)/frame_00000.png").count)
                let decoded = try PNGCodec.decode(fileAt: dir + "/l\(level)/frame_00000.png")
                #expect(maximumDifference(decoded, transitionLikeFrames(width: 40, height: 30, count: 1, alpha: true)[0]) <= 1)
            }
            #expect(sizes[0] > sizes[1] && sizes[1] >= sizes[2], "\(sizes)")
            let error = try #require(throws: EncoderError.self) {
                try OutputFormat.encoder(forOutputPath: dir + "/bad/", settings: Self.settings(level: 10))
            }
            #expect(error.kind == .invalidSettings)
            #expect(try !contents(of: dir).contains("bad"))
        }
    }

    @Test("a pattern writes into an existing directory beside other files; earlier frames need overwrite")
    func patternInExistingDirectory() throws {
        try withTemporaryDirectory { dir in
            let pattern = dir + "/f_%04d.png"
            try writeBytes([7], to: dir + "/notes.txt")
            try write(pattern, Self.settings(), count: 5)
            #expect(
                try contents(of: dir) == [
                    "f_0000.png", "f_0001.png", "f_0002.png", "f_0003.png", "f_0004.png",
                    "notes.txt",
                ])
            let error = try #require(throws: EncoderError.self) { try write(pattern, Self.settings(), count: 2) }
            #expect(error.kind == .targetNotEmpty)
            #expect(
                error.description.hasPrefix(
                    "cannot write '\(pattern)': the folder already holds 1 of the frames "
                        + "this output writes (f_0000.png)"), "\(error)")
            // Overwriting with a shorter sequence replaces its frames; the others stay, named in a warning.
            let encoder = try OutputFormat.encoder(forOutputPath: pattern, settings: Self.settings(overwrite: true))
            for frame in transitionLikeFrames(width: 40, height: 30, count: 2, alpha: true) { try encoder.append(frame) }
            try encoder.finish()
            #expect(
                try contents(of: dir) == [
                    "f_0000.png", "f_0001.png", "f_0002.png", "f_0003.png", "f_0004.png",
                    "notes.txt",
                ])
            #expect(encoder.warnings == ["'\(dir)' still holds 3 frames (f_0002.png ... f_0004.png) from an earlier render"])
            #expect(try fileBytes(dir + "/notes.txt") == [7])
        }
    }

    @Test("a pattern in a new directory creates it whole; names follow printf")
    func patternInNewDirectory() throws {
        try withTemporaryDirectory { dir in
            try write(dir + "/out/shot-%d.png", Self.settings(), count: 11)
            let names = try contents(of: dir + "/out")
            #expect(names.count == 11)
            #expect(names.contains("shot-0.png") && names.contains("shot-10.png"))
            #expect(try contents(of: dir) == ["out"])
            let naming = try #require(PNGFrameNaming.pattern("a/b/img%03d.png"))
            #expect(naming.directory == "a/b" && naming.name(7) == "img007.png" && naming.name(1234) == "img1234.png")
            #expect(naming.isMember("img042.png") && !naming.isMember("img42.png") && !naming.isMember("img042.jpg"))
            #expect(PNGFrameNaming.pattern("x/%d/img.png") == nil)
            #expect(PNGFrameNaming.pattern("img.png") == nil)
        }
    }
}
