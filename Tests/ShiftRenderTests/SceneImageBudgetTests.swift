import Foundation
import PNGCodec
import Primitives
import Testing
@testable import ShiftRender

/// Images are budgeted from their headers before any is decoded, a file is decoded once however it is named, and a
/// JPEG cut off after its first marker is a damaged JPEG, not "not an image" (`SceneImages`).
@Suite("Scene images: the budget before decoding")
struct SceneImageBudgetTests {
    /// A 100 x 100 pt canvas whose `from` screen shows each of `images` in a view of its own.
    static func scene(_ images: [ImageSource], directory: String) -> Scene {
        let views = images.enumerated().map { i, image in
            View(frame: Rect(x: Double(i % 10), y: 0, width: 50, height: 50), image: image)
        }
        return Scene(
            canvas: CanvasSpec(width: 100, height: 100, scale: 1, background: .white), fps: 30,
            transition: TransitionSpec(defaultAnimation: .fade),
            from: View(backgroundColor: .white, subviews: views), to: View(backgroundColor: .white), directory: directory)
    }

    /// A `side` x `side` opaque PNG (a flat colour: a small file however large the image).
    static func writePNG(side: Int, to path: String) throws {
        var bitmap = Bitmap(width: side, height: side)
        for i in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels[i] = 200; bitmap.pixels[i + 3] = 255 }
        try PNGCodec.encode(bitmap, toFileAt: path)
    }

    @Test("images over the memory limit together are refused from their headers, naming files, views and the knob")
    func refusedBeforeDecoding() throws {
        let folder = try TemporaryDirectory()
        try Self.writePNG(side: 2048, to: folder.path + "/photo0.png")
        for i in 1 ..< 6 { try FileManager.default.copyItem(atPath: folder.path + "/photo0.png", toPath: folder.path + "/photo\(i).png") }
        // Six different files of 16.8 MB decoded each, every one named twice: 101 MB decoded, 17 MB more while the
        // last one is premultiplied, and the program's 68 MB: 185 MB.
        let images = (0 ..< 12).map { ImageSource.file("photo\($0 % 6).png") }
        do {
            _ = try Renderer(scene: Self.scene(images, directory: folder.path), options: Renderer.Options(memoryLimit: 150e6))
            Issue.record("six 2048 x 2048 images were decoded within 150 MB")
        } catch {
            #expect(error.kind == .memory)
            let message = error.message
            #expect(message.hasPrefix("the scene's images need about 185 MB to decode, before any frame is drawn (6 different images"),
                    "\(message)")
            #expect(message.contains("the memory limit is 150 MB") && message.contains("--memory-limit"), "\(message)")
            #expect(message.contains("\"photo0.png\": 2048 x 2048 px, 17 MB, at from.subviews[0].image, from.subviews[6].image"),
                    "\(message)")
            #expect(message.contains("... and 1 more images"), "\(message)")
        }
        // The same scene within a limit that holds it renders.
        let renderer = try Renderer(scene: Self.scene(images, directory: folder.path), options: Renderer.Options(memoryLimit: 1e9))
        #expect(renderer.timeline.images.count == 6)
    }

    @Test("a file named through links and other spellings is decoded once, its pixels shared")
    func oneFileDecodedOnce() throws {
        let folder = try TemporaryDirectory()
        try Self.writePNG(side: 1024, to: folder.path + "/poster.png")
        try FileManager.default.createDirectory(atPath: folder.path + "/links", withIntermediateDirectories: true)
        var images: [ImageSource] = [.file("poster.png"), .file("./poster.png"), .file("links/../poster.png")]
        for i in 0 ..< 20 {
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/links/poster\(i).png", withDestinationPath: "../poster.png")
            images.append(.file("links/poster\(i).png"))
        }
        // 23 names of one 4 MB image fit in a budget of the program and two images (one decoded, one its copy).
        let images23 = SceneImages(scene: Self.scene(images, directory: folder.path), decoding: .keeping(memoryLimit: 68e6 + 9e6))
        #expect(images23.overBudget == nil && images23.problems.isEmpty)
        let bitmaps = Set(images23.decoded.values.map { $0.pixels.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } })
        #expect(images23.decoded.count == 23 && bitmaps.count == 1)
    }

    @Test("a JPEG cut off after its start-of-image marker is a damaged JPEG at its view, file or data")
    func twoByteJPEG() throws {
        let folder = try TemporaryDirectory()
        try Data([0xFF, 0xD8]).write(to: URL(fileURLWithPath: folder.path + "/hero.jpg"))
        for source in [ImageSource.file("hero.jpg"), .encoded([0xFF, 0xD8])] {
            let images = SceneImages(scene: Self.scene([.file("other.png"), source], directory: folder.path))
            let problem = try #require(images.problems.last)
            #expect(problem.place.description == "from.subviews[1].image")
            #expect(problem.message.contains("cannot be decoded: it is a damaged JPEG, cut off after its first 2 bytes"),
                    "\(problem.message)")
            if case .file = source { #expect(problem.message.hasPrefix("image \"hero.jpg\" (\(folder.path)/hero.jpg)")) }
        }
    }
}
