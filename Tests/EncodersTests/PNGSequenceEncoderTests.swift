import Encoders
import Foundation
import PNGCodec
import Primitives
import Testing

@Suite("PNGSequenceEncoder")
struct PNGSequenceEncoderTests {
    static let settings = VideoSettings(width: 9, height: 7, framesPerSecond: 30, background: .clear)

    /// Distinct frames, some translucent, odd-sized (PNG does not mind).
    static func frames(_ count: Int) -> [Bitmap] {
        (0..<count).map { index in
            var bitmap = variedPremultipliedBitmap(width: 9, height: 7)
            bitmap.setPixel(x: 0, y: 0, (UInt8(index), 0, 0, 255))
            return bitmap
        }
    }

    @Test("N frames become N PNGs with sortable names that read back as the frames")
    func writesFrames() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/frames/"
            let encoder = try OutputFormat.encoder(forOutputPath: target, settings: Self.settings)
            #expect(encoder is PNGSequenceEncoder)
            let frames = Self.frames(12)
            for frame in frames { try encoder.append(frame) }
            #expect(try contents(of: dir).count == 1, "only the temporary directory exists")
            #expect(!FileManager.default.fileExists(atPath: target))
            try encoder.finish()
            #expect(try contents(of: dir) == ["frames"])
            let names = try contents(of: target)
            #expect(names == (0..<12).map { String(format: "frame_%05d.png", $0) })
            for (name, frame) in zip(names, frames) {
                let decoded = try PNGCodec.decode(fileAt: target + name)
                #expect(maximumDifference(decoded, frame) <= 1, "\(name)")
                #expect(decoded.pixel(x: 0, y: 0) == frame.pixel(x: 0, y: 0))
            }
        }
    }

    @Test("an existing empty directory is filled")
    func emptyDirectory() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
            // An existing directory asks for a PNG sequence even without a trailing slash.
            let encoder = try OutputFormat.encoder(forOutputPath: target, settings: Self.settings)
            for frame in Self.frames(3) { try encoder.append(frame) }
            try encoder.finish()
            #expect(try contents(of: target) == ["frame_00000.png", "frame_00001.png", "frame_00002.png"])
            #expect(try contents(of: dir) == ["out"])
        }
    }

    @Test("a directory that holds files is refused unless overwriting an earlier sequence")
    func nonEmptyDirectory() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out/"
            let first = try PNGSequenceEncoder(directory: target, settings: Self.settings)
            for frame in Self.frames(5) { try first.append(frame) }
            try first.finish()

            let error = try #require(throws: EncoderError.self) {
                try PNGSequenceEncoder(directory: target, settings: Self.settings)
            }
            #expect(error.kind == .targetNotEmpty)
            #expect(error.description.contains("'\(target)'"))
            #expect(error.description.contains("already holds 5 files"))

            var overwrite = Self.settings
            overwrite.overwrite = true
            let second = try PNGSequenceEncoder(directory: target, settings: overwrite)
            for frame in Self.frames(2) { try second.append(frame) }
            #expect(try contents(of: target).count == 5, "old frames stay until finish")
            try second.finish()
            #expect(try contents(of: target) == ["frame_00000.png", "frame_00001.png"])
            #expect(try contents(of: dir) == ["out"])

            try writeBytes([1], to: target + "notes.txt")
            let foreign = try #require(throws: EncoderError.self) {
                try PNGSequenceEncoder(directory: target, settings: overwrite)
            }
            #expect(foreign.description.contains("notes.txt"))
            #expect(try contents(of: target).count == 3)
        }
    }

    @Test("a target that is a regular file is refused")
    func fileInTheWay() throws {
        try withTemporaryDirectory { dir in
            try writeBytes([1], to: dir + "/frames")
            let error = try #require(throws: EncoderError.self) {
                try PNGSequenceEncoder(directory: dir + "/frames/", settings: Self.settings)
            }
            #expect(error.description.contains("not a directory"))
            #expect(try contents(of: dir) == ["frames"])
        }
    }

    @Test("frame names are zero-padded to five digits and widen past 99999 so they still sort")
    func frameNames() {
        #expect(PNGSequenceEncoder.frameName(0) == "frame_00000.png")
        #expect(PNGSequenceEncoder.frameName(42) == "frame_00042.png")
        #expect(PNGSequenceEncoder.frameName(99_999, of: 100_000) == "frame_99999.png")
        #expect(PNGSequenceEncoder.frameName(7, of: 100_001) == "frame_000007.png")
        #expect(PNGSequenceEncoder.frameName(100_000, of: 100_001) == "frame_100000.png")
        let names = (0..<1000).map { PNGSequenceEncoder.frameName($0 * 997, of: 1_000_000) }
        #expect(names == names.sorted())
        #expect(PNGSequenceEncoder.isFrameName("frame_00012.png"))
        #expect(!PNGSequenceEncoder.isFrameName("frame_12.png"))
        #expect(!PNGSequenceEncoder.isFrameName("notes.txt"))
    }
}
