import Foundation
import PNGCodec
import Primitives
import Testing
@testable import ShiftRender

/// Images in scenes as an iOS app's assets come: PNG or JPEG told by their
/// bytes, other formats named in the message, damaged files reported at the
/// view, and `@2x` / `@3x` names giving the pixels per point.
@Suite("Scene images: formats and scales")
struct SceneImageFormatTests {
    /// A 100 x 100 pt canvas (at `scale`) whose `to` screen is white with one
    /// 100 x 100 view showing `image` under `mode`.
    static func scene(
        _ image: ImageSource, mode: ContentMode = .center, directory: String? = nil, scale: Double = 1
    ) -> Scene {
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), image: image, contentMode: mode)
        return Scene(
            canvas: CanvasSpec(width: 100, height: 100, scale: scale, background: .white), fps: 30,
            transition: TransitionSpec(defaultAnimation: .none),
            from: View(backgroundColor: .white), to: View(backgroundColor: .white, subviews: [view]), directory: directory)
    }

    /// The problems a scene's images have, as "place: message".
    static func problems(_ scene: Scene) -> [String] {
        do {
            _ = try Renderer(scene: scene)
            return []
        } catch {
            return (error.diagnostics?.errors ?? []).map { "\($0.placeText): \($0.message)" }
        }
    }

    /// The pixel rectangle of the `to` screen's still where red covers a pixel, as (x, y, width, height).
    static func redBox(_ scene: Scene) throws -> (Int, Int, Int, Int)? {
        let still = try Renderer(scene: scene).still(.progress(1))
        var xs: [Int] = []
        var ys: [Int] = []
        for y in 0 ..< still.height {
            for x in 0 ..< still.width {
                let p = still.pixel(x: x, y: y)
                if p.r > 200 && p.g < 60 && p.b < 60 {
                    xs.append(x)
                    ys.append(y)
                }
            }
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    static func write(_ bytes: [UInt8], _ name: String, in directory: TemporaryDirectory) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: directory.path + "/" + name))
    }

    // MARK: Formats

    /// A JPEG named `.png` and a PNG named `.jpg` decode as what they are.
    @Test("A JPEG image draws in a render, whatever its file is called")
    func jpegRendersEndToEnd() throws {
        let jpeg = try JPEGCodecTests.bytes("split.jpg")
        let directory = try TemporaryDirectory()
        try Self.write(jpeg, "photo.jpg", in: directory)
        try Self.write(jpeg, "photo-really-a-jpeg.png", in: directory)
        for source in [ImageSource.file("photo.jpg"), .file("photo-really-a-jpeg.png"), .encoded(jpeg)] {
            // 32 x 16 px stretched over 100 x 100: red left of x = 50, blue right of it.
            let still = try Renderer(scene: Self.scene(source, mode: .scaleToFill, directory: directory.path)).still(.progress(1))
            #expect(JPEGCodecTests.near(still.pixel(x: 10, y: 50), (220, 30, 30), 3), "\(source)")
            #expect(JPEGCodecTests.near(still.pixel(x: 90, y: 50), (30, 60, 200), 3), "\(source)")
        }
        let star = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("fixtures/images/star.png"))))
        try Self.write(star, "star.jpg", in: directory)
        #expect(Self.problems(Self.scene(.file("star.jpg"), directory: directory.path)) == [])
    }

    @Test("A truncated or corrupt JPEG is one problem at the view that names it")
    func damagedJPEG() throws {
        let whole = try JPEGCodecTests.bytes("split.jpg")
        let directory = try TemporaryDirectory()
        try Self.write(Array(whole.prefix(whole.count / 2)), "cut.jpg", in: directory)
        let found = Self.problems(Self.scene(.file("cut.jpg"), directory: directory.path))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("to.subviews[0].image: image \"cut.jpg\" (\(directory.path)/cut.jpg) cannot be decoded: ") == true)
        #expect(found.first?.contains("ends early") == true, "\(found)")
        let fromData = Self.problems(Self.scene(.encoded(Array(whole.prefix(whole.count / 2)))))
        #expect(fromData.count == 1 && fromData.first?.hasPrefix("to.subviews[0].image: JPEG data cannot be decoded: ") == true)
    }

    /// 9000 x 9000 px claimed by a 645-byte file: refused with the size
    /// message, where a decode would have found the data ending early.
    @Test("A JPEG header over the size limit is refused before decoding")
    func overLimitHeader() throws {
        let huge = try JPEGCodecTests.claimingSize(9000, 9000, try JPEGCodecTests.bytes("split.jpg"))
        let directory = try TemporaryDirectory()
        try Self.write(huge, "huge.jpg", in: directory)
        #expect(
            Self.problems(Self.scene(.file("huge.jpg"), directory: directory.path)) == [
                "to.subviews[0].image: image \"huge.jpg\" is 9000 x 9000 px; the limit is 8192 px a side"
            ])
        #expect(
            Self.problems(Self.scene(.encoded(huge))) == ["to.subviews[0].image: image data is 9000 x 9000 px; the limit is 8192 px a side"]
        )
    }

    @Test(
        "An image in another format is refused with the format's name",
        arguments: [
            ("x.gif", Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), "is a GIF"),
            ("x.webp", Array("RIFF\u{10}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "is a WebP image"),
            ("x.bmp", Array("BM6\u{0}\u{0}\u{0}".utf8), "is a BMP image"),
            ("x.heic", [0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}".utf8), "is a HEIC image"),
            ("x.tiff", Array("II*\u{0}\u{8}\u{0}\u{0}\u{0}".utf8), "is a TIFF image"),
            ("x.png", [0x00, 0x01, 0x02, 0x03, 0xFE], "is not an image in any format known here (it starts with bytes 00 01 02 03 FE)"),
            ("x.jpg", [], "is empty"),
        ])
    func unsupportedFormat(name: String, bytes: [UInt8], found: String) throws {
        let directory = try TemporaryDirectory()
        try Self.write(bytes, name, in: directory)
        #expect(
            Self.problems(Self.scene(.file(name), directory: directory.path)) == [
                "to.subviews[0].image: image \"\(name)\" \(found); images must be PNG or JPEG"
            ])
        if !bytes.isEmpty {
            #expect(Self.problems(Self.scene(.encoded(bytes))) == ["to.subviews[0].image: image data \(found); images must be PNG or JPEG"])
        }
    }

    // MARK: Scales

    @Test("A file name's @2x or @3x suffix declares its pixels per point")
    func declaredScale() {
        #expect(ImageSource.file("Play@3x.png").declaredScale == 3)
        #expect(ImageSource.file("icons/Play@2x.jpg").declaredScale == 2)
        #expect(ImageSource.file("Play@2x").declaredScale == 2)
        #expect(ImageSource.file("Play.png").declaredScale == nil)
        #expect(ImageSource.file("Play@3x/Play.png").declaredScale == nil)
        #expect(ImageSource.file("Play@4x.png").declaredScale == nil)
        #expect(ImageSource.encoded([0x89]).declaredScale == nil)
    }

    /// Worked by hand: 120 x 60 px at 3 px a point is 40 x 20 pt; centred in
    /// 100 x 100 pt it sits at ((100 - 40) / 2, (100 - 20) / 2) = (30, 40).
    /// At 2 px a point, 60 x 30 pt at (20, 35). Without a suffix, at the
    /// canvas scale (1): 120 x 60 pt at (-10, 20), cut by the canvas at 0 and 100.
    @Test("A 120 x 60 px x@3x.png is 40 x 20 pt, centred at (30, 40)")
    func scaleSuffixSizesThePoints() throws {
        let red = try PNGCodec.encode(Bitmap(width: 120, height: 60, fill: (255, 0, 0, 255)))
        let directory = try TemporaryDirectory()
        for name in ["x@3x.png", "x@2x.png", "x.png"] { try Self.write(red, name, in: directory) }
        #expect(try Self.redBox(Self.scene(.file("x@3x.png"), directory: directory.path)) ?? (0, 0, 0, 0) == (30, 40, 40, 20))
        #expect(try Self.redBox(Self.scene(.file("x@2x.png"), directory: directory.path)) ?? (0, 0, 0, 0) == (20, 35, 60, 30))
        #expect(try Self.redBox(Self.scene(.file("x.png"), directory: directory.path)) ?? (0, 0, 0, 0) == (0, 20, 100, 60))
        // On a 2x canvas the @3x image is still 40 x 20 pt: 80 x 40 px at (60, 80).
        #expect(try Self.redBox(Self.scene(.file("x@3x.png"), directory: directory.path, scale: 2)) ?? (0, 0, 0, 0) == (60, 80, 80, 40))
        // Data and bitmaps are at the canvas scale: 120 x 60 pt.
        #expect(try Self.redBox(Self.scene(.encoded(red))) ?? (0, 0, 0, 0) == (0, 20, 100, 60))
    }

    @Test("A JPEG named @2x is half its pixel size in points")
    func jpegScaleSuffix() throws {
        let directory = try TemporaryDirectory()
        try Self.write(try JPEGCodecTests.bytes("split.jpg"), "split@2x.jpg", in: directory)
        // 32 x 16 px at 2 px a point: 16 x 8 pt, top-left: red over 0 ..< 8 (less the blended edge), blue to 16.
        let still = try Renderer(scene: Self.scene(.file("split@2x.jpg"), mode: .topLeft, directory: directory.path)).still(.progress(1))
        #expect(JPEGCodecTests.near(still.pixel(x: 2, y: 3), (220, 30, 30), 3))
        #expect(JPEGCodecTests.near(still.pixel(x: 13, y: 3), (30, 60, 200), 3))
        #expect(still.pixel(x: 17, y: 3) == (255, 255, 255, 255))
        #expect(still.pixel(x: 2, y: 9) == (255, 255, 255, 255))
    }

    @Test("The memory estimate counts a JPEG image's decoded pixels")
    func memoryEstimateCountsJPEG() throws {
        let withImage = try Renderer(scene: Self.scene(.file(JPEGCodecTests.fixture("split.jpg"))))
        let images = withImage.memoryEstimate().parts.first { $0.name == "images" }?.bytes ?? 0
        #expect(images >= 32 * 16 * 4)
    }
}
