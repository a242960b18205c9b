import Foundation
import GoldenImages
import PNGCodec
import Primitives
import Testing

@Suite struct GoldenImagesTests {
    /// A 64 x 48 scene-like image: a soft gradient, an anti-aliased edge at x = 20.5, a translucent square.
    static func sample(shift: Int = 0) -> Bitmap {
        var b = Bitmap(width: 64, height: 48)
        for y in 0 ..< 48 {
            for x in 0 ..< 64 {
                let sx = x - shift
                var r = UInt8(40 + y)
                var g = UInt8(60 + 2 * y)
                var bl = UInt8(200)
                if sx > 20 { (r, g, bl) = (250, 250, 250) } else if sx == 20 { (r, g, bl) = (145, 155, 225) }
                var a: UInt8 = 255
                if (30 ..< 40).contains(sx) && (10 ..< 20).contains(y) {
                    a = 128
                    r /= 2
                    g /= 2
                    bl /= 2
                }
                b.setPixel(x: x, y: y, (r, g, bl, a))
            }
        }
        return b
    }

    @Test func identicalAndRoundingNoiseMatch() {
        let golden = Self.sample()
        #expect(ImageComparison(actual: golden, expected: golden).matches)
        var noisy = golden
        var rng = SystemRandomNumberGenerator()
        for i in noisy.pixels.indices {
            let v = Int(noisy.pixels[i]) + Int.random(in: -2 ... 2, using: &rng)
            noisy.pixels[i] = UInt8(min(255, max(0, v)))
        }
        let comparison = ImageComparison(actual: noisy, expected: golden)
        #expect(comparison.matches, "\(comparison)")
    }

    @Test func aOnePixelShiftFails() {
        let comparison = ImageComparison(actual: Self.sample(shift: 1), expected: Self.sample())
        #expect(!comparison.matches)
        #expect(comparison.differingPixels >= 48)
    }

    @Test func aTwoPercentAlphaErrorFails() {
        var dimmer = Self.sample()
        for i in stride(from: 0, to: dimmer.pixels.count, by: 4) {
            for c in 0 ..< 4 { dimmer.pixels[i + c] = UInt8((Double(dimmer.pixels[i + c]) * 0.98).rounded()) }
        }
        let comparison = ImageComparison(actual: dimmer, expected: Self.sample())
        #expect(!comparison.matches)
        #expect(comparison.maxDifference == 5)
    }

    @Test func differentSizesFail() {
        #expect(!ImageComparison(actual: Bitmap(width: 4, height: 4), expected: Bitmap(width: 4, height: 5)).matches)
    }

    @Test func checkWritesActualAndDiffOnFailureAndRecordsOnlyOnRequest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let golden = dir + "/goldens/card_0001.png"
        let failures = dir + "/failures"
        let check = GoldenCheck(failureDirectory: failures)
        // Missing golden: a failure, never an automatic recording.
        let missing = try check.check(Self.sample(), goldenPath: golden)
        #expect(!missing.passed)
        #expect(missing.message.contains("SHIFTRENDER_RECORD=1"))
        #expect(!FileManager.default.fileExists(atPath: golden))
        // Record on request, then the same image passes and a shifted one fails with files to look at.
        var recorder = check
        recorder.record = true
        #expect(try recorder.check(Self.sample(), goldenPath: golden).recorded)
        #expect(try check.check(Self.sample(), goldenPath: golden).passed)
        // Recording again leaves a golden that still matches untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: golden))
        var noisy = Self.sample()
        noisy.pixels[0] &+= 1
        #expect(try !recorder.check(noisy, goldenPath: golden).recorded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before)
        let failed = try check.check(Self.sample(shift: 1), goldenPath: golden)
        #expect(!failed.passed)
        let actualPath = try #require(failed.actualPath)
        let diffPath = try #require(failed.diffPath)
        #expect(try PNGCodec.decode(fileAt: actualPath) == Self.sample(shift: 1))
        let diff = try PNGCodec.decode(fileAt: diffPath)
        #expect(diff.pixel(x: 21, y: 5).r > 200)  // the moved edge glows red
        #expect(diff.pixel(x: 5, y: 5).r == diff.pixel(x: 5, y: 5).g)  // unchanged pixels stay grey
        #expect(failed.message.contains(actualPath) && failed.message.contains(diffPath))
    }

    @Test("recording never writes over a protected file, by any name; the golden folder keeps no temporary")
    func recordingSparesProtectedFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/goldens", withIntermediateDirectories: true)
        let photo = dir + "/photo.png"
        try PNGCodec.encode(Self.sample(shift: 3), toFileAt: photo)
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        try FileManager.default.createSymbolicLink(atPath: dir + "/goldens/card_0001.png", withDestinationPath: photo)
        var recorder = GoldenCheck(failureDirectory: dir + "/failures", record: true)
        recorder.protectedFiles = [photo]
        #expect(throws: (any Error).self) { try recorder.check(Self.sample(), goldenPath: dir + "/goldens/card_0001.png") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/goldens") == ["card_0001.png"])
        // Unprotected, the link itself is replaced by the golden (the photo stays as it was).
        recorder.protectedFiles = []
        #expect(try recorder.check(Self.sample(), goldenPath: dir + "/goldens/card_0001.png").recorded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == original)
    }

    @Test("a failure image never replaces a file the checks did not write; one they wrote is replaced")
    func failureImagesReplaceOnlyTheirOwn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let golden = dir + "/goldens/card_0001.png"
        var recorder = GoldenCheck(failureDirectory: dir + "/failures", record: true)
        #expect(try recorder.check(Self.sample(), goldenPath: golden).recorded)
        recorder.record = false
        try FileManager.default.createDirectory(atPath: dir + "/failures", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/failures/card_0001.actual.png"))
        #expect(throws: (any Error).self) { try recorder.check(Self.sample(shift: 1), goldenPath: golden) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/failures/card_0001.actual.png")) == Data("mine".utf8))
        try FileManager.default.removeItem(atPath: dir + "/failures/card_0001.actual.png")
        // Written by the check, it is replaced by the next failure of that name.
        for shift in [1, 2] {
            let failed = try recorder.check(Self.sample(shift: shift), goldenPath: golden)
            #expect(!failed.passed)
            #expect(try PNGCodec.decode(fileAt: try #require(failed.actualPath)) == Self.sample(shift: shift))
        }
    }
}
