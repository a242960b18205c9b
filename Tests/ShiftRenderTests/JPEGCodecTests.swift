import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import JPEGCodec
import Primitives
import Testing

/// The JPEG decoder on the fixtures of fixtures/images/jpeg (written by
/// generate.c there with libjpeg itself: one colour, or two halves of one
/// colour each, so every pixel is known within JPEG's error), and on the
/// damaged files a scene may name.
@Suite("JPEG decoding")
struct JPEGCodecTests {
    static func fixture(_ name: String) -> String { Repository.path("fixtures/images/jpeg/" + name) }
    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture(name)))) }

    /// True when every channel of `pixel` is within `tolerance` of `expected`, and it is opaque.
    static func near(_ pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ expected: (Int, Int, Int), _ tolerance: Int = 2) -> Bool {
        abs(Int(pixel.r) - expected.0) <= tolerance && abs(Int(pixel.g) - expected.1) <= tolerance
            && abs(Int(pixel.b) - expected.2) <= tolerance && pixel.a == 255
    }

    /// Every pixel of `bitmap` in `columns` is `expected` (±2).
    static func expectColumns(_ bitmap: Bitmap, _ columns: Range<Int>, _ expected: (Int, Int, Int)) {
        for y in 0 ..< bitmap.height {
            for x in columns {
                let pixel = bitmap.pixel(x: x, y: y)
                #expect(near(pixel, expected), "(\(x), \(y)) is \(pixel), expected \(expected)")
            }
        }
    }

    @Test("A solid-colour JPEG decodes to that colour, opaque, from a file and from data")
    func solidColour() throws {
        for bitmap in [try JPEGCodec.decode(fileAt: Self.fixture("solid.jpg")), try JPEGCodec.decode(data: Self.bytes("solid.jpg"))] {
            #expect(bitmap.width == 16 && bitmap.height == 16)
            Self.expectColumns(bitmap, 0 ..< 16, (200, 40, 90))
        }
    }

    /// Chroma is stored at half resolution (4:2:0) and upsampled smoothly, so
    /// the columns next to the edge blend; 4 px away each half is its colour.
    @Test(
        "A two-colour JPEG, baseline and progressive, decodes with the right colour on each side",
        arguments: ["split.jpg", "split-progressive.jpg"])
    func split(name: String) throws {
        let bitmap = try JPEGCodec.decode(fileAt: Self.fixture(name))
        #expect(bitmap.width == 32 && bitmap.height == 16)
        Self.expectColumns(bitmap, 0 ..< 12, (220, 30, 30))
        Self.expectColumns(bitmap, 20 ..< 32, (30, 60, 200))
    }

    @Test("Greyscale JPEGs, baseline and progressive, decode to grey RGB", arguments: ["grey.jpg", "grey-progressive.jpg"])
    func greyscale(name: String) throws {
        let header = try JPEGCodec.readHeader(fileAt: Self.fixture(name))
        #expect(header.components == 1)
        #expect(header.isProgressive == name.contains("progressive"))
        let bitmap = try JPEGCodec.decode(fileAt: Self.fixture(name))
        Self.expectColumns(bitmap, 0 ..< 14, (40, 40, 40))
        Self.expectColumns(bitmap, 18 ..< 32, (200, 200, 200))
    }

    /// Adobe's inverted CMYK: magenta and yellow ink is red, half black ink is grey 127.
    @Test("CMYK and YCCK JPEGs are converted to RGB", arguments: ["cmyk-adobe.jpg", "ycck-adobe.jpg"])
    func cmyk(name: String) throws {
        let header = try JPEGCodec.readHeader(fileAt: Self.fixture(name))
        #expect(header.isCMYK && header.components == 4)
        let bitmap = try JPEGCodec.decode(fileAt: Self.fixture(name))
        Self.expectColumns(bitmap, 0 ..< 12, (255, 0, 0))
        Self.expectColumns(bitmap, 20 ..< 32, (127, 127, 127))
    }

    /// Stored 32 x 16, red | blue, with orientation 6: shown turned a quarter
    /// clockwise, 16 x 32, the stored left (red) on top.
    @Test("The EXIF orientation is applied")
    func orientation() throws {
        let header = try JPEGCodec.readHeader(fileAt: Self.fixture("split-orientation-6.jpg"))
        #expect(header.orientation == 6 && header.storedWidth == 32 && header.width == 16 && header.height == 32)
        let bitmap = try JPEGCodec.decode(fileAt: Self.fixture("split-orientation-6.jpg"))
        #expect(bitmap.width == 16 && bitmap.height == 32)
        #expect(Self.near(bitmap.pixel(x: 3, y: 2), (220, 30, 30)))
        #expect(Self.near(bitmap.pixel(x: 12, y: 8), (220, 30, 30)))
        #expect(Self.near(bitmap.pixel(x: 3, y: 29), (30, 60, 200)))
        #expect(Self.near(bitmap.pixel(x: 12, y: 24), (30, 60, 200)))
        #expect(try JPEGCodec.readHeader(fileAt: Self.fixture("split.jpg")).orientation == 1)
    }

    /// Every orientation against a 3 x 2 bitmap worked by hand
    /// (stored rows "a b c" / "d e f").
    @Test("The eight orientations map stored pixels as EXIF defines them")
    func orientations() {
        var stored = Bitmap(width: 3, height: 2)
        for (i, name) in "abcdef".unicodeScalars.enumerated() {
            stored.setPixel(x: i % 3, y: i / 3, (UInt8(name.value), 0, 0, 255))
        }
        func shown(_ orientation: Int) -> String {
            let bitmap = JPEGCodec.oriented(stored, orientation)
            return (0 ..< bitmap.height).map { y in
                String((0 ..< bitmap.width).map { x in Character(UnicodeScalar(bitmap.pixel(x: x, y: y).r)) })
            }.joined(separator: "/")
        }
        #expect(shown(1) == "abc/def")
        #expect(shown(2) == "cba/fed")
        #expect(shown(3) == "fed/cba")
        #expect(shown(4) == "def/abc")
        #expect(shown(5) == "ad/be/cf")
        #expect(shown(6) == "da/eb/fc")
        #expect(shown(7) == "fc/eb/da")
        #expect(shown(8) == "cf/be/ad")
    }

    @Test("A truncated JPEG is an error that says it ends early, from a file and from data", arguments: [0.3, 0.6, 0.9])
    func truncated(fraction: Double) throws {
        let whole = try Self.bytes("split.jpg")
        let cut = Array(whole.prefix(Int(Double(whole.count) * fraction)))
        #expect {
            try JPEGCodec.decode(data: cut, name: "cut.jpg")
        } throws: { error in
            let error = error as? JPEGError
            return error?.reason.contains("ends early") == true && error?.description.hasPrefix("cannot decode JPEG 'cut.jpg'") == true
        }
        let directory = try TemporaryDirectory()
        let path = directory.path + "/cut.jpg"
        try Data(cut).write(to: URL(fileURLWithPath: path))
        #expect(throws: JPEGError.self) { try JPEGCodec.decode(fileAt: path) }
    }

    @Test("Corrupt JPEGs are errors naming what libjpeg found, never a crash")
    func corrupt() throws {
        let whole = try Self.bytes("split.jpg")
        // A marker (RST0) where the entropy-coded data should be (its first bytes: it is short).
        let scan = try #require(Self.startOfScanData(whole))
        var marker = whole
        marker.replaceSubrange(scan + 2 ..< scan + 4, with: [0xFF, 0xD0])
        #expect { try JPEGCodec.decode(data: marker) } throws: { ($0 as? JPEGError)?.reason.contains("ends early") == true }
        // The frame header (SOF0) claiming 7 components.
        let frame = try #require(Self.marker(0xC0, in: whole))
        var components = whole
        components[frame + 9] = 7
        // Nothing but the start-of-image marker.
        let bare: [UInt8] = [0xFF, 0xD8, 0xFF]
        for damaged in [marker, components, bare] {
            #expect {
                try JPEGCodec.decode(data: damaged)
            } throws: { error in
                guard let error = error as? JPEGError else { return false }
                return !error.reason.isEmpty && !error.reason.contains("\n")
            }
        }
    }

    /// Every byte of a small JPEG (baseline and progressive) set to 0x00, 0xFF
    /// and flipped in turn: each decode returns a bitmap of the size the header
    /// gave or throws; none crashes, hangs or prints (libjpeg's handlers would).
    @Test("Damaging any byte of a JPEG never crashes the decoder", arguments: ["split.jpg", "grey-progressive.jpg"])
    func everyByteDamaged(name: String) throws {
        struct Refused: Error {}
        let whole = try Self.bytes(name)
        var failures = 0
        for index in whole.indices {
            for value in [0x00, 0xFF, ~whole[index]] {
                var damaged = whole
                damaged[index] = value
                var size = (0, 0)
                do {
                    let bitmap = try JPEGCodec.decode(data: damaged) { header in
                        guard header.width <= 8192, header.height <= 8192 else { throw Refused() }
                        size = (header.width, header.height)
                    }
                    #expect(bitmap.width == size.0 && bitmap.height == size.1)
                } catch {
                    failures += 1
                }
            }
        }
        #expect(failures > 0)
    }

    @Test("The header check sees the size before any pixel is decoded, and can refuse it")
    func headerCheckComesFirst() throws {
        struct Refused: Error {}
        var seen: JPEGCodec.Header?
        #expect(throws: Refused.self) {
            try JPEGCodec.decode(fileAt: Self.fixture("split-progressive.jpg")) { header in
                seen = header
                throw Refused()
            }
        }
        #expect(seen?.storedWidth == 32 && seen?.storedHeight == 16 && seen?.isProgressive == true)
        // A 9000 x 9000 header over 32 x 16 px of data: refused from the header,
        // where decoding would have found the data ending early.
        let huge = try Self.claimingSize(9000, 9000, try Self.bytes("split.jpg"))
        #expect(throws: Refused.self) { try JPEGCodec.decode(data: huge) { _ in throw Refused() } }
        #expect { try JPEGCodec.decode(data: huge) } throws: { ($0 as? JPEGError)?.reason.contains("ends early") == true }
    }

    /// The PNG decoder once allocated and zeroed the whole pixel buffer of a
    /// tiny file claiming 8192 x 8192 px (fuzz/README.md). Here the rows are
    /// written into memory the system provides only as it is written, and
    /// libjpeg's own buffers are filled as the data comes: a 645-byte file
    /// claiming 8192 x 8192 px (256 MiB of RGBA, 192 MiB of progressive
    /// coefficients) fails at its first rows without growing the process.
    @Test(
        "A tiny JPEG claiming 8192 x 8192 px fails without allocating its pixels",
        arguments: [("split.jpg", UInt8(0xC0)), ("split-progressive.jpg", 0xC2)])
    func tinyFileClaimingTheLimit(name: String, frameMarker: UInt8) throws {
        let tiny = try Self.claimingSize(8192, 8192, try Self.bytes(name), frameMarker: frameMarker)
        #expect(try JPEGCodec.decode(data: Self.bytes(name)).width == 32)
        let before = Self.peakResidentKilobytes()
        #expect(throws: JPEGError.self) { try JPEGCodec.decode(data: tiny) }
        #expect(Self.peakResidentKilobytes() - before < 64_000, "decoding a \(tiny.count)-byte JPEG grew the process")
    }

    static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    // MARK: Building damaged files

    /// Where the marker FF `code` starts in `bytes`.
    static func marker(_ code: UInt8, in bytes: [UInt8]) -> Int? {
        (0 ..< bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == code }
    }

    /// Where the first scan's entropy-coded data starts (after the SOS segment).
    static func startOfScanData(_ bytes: [UInt8]) -> Int? {
        guard let sos = marker(0xDA, in: bytes) else { return nil }
        return sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
    }

    /// `jpeg` with its frame header (SOF0 baseline, SOF2 progressive) claiming `width` x `height` px.
    static func claimingSize(_ width: Int, _ height: Int, _ jpeg: [UInt8], frameMarker: UInt8 = 0xC0) throws -> [UInt8] {
        let frame = try #require(marker(frameMarker, in: jpeg))
        var bytes = jpeg
        bytes[frame + 5] = UInt8(height >> 8)
        bytes[frame + 6] = UInt8(height & 0xFF)
        bytes[frame + 7] = UInt8(width >> 8)
        bytes[frame + 8] = UInt8(width & 0xFF)
        return bytes
    }
}
