import CPNGShim
import Foundation
@testable import PNGCodec
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
            #expect(String(decoding: bytes[12 ..< 16], as: UTF8.self) == "IHDR")
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
            let idat = try #require((8 ..< full.count - 4).first { String(decoding: full[$0 ..< ($0 + 4)], as: UTF8.self) == "IDAT" })
            try writeBytes(Array(full.prefix(idat + 12)), to: path)
            let size = try PNGCodec.readSize(fileAt: path)
            #expect(size.width == 640 && size.height == 3)
            #expect(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
        }
    }

    /// PNGs written by FFmpeg in other colour types and depths: 8-bit grey,
    /// grey+alpha, palette, 16-bit RGB and RGBA (no gamma chunk: sRGB assumed).
    @Test(
        "other PNG colour types and depths decode to RGBA8",
        arguments: [
            ("gray", "0x808080", 128, 128, 128), ("ya8", "0x808080", 128, 128, 128),
            ("pal8", "0xFF0000", 252, 0, 0),  // FFmpeg's fixed palette has 252, not 255
            ("rgb48be", "0x808080", 128, 128, 128),
            ("rgba64be", "0x808080", 128, 128, 128),
        ])
    func otherColourTypes(pixelFormat: String, colour: String, r: Int, g: Int, b: Int) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/\(pixelFormat).png"
            let result = try run(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):s=6x4", "-frames:v", "1",
                    "-pix_fmt", pixelFormat, "-y", path,
                ])
            try #require(result.status == 0, "ffmpeg: \(result.stderr)")
            let bitmap = try PNGCodec.decode(fileAt: path)
            #expect(bitmap.width == 6 && bitmap.height == 4)
            let p = bitmap.pixel(x: 3, y: 2)
            #expect(
                isClose((Int(p.r), Int(p.g), Int(p.b)), (r, g, b), within: 2) && p.a == 255,
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

/// Interlaced PNGs and their non-interlaced twins (fixtures/images/generate.py
/// writes both from one formula per image; ffmpeg decodes each pair to the
/// same pixels). libpng 1.6.39's simplified API, as in Debian 12, returns
/// 16-bit interlaced images with every even row wrong; these tests fail with a
/// decoder that uses it for them.
@Suite("PNGCodec: Adam7 interlacing")
struct PNGInterlaceTests {
    static let twins = [
        "rgba16", "rgba16-small", "rgb16", "rgb16-linear", "ga16", "rgba8", "rgba8-linear", "palette8",
        "grey1", "grey2", "grey4",
    ]

    static func fixture(_ name: String) -> String { fixturePath("fixtures/images/interlace/\(name).png") }

    @Test("an interlaced PNG decodes to the same pixels as its non-interlaced twin", arguments: twins)
    func matchesTwin(name: String) throws {
        let plainBytes = try fileBytes(Self.fixture(name))
        let interlacedBytes = try fileBytes(Self.fixture(name + "-adam7"))
        // The fixtures are what they claim: IHDR's interlace byte (offset 28) is 0 and 1.
        #expect(plainBytes[28] == 0 && interlacedBytes[28] == 1)
        let plain = try PNGCodec.decode(fileAt: Self.fixture(name))
        let interlaced = try PNGCodec.decode(fileAt: Self.fixture(name + "-adam7"))
        #expect(plain.width == interlaced.width && plain.height == interlaced.height)
        let differingRows = (0 ..< plain.height).filter { y in
            let row = y * plain.bytesPerRow ..< (y + 1) * plain.bytesPerRow
            return plain.pixels[row] != interlaced.pixels[row]
        }
        #expect(differingRows.isEmpty, "\(name): rows \(differingRows) differ")
        // Memory and file decoding agree.
        #expect(try PNGCodec.decode(data: interlacedBytes) == interlaced)
        #expect(try PNGCodec.decode(data: plainBytes) == plain)
    }

