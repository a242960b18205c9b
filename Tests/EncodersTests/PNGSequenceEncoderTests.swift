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
        (0 ..< count).map { index in
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
            #expect(names == (0 ..< 12).map { String(format: "frame_%05d.png", $0) })
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

    /// Writes `count` frames numbered from `first` into `target`; the encoder's warnings.
    @discardableResult
    func render(_ target: String, count: Int, first: Int = 0, overwrite: Bool = false) throws -> [String] {
        var settings = Self.settings
        settings.overwrite = overwrite
        settings.firstFrameNumber = first
        let encoder = try PNGSequenceEncoder(directory: target, settings: settings)
        for frame in Self.frames(count) { try encoder.append(frame) }
        try encoder.finish()
        return encoder.warnings
    }

    func frameNames(_ numbers: Range<Int>) -> [String] { numbers.map { PNGSequenceEncoder.frameName($0) } }

    @Test("frames already in the folder are refused unless overwriting; then exactly those are replaced")
    func existingFrames() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out/"
            try render(target, count: 5)
            let stamp = try fileBytes(target + "frame_00004.png")

            let error = try #require(throws: EncoderError.self) { try render(target, count: 5) }
            #expect(error.kind == .targetNotEmpty)
            #expect(
                error.description == "cannot write '\(target)': the folder already holds 1 of the frames this output "
                    + "writes (frame_00000.png); allow overwriting (--overwrite) to replace it, or choose another folder")

            // Overwriting with fewer frames replaces those and leaves the rest, named in a warning.
            var overwrite = Self.settings
            overwrite.overwrite = true
            let second = try PNGSequenceEncoder(directory: target, settings: overwrite)
            var frames = Self.frames(2)
            frames[0].setPixel(x: 0, y: 0, (9, 9, 9, 255))
            for frame in frames { try second.append(frame) }
            #expect(try contents(of: target).filter { !$0.hasPrefix(".") }.count == 5, "old frames stay until finish")
            try second.finish()
            #expect(try contents(of: target) == frameNames(0 ..< 5))
            #expect(try PNGCodec.decode(fileAt: target + "frame_00000.png").pixel(x: 0, y: 0) == (9, 9, 9, 255))
            #expect(try fileBytes(target + "frame_00004.png") == stamp)
            #expect(
                second.warnings == [
                    "'\(target)' still holds 3 frames (frame_00002.png ... frame_00004.png) "
                        + "from an earlier render"
                ])
            #expect(try contents(of: dir) == ["out"])
        }
    }

    @Test("overwriting never touches files that are not frames it writes")
    func foreignFilesStay() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out/"
            try FileManager.default.createDirectory(atPath: target + "src", withIntermediateDirectories: true)
            try writeBytes([1], to: target + "notes.txt")
            try writeBytes([2], to: target + "frame_7.png")
            try render(target, count: 3, overwrite: true)
            #expect(try contents(of: target) == frameNames(0 ..< 3) + ["frame_7.png", "notes.txt", "src"])
            #expect(try fileBytes(target + "notes.txt") == [1])
        }
    }

    @Test("disjoint ranges render into one folder with absolute numbers, without overwriting")
    func disjointRanges() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/frames/"
            try render(target, count: 4, first: 4)
            let warnings = try render(target, count: 4, first: 0)
            #expect(try contents(of: target) == frameNames(0 ..< 8))
            #expect(warnings == ["'\(target)' still holds 4 frames (frame_00004.png ... frame_00007.png) from an earlier render"])
            // A range overlapping frames already there is refused when it reaches them.
            let clash = try #require(throws: EncoderError.self) { try render(target, count: 4, first: 6) }
            #expect(clash.kind == .targetNotEmpty)
            // Frames met only at the end (the first is free) are refused in finish(), adding nothing.
            try render(target, count: 1, first: 12)
            let late = try #require(throws: EncoderError.self) { try render(dir + "/frames", count: 4, first: 10) }
            #expect(late.reason.hasPrefix("the folder already holds 1 of the frames this output writes (frame_00012.png)"))
            #expect(try contents(of: target) == frameNames(0 ..< 8) + ["frame_00012.png"])
        }
    }

    // The limit guards against a hang in the encoder's threads once writes fail. It is wide because a
    // full parallel run on two busy cores once took 8 minutes from this test's start to its end (the
    // two other full-disk tests, which have no limit, took as long), while alone it takes 0.2 s.
    @Test("a full disk is named as the cause, and nothing is left", .timeLimit(.minutes(10)))
    func fullDisk() throws {
        let ran: Void? = try withTinyFileSystem(kilobytes: 64) { mount in
            var settings = VideoSettings(width: 128, height: 128, framesPerSecond: 30, background: .clear)
            settings.pngCompressionLevel = 0
            let target = mount + "/frames/"
            let encoder = try PNGSequenceEncoder(directory: target, settings: settings)
            let frame = variedPremultipliedBitmap(width: 128, height: 128)
            let error = try #require(throws: EncoderError.self) {
                for _ in 0 ..< 20 { try encoder.append(frame) }
                try encoder.finish()
            }
            #expect(error.kind == .writeFailed)
            #expect(error.reason.hasSuffix("no space left on device (the disk is full)"), "\(error.reason)")
            #expect(try contents(of: mount).isEmpty)
        }
        if ran == nil { try Test.cancel("cannot mount a tmpfs here (needs root)") }
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

    @Test("frame names have five digits, the same for every chunk of a clip")
    func frameNameDigits() {
        #expect(PNGSequenceEncoder.frameName(0) == "frame_00000.png")
        #expect(PNGSequenceEncoder.frameName(42) == "frame_00042.png")
        #expect(PNGSequenceEncoder.frameName(99_999) == "frame_99999.png")
        let names = (0 ..< 1000).map { PNGSequenceEncoder.frameName($0 * 99) }
        #expect(names == names.sorted())
        #expect(PNGSequenceEncoder.isFrameName("frame_00012.png"))
        #expect(!PNGSequenceEncoder.isFrameName("frame_12.png"))
        #expect(!PNGSequenceEncoder.isFrameName("notes.txt"))
    }
}

/// Runs `body` with a tmpfs of `kilobytes` mounted on a fresh folder; nil
/// when mounting is not possible here (it needs root).
private func withTinyFileSystem<T>(kilobytes: Int, _ body: (String) throws -> T) throws -> T? {
    try withTemporaryDirectory { dir in
        let mountPoint = dir + "/tiny"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        guard run(quietly: "/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", mountPoint]) == 0 else {
            return nil
        }
        defer { run(quietly: "/bin/umount", [mountPoint]) }
        return try body(mountPoint)
    }
}

@discardableResult
private func run(quietly executable: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
