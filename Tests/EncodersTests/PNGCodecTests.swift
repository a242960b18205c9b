import Foundation
import PNGCodec
import Primitives
import Testing

@Suite("PNGCodec")
struct PNGCodecTests {
    @Test("premultiplied colours survive a file round trip within one step of rounding")
    func fileRoundTrip() throws {
        try withTemporaryDirectory { dir in
            let original = variedPremultipliedBitmap(width: 37, height: 23)
            let path = dir + "/varied.png"
            try PNGCodec.encode(original, toFileAt: path)
            let decoded = try PNGCodec.decode(fileAt: path)
            #expect(decoded.width == 37 && decoded.height == 23)
            #expect(maximumDifference(original, decoded) <= 1)
            // Alpha is stored exactly.
            #expect(zip(original.pixels, decoded.pixels).enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element.0 == $0.element.1 })
            let bytes = try fileBytes(path)
            #expect(bytes[25] == 6, "a translucent image is written as RGBA (colour type 6)")
            #expect(try contents(of: dir) == ["varied.png"], "no temporary file is left beside the PNG")
        }
    }

    @Test("the in-memory encoder and decoder round trip too")
    func memoryRoundTrip() throws {
        let original = variedPremultipliedBitmap(width: 300, height: 200)
        let bytes = try PNGCodec.encode(original)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try PNGCodec.decode(data: bytes)
        #expect(maximumDifference(original, decoded) <= 1)
    }

    @Test("an opaque image is written as 8-bit RGB and read back exactly")
    func opaqueIsRGB() throws {
        try withTemporaryDirectory { dir in
            var original = Bitmap(width: 5, height: 4, fill: (10, 20, 30, 255))
            original.setPixel(x: 2, y: 1, (255, 0, 128, 255))
            let path = dir + "/opaque.png"
            try PNGCodec.encode(original, toFileAt: path)
            let bytes = try fileBytes(path)
            #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
            #expect(bytes[24] == 8, "bit depth 8")
            #expect(bytes[25] == 2, "colour type 2 (RGB, no alpha)")
            #expect(try PNGCodec.decode(fileAt: path) == original)
            #expect(try PNGCodec.decode(data: PNGCodec.encode(original)) == original)
        }
    }

    @Test("encoding replaces an existing file")
    func encodeReplaces() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/x.png"
            try writeBytes([1, 2, 3], to: path)
            try PNGCodec.encode(Bitmap(width: 2, height: 2, fill: (0, 0, 0, 255)), toFileAt: path)
            #expect(try PNGCodec.readSize(fileAt: path) == (2, 2))
        }
    }

    @Test("readSize reads the header only")
    func readSizeHeaderOnly() throws {
        try withTemporaryDirectory { dir in
            let full = try PNGCodec.encode(variedPremultipliedBitmap(width: 640, height: 3))
            let path = dir + "/header-only.png"
            // Everything up to a few bytes into the image data: enough for the
            // size, not for the pixels.
            let idat = try #require((8..<full.count - 4).first { String(decoding: full[$0..<($0 + 4)], as: UTF8.self) == "IDAT" })
            try writeBytes(Array(full.prefix(idat + 12)), to: path)
            let size = try PNGCodec.readSize(fileAt: path)
            #expect(size.width == 640 && size.height == 3)
            #expect(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
        }
    }

    /// PNGs written by FFmpeg in other colour types and depths: 8-bit grey,
    /// grey+alpha, palette, 16-bit RGB and RGBA (no gamma chunk: sRGB assumed).
    @Test("other PNG colour types and depths decode to RGBA8", arguments: [
        ("gray", "0x808080", 128, 128, 128), ("ya8", "0x808080", 128, 128, 128),
        ("pal8", "0xFF0000", 252, 0, 0), // FFmpeg's fixed palette has 252, not 255
        ("rgb48be", "0x808080", 128, 128, 128),
        ("rgba64be", "0x808080", 128, 128, 128),
    ])
    func otherColourTypes(pixelFormat: String, colour: String, r: Int, g: Int, b: Int) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/\(pixelFormat).png"
            let result = try run("/usr/bin/ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):s=6x4", "-frames:v", "1",
                "-pix_fmt", pixelFormat, "-y", path,
            ])
            try #require(result.status == 0, "ffmpeg: \(result.stderr)")
            let bitmap = try PNGCodec.decode(fileAt: path)
            #expect(bitmap.width == 6 && bitmap.height == 4)
            let p = bitmap.pixel(x: 3, y: 2)
            #expect(isClose((Int(p.r), Int(p.g), Int(p.b)), (r, g, b), within: 2) && p.a == 255,
                    "\(pixelFormat) decoded as \(p)")
        }
    }

    @Test("a missing file throws a message naming it")
    func missingFile() throws {
        let path = "/nonexistent-shiftrender/assets/missing.png"
        let error = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
        #expect(error.description.hasPrefix("cannot decode PNG '\(path)': "))
        #expect(error.description.contains("No such file"))
        #expect(!error.description.contains("\n"))
        let header = try #require(throws: PNGError.self) { try PNGCodec.readSize(fileAt: path) }
        #expect(header.description.contains(path))
    }

    @Test("a file that is not a PNG throws a message naming it")
    func notAPNG() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/fake.png"
            try writeBytes(Array("GIF89a, not a PNG at all".utf8), to: path)
            let error = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
            #expect(error.description.contains("'\(path)'"))
            #expect(error.reason.lowercased().contains("png"))
            let empty = dir + "/empty.png"
            try writeBytes([], to: empty)
            let emptyError = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: empty) }
            #expect(emptyError.description.contains("'\(empty)'"))
            #expect(throws: PNGError.self) { try PNGCodec.decode(data: [1, 2, 3]) }
            let directory = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: dir) }
            #expect(directory.description == "cannot decode PNG '\(dir)': it is a directory, not a file")
        }
    }

    @Test("a truncated PNG throws, at every cut", arguments: [0.2, 0.5, 0.9, 0.99])
    func truncated(fraction: Double) throws {
        try withTemporaryDirectory { dir in
            let full = try PNGCodec.encode(variedPremultipliedBitmap(width: 64, height: 64))
            let cut = Array(full.prefix(Int(Double(full.count) * fraction)))
            let path = dir + "/truncated.png"
            try writeBytes(cut, to: path)
            let error = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
            #expect(error.description.hasPrefix("cannot decode PNG '\(path)': "))
            #expect(error.reason.contains("ends early") || error.reason.contains("IDAT"), "\(error)")
            #expect(throws: PNGError.self) { try PNGCodec.decode(data: cut, name: "cut") }
        }
    }

    @Test("a corrupt PNG (damaged image data) throws")
    func corrupt() throws {
        var bytes = try PNGCodec.encode(variedPremultipliedBitmap(width: 64, height: 64))
        for i in stride(from: 60, to: bytes.count - 20, by: 7) { bytes[i] ^= 0x5A }
        let error = try #require(throws: PNGError.self) { try PNGCodec.decode(data: bytes, name: "damaged.png") }
        #expect(error.description.hasPrefix("cannot decode PNG 'damaged.png': "))
    }

    @Test("writing into a missing directory throws and leaves nothing")
    func encodeFailure() throws {
        let path = "/nonexistent-shiftrender/out.png"
        let error = try #require(throws: PNGError.self) {
            try PNGCodec.encode(Bitmap(width: 1, height: 1), toFileAt: path)
        }
        #expect(error.description.hasPrefix("cannot write PNG '\(path)': "))
        #expect(throws: PNGError.self) { try PNGCodec.encode(Bitmap(width: 0, height: 3)) }
    }
}