    /// Pixels worked out by hand from the generator's formulas. 16-bit samples
    /// become 8-bit as round(v * 255 / 65535); colour is then premultiplied as
    /// (c * a + 127) / 255. Rows 0, 2 and 28 are the ones the simplified API got wrong.
    @Test(
        "hand-worked pixels of the interlaced fixtures",
        arguments: [
            // twin_rgba16: (x * 1771, y * 2259, x * y * 61 % 65536, alpha); opaque where (x + y) % 4 == 0.
            ("rgba16", 0, 0, [0, 0, 0, 255]),
            ("rgba16", 4, 0, [28, 0, 0, 255]),  // 7084 -> 27.56
            ("rgba16", 2, 2, [14, 18, 1, 255]),  // 3542 -> 13.78, 4518 -> 17.58, 244 -> 0.95
            ("rgba16", 1, 3, [7, 26, 1, 255]),  // 1771 -> 6.89, 6777 -> 26.37, 183 -> 0.71
            ("rgba16", 36, 28, [248, 246, 239, 255]),  // 63756, 63252, 61488 -> 248.08, 246.12, 239.25
            ("rgba16", 3, 3, [0, 0, 0, 0]),  // x % 7 == 3 at an odd row: clear
            // (6, 4): alpha (12666 + 13372) = 26038 -> 101; colour 41, 35, 6 -> premultiplied 16, 14, 2.
            ("rgba16", 6, 4, [16, 14, 2, 101]),
            ("rgba16-small", 2, 2, [14, 18, 1, 255]),
            ("rgb16", 36, 28, [248, 246, 239, 255]),
            ("rgb16", 2, 2, [14, 18, 1, 255]),
            // twin_ga16 (2, 1): grey 3000 + 700 = 3700 -> 14.40; opaque as (x + y) % 3 == 0.
            ("ga16", 2, 1, [14, 14, 14, 255]),
            ("rgba8", 2, 2, [14, 18, 4, 255]),
            // palette index (x + 3y) % 40: (2, 1) -> 5 = (30, 225, 185) at tRNS 50; (0, 10) -> 30, opaque.
            ("palette8", 2, 1, [6, 44, 36, 50]),
            ("palette8", 0, 10, [180, 75, 86, 255]),
            // twin_grey: (x + 2y + x*y // 5) % 2^depth, scaled to 0...255.
            ("grey1", 5, 2, [255, 255, 255, 255]), ("grey1", 3, 2, [0, 0, 0, 255]),
            ("grey2", 3, 4, [85, 85, 85, 255]),  // 13 % 4 = 1 -> 85
            ("grey4", 7, 6, [187, 187, 187, 255]),  // 27 % 16 = 11 -> 187
        ])
    func handWorkedPixels(name: String, x: Int, y: Int, expected: [Int]) throws {
        let bitmap = try PNGCodec.decode(fileAt: Self.fixture(name + "-adam7"))
        let p = bitmap.pixel(x: x, y: y)
        #expect([Int(p.r), Int(p.g), Int(p.b), Int(p.a)] == expected, "\(name) (\(x), \(y))")
    }

    /// The shim's full-API reader (the interlaced path) sets up the transforms
    /// the simplified API does: on non-interlaced images, where the simplified
    /// API is right, both give the same bytes, gamma conversion included.
    @Test("the full-API reader equals the simplified API on non-interlaced images")
    func readerMatchesSimplifiedAPI() throws {
        let paths = Self.twins.map { Self.fixture($0) } + ["poster", "star"].map { fixturePath("fixtures/images/\($0).png") }
        for path in paths {
            let bytes = try fileBytes(path)
            let expected = try PNGCodec.decode(data: bytes)
            var straight = [UInt8](repeating: 0, count: expected.width * expected.height * 4)
            var status = sr_png_status()
            let result = sr_png_read_rgba8(nil, bytes, bytes.count, &straight, UInt32(expected.width), UInt32(expected.height), &status)
            try #require(result == 0, "\(path): \(PNGCodec.reason(status))")
            #expect(Bitmap(width: expected.width, height: expected.height, straightPixels: straight) == expected, "\(path)")
            // A caller's size that is not the header's is refused, not trusted.
            let wrong = sr_png_read_rgba8(nil, bytes, bytes.count, &straight, UInt32(expected.width - 1), UInt32(expected.height), &status)
            #expect(wrong != 0 && PNGCodec.reason(status).contains("changed"), "\(path)")
        }
    }

