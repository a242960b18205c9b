import Foundation
import Primitives
import Testing
@testable import PNGCodec
@testable import SceneFormat
import SceneModel
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

/// The decoder and image loader on hostile input: what the fuzzers found, the
/// corpus in fixtures/invalid/, and the inputs in fuzz/regressions/ replayed.
@Suite struct BadInputTests {
    let base = """
        {"version": 1, "canvas": {"width": 10, "height": 10}, "from": {}, "to": {"subviews": [{"frame": [0, 0, 5, 5]VIEW}]}}
        """

    func issues(_ text: String, baseDirectory: String = "/scenes") -> [SceneProblem] {
        issues(Array(text.utf8), baseDirectory: baseDirectory)
    }

    func issues(_ bytes: [UInt8], baseDirectory: String = "/scenes") -> [SceneProblem] {
        do {
            _ = try loadScene(bytes: bytes, file: "bad.json", baseDirectory: baseDirectory)
            return []
        } catch {
            return error.issues
        }
    }

    func view(_ extra: String) -> String { base.replacingOccurrences(of: "VIEW", with: extra) }

    // MARK: Found while fuzzing and reviewing

    /// Character.isHexDigit accepts fullwidth digits ("#ＦＦＦ"), which
    /// Int(_:radix:) then refused: a force unwrap crashed the decoder.
    @Test func fullwidthHexDigitsAreAnInvalidColourNotACrash() {
        #expect(RGBAColor(hex: "#\u{FF26}\u{FF26}\u{FF26}") == nil)
        #expect(RGBAColor(hex: "#\u{FF10}\u{FF10}\u{FF10}\u{FF10}\u{FF10}\u{FF10}") == nil)
        #expect(RGBAColor(hex: "#F\u{301}F") == nil)
        #expect(RGBAColor(hex: "#abc") == RGBAColor(red: 0xAA / 255.0, green: 0xBB / 255.0, blue: 0xCC / 255.0))
        #expect(RGBAColor(hex: "#0a0B0c80") == RGBAColor(red: 10 / 255.0, green: 11 / 255.0, blue: 12 / 255.0, alpha: 128 / 255.0))
        let found = issues(view(", \"backgroundColor\": \"#\u{FF26}FF\""))
        #expect(found.map(\.path) == ["to.subviews[0].backgroundColor"])
        #expect(found.first?.message.hasPrefix("invalid colour") == true)
    }

    /// A key or value holding an escaped newline made a multi-line message, so
    /// a scene could forge extra "error" lines (or send terminal escapes).
    @Test func controlCharactersFromTheSceneAreEscapedInMessages() {
        let found = issues(view(", \"corner\\nRadius\": 1, \"contentMode\": \"fill\\u001b[31m\""))
        #expect(found.count == 2)
        for issue in found {
            #expect(
                !issue.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(issue.description.debugDescription)")
        }
        #expect(found.contains { $0.path == "to.subviews[0].corner\\nRadius" && $0.message.hasPrefix("unknown key \"corner\\nRadius\"") })
        #expect(found.contains { $0.message.hasPrefix("unknown value \"fill\\u001B[31m\"") })
        #expect(
            SceneProblem.escapingControlCharacters("a\u{0}b\u{7F}c\u{85}d\u{2028}e\tf\rg") == "a\\u0000b\\u007Fc\\u0085d\\u2028e\\tf\\rg")
        #expect(SceneProblem.escapingControlCharacters("café ✓ 🎬") == "café ✓ 🎬")
    }

    /// An image naming a device or a FIFO is refused before it is opened: a
    /// FIFO would block the read forever.
    @Test func anImageThatIsNotARegularFileIsRefused() throws {
        let found = issues(view(", \"image\": \"/dev/zero\""))
        #expect(found.map(\.message) == ["image \"/dev/zero\" (/dev/zero) is not a regular file; images must be PNG or JPEG files"])

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shiftrender-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Hold both ends open with bytes waiting, so that a loader which did
        // open it would read "not a PNG" instead of blocking this test.
        let handle = open(fifo, O_RDWR | O_NONBLOCK)
        #expect(handle >= 0)
        defer { close(handle) }
        _ = "not a png at all".withCString { write(handle, $0, 16) }
        let fromFIFO = issues(view(", \"image\": \"pipe.png\""), baseDirectory: dir.path)
        #expect(fromFIFO.map(\.message) == ["image \"pipe.png\" (\(fifo)) is not a regular file; images must be PNG or JPEG files"])
    }

    @Test func aSchemaReferenceMustBeAString() {
        let found = issues(
            base.replacingOccurrences(of: "{\"version\": 1,", with: "{\"$schema\": 5, \"version\": 1,").replacingOccurrences(
                of: "VIEW", with: ""))
        #expect(found.map(\.path) == ["$schema"])
        #expect(
            issues(
                base.replacingOccurrences(of: "{\"version\": 1,", with: "{\"$schema\": \"s.json\", \"version\": 1,").replacingOccurrences(
                    of: "VIEW", with: "")) == [])
    }

    // MARK: Images

    /// The corpus PNG claiming 100000 x 100000 px: its header reads as that,
    /// and both the loader and the codec refuse it before allocating pixels.
    @Test func aPNGHeaderClaiming100000PixelsASideIsRefusedFromTheHeader() throws {
        let png = Repository.path("fixtures/invalid/huge-header.png")
        let size = try PNGCodec.readSize(fileAt: png)
        #expect(size.width == 100_000 && size.height == 100_000)
        let before = peakResidentKilobytes()
        let found = issues(view(", \"image\": \"huge-header.png\""), baseDirectory: Repository.path("fixtures/invalid"))
        #expect(found.map(\.message) == ["image \"huge-header.png\" is 100000 x 100000 px; the limit is 8192 px a side"])
        #expect(throws: PNGError.self) { try PNGCodec.decode(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))) }
        // 40 GB of pixels would show here; a refusal from the header costs nothing.
        #expect(peakResidentKilobytes() - before < 100_000)
    }

    /// A 79-byte PNG whose header claims 8192 x 8192 (or 16384 x 16384) px
    /// made the decoder allocate the whole pixel buffer (256 MiB, 1 GiB) before
    /// libpng found the data missing; the ImageLoaderFuzzer peaked at 461 MB
    /// on inputs under 4 KB. Deflate cannot pack pixels tighter than 1032:1,
    /// so such a file is refused from its length.
    @Test(arguments: ["tiny-file-claiming-8192-square.png", "tiny-file-claiming-16384-square.png"])
    func aPNGTooShortForItsSizeIsRefusedBeforeAllocating(name: String) throws {
        let file = Repository.path("fuzz/regressions/image/" + name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes.count < 100)
        let before = peakResidentKilobytes()
        #expect {
            try PNGCodec.decode(data: bytes)
        } throws: { error in
            (error as? PNGError)?.reason.hasPrefix("the PNG ends early:") == true
        }
        #expect {
            try PNGCodec.decode(fileAt: file)
        } throws: { error in
            (error as? PNGError)?.reason.hasPrefix("the PNG ends early:") == true
        }
        #expect(peakResidentKilobytes() - before < 100_000, "decoding a \(bytes.count)-byte PNG grew the process")
    }

    /// The densest PNG there is (1-bit grey, all one colour, zlib level 9,
    /// about 1027:1) is still well above the bound and decodes.
    @Test func theDensestValidPNGStillDecodes() throws {
        let file = Repository.path("fuzz/regressions/image/densest-valid-2048x8192.png")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes.count < 2 * PNGCodec.minimumByteCount(width: 2048, height: 8192) + 100)
        let decoded = try PNGCodec.decode(data: bytes)
        #expect(decoded.width == 2048 && decoded.height == 8192)
        #expect(try PNGCodec.decode(fileAt: file).width == 2048)
    }

    @Test func aCorruptPNGIsOneIssueAtTheView() {
        let found = issues(view(", \"image\": \"corrupt.png\""), baseDirectory: Repository.path("fixtures/invalid"))
        #expect(found.count == 1)
        #expect(found.first?.path == "to.subviews[0].image")
        #expect(found.first?.message.contains("cannot be decoded: IDAT") == true)
    }

    func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    // MARK: The corpus and the fuzzers' finds, replayed

    /// Every scene in fixtures/invalid/ is refused by the decoder alone (bar
    /// the one whose problem is its output path), with one-line issues.
    @Test(
        arguments: Repository.files(in: "fixtures/invalid").filter {
            $0.hasSuffix(".json") && !$0.hasSuffix("/expected.json") || $0.hasSuffix(".bin")
        })
    func everyInvalidSceneIsRefused(file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let found = issues(bytes, baseDirectory: Repository.path("fixtures/invalid"))
        if file.hasSuffix("/unwritable-output.json") {
            #expect(found == [])
        } else {
            #expect(!found.isEmpty)
        }
        for issue in found { #expect(!issue.description.contains("\n")) }
    }

    /// The inputs that crashed a fuzzer (fuzz/regressions/) now decode or fail
    /// cleanly, with the invariants the fuzz targets check.
    @Test(arguments: Repository.files(in: "fuzz/regressions/scene"))
    func fuzzRegressionScene(file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        for issue in issues(bytes, baseDirectory: Repository.path("fixtures/scenes")) {
            #expect(
                !issue.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(issue.description.debugDescription)")
        }
    }

    @Test(arguments: Repository.files(in: "fuzz/regressions/image"))
    func fuzzRegressionImage(file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        if let bitmap = try? PNGCodec.decode(data: bytes) {
            #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shiftrender-regression-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(bytes).write(to: dir.appendingPathComponent("input.png"))
        let found = issues(view(", \"image\": \"input.png\""), baseDirectory: dir.path)
        #expect(found.count <= 1)
        #expect(found.allSatisfy { $0.path == "to.subviews[0].image" })
    }

    @Test func deepNestingIsRefusedAtEveryDepthWithoutExhaustingTheStack() {
        for depth in [10, 1_000, 100_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let found = issues(text)
            #expect(found.count == 1)
            #expect(
                found.first?.message.contains(depth > JSONReader.maximumDepth ? "nesting deeper than" : "expected an object") == true,
                "depth \(depth): \(found)")
        }
    }
}