    @Test("a truncated or damaged interlaced PNG throws a message naming it, from file and from memory")
    func damagedInterlaced() throws {
        try withTemporaryDirectory { dir in
            let full = try fileBytes(Self.fixture("rgba16-adam7"))
            for cut in [full.count / 2, full.count - 20] {
                let path = dir + "/cut.png"
                try writeBytes(Array(full.prefix(cut)), to: path)
                let error = try #require(throws: PNGError.self) { try PNGCodec.decode(fileAt: path) }
                #expect(error.description.hasPrefix("cannot decode PNG '\(path)': "), "\(error)")
                #expect(!error.description.contains("\n"))
                let memory = try #require(throws: PNGError.self) { try PNGCodec.decode(data: Array(full.prefix(cut)), name: "cut") }
                #expect(memory.description.hasPrefix("cannot decode PNG 'cut': "), "\(memory)")
            }
            var damaged = full
            for i in stride(from: 60, to: damaged.count - 20, by: 5) { damaged[i] ^= 0x5A }
            #expect(throws: PNGError.self) { try PNGCodec.decode(data: damaged, name: "damaged.png") }
        }
    }

    @Test("the size limits apply to interlaced PNGs before any pixel memory is allocated")
    func interlacedLimits() throws {
        // A 10000 x 10000 interlaced header (0x2710) with almost no data: refused as too short, not decoded.
        var bytes = try fileBytes(Self.fixture("grey1-adam7"))
        bytes.replaceSubrange(16 ..< 24, with: [0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10])
        let crc = crc32(bytes[12 ..< 29])
        bytes.replaceSubrange(29 ..< 33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let error = try #require(throws: PNGError.self) { try PNGCodec.decode(data: bytes, name: "huge.png") }
        #expect(error.reason.contains("ends early") && error.reason.contains("10000x10000"), "\(error)")
    }

    func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// Writing PNG files through the shim's row writer.
@Suite("PNGCodec: writing files")
struct PNGWriteTests {
    /// Opaque, incompressible pixels (a seeded LCG), so the PNG is about as large as the pixels.
    static func noise(width: Int, height: Int, opaque: Bool) -> Bitmap {
        var bitmap = variedPremultipliedBitmap(width: width, height: height)
        if opaque { for i in stride(from: 3, to: bitmap.pixels.count, by: 4) { bitmap.pixels[i] = 255 } }
        return bitmap
    }

    @Test("a file holds byte for byte what the in-memory encoder (libpng's simplified API) returns")
    func fileMatchesMemoryEncoder() throws {
        try withTemporaryDirectory { dir in
            for (width, height, opaque) in [(1, 1, true), (37, 23, false), (37, 23, true), (300, 200, false), (640, 3, true)] {
                let bitmap = Self.noise(width: width, height: height, opaque: opaque)
                try PNGCodec.encode(bitmap, toFileAt: dir + "/a.png")
                #expect(try fileBytes(dir + "/a.png") == PNGCodec.encode(bitmap), "\(width)x\(height) opaque \(opaque)")
            }
        }
    }

    @Test("writing a frame reuses one row buffer per thread; the pool stays bounded")
    func rowBufferPool() {
        let pool = RowBufferPool(limit: 2, keptByteLimit: 1024)
        let first = pool.take(byteCount: 512)
        pool.recycle(first)
        let again = pool.take(byteCount: 512)
        #expect(again === first, "a recycled buffer is handed out again")
        pool.recycle(again)
        let larger = pool.take(byteCount: 1000)
        #expect(larger !== first && larger.byteCount >= 1000, "a buffer too small is not handed out")
        pool.recycle(larger)
        #expect(pool.count == 1)
        // The pooled 1000-byte buffer is too small for 4096: dropped, and the
        // new one is above keptByteLimit, so it is not kept either.
        pool.recycle(pool.take(byteCount: 4096))
        #expect(pool.count == 0, "a buffer above keptByteLimit is not kept")
        let held = (0 ..< 4).map { _ in pool.take(byteCount: 16) }
        held.forEach(pool.recycle)
        #expect(pool.count == 2, "no more than limit buffers are kept")
    }

    @Test("packRGB equals its plain reference at every length, aligned or not")
    func packRGBMatchesReference() {
        let source = variedPremultipliedBitmap(width: 80, height: 1).pixels
        for count in 0 ... 67 {
            for start in [0, 1, 3] {
                var fast = [UInt8](repeating: 0xAB, count: 3 * 80 + 8)
                var plain = fast
                source.withUnsafeBytes { s in
                    fast.withUnsafeMutableBytes { PNGCodec.packRGB(s.baseAddress! + 4 * start, into: $0.baseAddress! + 1, count: count) }
                    plain.withUnsafeMutableBytes {
                        PNGCodec.packRGBReference(s.baseAddress! + 4 * start, into: $0.baseAddress! + 1, count: count)
                    }
                }
                #expect(fast == plain, "count \(count), start \(start)")
            }
        }
        // The reference drops exactly the alpha bytes.
        var out = [UInt8](repeating: 0, count: 6)
        let two: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        two.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { PNGCodec.packRGBReference(s.baseAddress!, into: $0.baseAddress!, count: 2) }
        }
        #expect(out == [1, 2, 3, 5, 6, 7])
    }

    @Test("OS error numbers become plain reasons")
    func osErrorReasons() {
        #expect(PNGError.describe(errno: ENOSPC) == "no space left on device (the disk is full)")
        #expect(PNGError.describe(errno: EROFS) == "read-only file system")
        #expect(PNGError.describe(errno: EACCES) == "permission denied")
        #expect(PNGError.describe(errno: EDQUOT).contains("quota"))
        #expect(PNGError.describe(errno: EMFILE) == String(cString: strerror(EMFILE)), "others as the system words them")
    }

    /// Mounts a 64 KiB tmpfs (this needs root, as in CI); skips, with the
    /// reason, where that is impossible. Always unmounts.
    func withSmallDisk(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let mountPoint = dir + "/small"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            let mounted = try? run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint])
            guard let mounted, mounted.status == 0 else {
                let why = mounted?.stderr.trimmingCharacters(in: .whitespacesAndNewlines) ?? "no /bin/mount"
                try Test.cancel("cannot mount a 64 KiB tmpfs to fill (needs root): \(why)")
            }
            defer {
                let unmounted = try? run("/bin/umount", [mountPoint])
                if unmounted?.status != 0 { Issue.record("could not unmount \(mountPoint): \(unmounted?.stderr ?? "")") }
            }
            try body(mountPoint)
        }
    }

    @Test("a full disk is named as such, for single images and for frames; no partial file is left")
    func fullDisk() throws {
        try withSmallDisk { disk in
            // 256 x 256 noisy pixels: about 256 KiB of PNG for a 64 KiB disk.
            let translucent = Self.noise(width: 256, height: 256, opaque: false)
            let opaque = Self.noise(width: 256, height: 256, opaque: true)
            for bitmap in [translucent, opaque] {
                let path = disk + "/still.png"
                let error = try #require(throws: PNGError.self) { try PNGCodec.encode(bitmap, toFileAt: path) }
                #expect(error.description == "cannot write PNG '\(path)': no space left on device (the disk is full)")
                #expect(try contents(of: disk).isEmpty, "the temporary file is removed")
            }
            for (bitmap, keepAlpha) in [(translucent, true), (opaque, false)] {
                let path = disk + "/frame_00000.png"
                let error = try #require(throws: PNGError.self) {
                    try PNGCodec.writeFrame(bitmap, toFileAt: path, keepAlpha: keepAlpha, compressionLevel: 0)
                }
                #expect(error.description == "cannot write PNG '\(path)': no space left on device (the disk is full)")
                try FileManager.default.removeItem(atPath: path)
            }
            // A small image still fits, so the disk itself works.
            try PNGCodec.encode(Bitmap(width: 4, height: 4, fill: (0, 0, 0, 255)), toFileAt: disk + "/small.png")
            #expect(try PNGCodec.readSize(fileAt: disk + "/small.png") == (4, 4))
        }
    }

    @Test("a read-only file system is named as such")
    func readOnly() throws {
        try withSmallDisk { disk in
            let remounted = try run("/bin/mount", ["-o", "remount,ro", disk])
            try #require(remounted.status == 0, "\(remounted.stderr)")
            let bitmap = Bitmap(width: 2, height: 2, fill: (0, 0, 0, 255))
            let still = try #require(throws: PNGError.self) { try PNGCodec.encode(bitmap, toFileAt: disk + "/a.png") }
            #expect(still.reason == "cannot create the file: read-only file system", "\(still)")
            let frame = try #require(throws: PNGError.self) {
                try PNGCodec.writeFrame(bitmap, toFileAt: disk + "/f.png", keepAlpha: true)
            }
            #expect(frame.reason == "cannot create the file: read-only file system", "\(frame)")
        }
    }
}
