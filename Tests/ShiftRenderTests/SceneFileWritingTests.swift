import Foundation
import Testing
@testable import ShiftRender

@Suite("Writing scenes built in Swift to files")
struct SceneFileWritingTests {
    @Test("Images held in memory are written beside the scene, which reads back to the same pixels")
    func inMemoryImages() throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.path("fixtures/images/star.png"))))
        let bitmap = try PNGCodec.decode(fileAt: Repository.path("fixtures/images/poster.png"))
        var scene = movingCardScene(image: .encoded(data))
        scene.from.subviews[0].image = .bitmap(bitmap)
        scene.to.subviews.append(View(frame: Rect(x: 0, y: 50, width: 20, height: 20), image: .encoded(data)))
        let directory = try TemporaryDirectory()
        let written = try scene.writeJSON(toFileAt: directory.path + "/card.json")
        #expect(try directory.contents() == ["card-images", "card.json"])
        #expect(try directory.contents(of: "card-images").count == 2, "the same data is written once")
        let reread = try Renderer(fileAt: directory.path + "/card.json")
        #expect(reread.scene == written)
        let original = try Renderer(scene: scene)
        for frame in [0, original.frameCount / 2, original.frameCount - 1] {
            #expect(try reread.still(.frame(frame)) == original.still(.frame(frame)), "frame \(frame)")
        }
        // The file is an output like any other: not replaced without asking.
        #expect(throws: RenderError.self) { try scene.writeJSON(toFileAt: directory.path + "/card.json") }
        try scene.writeJSON(toFileAt: directory.path + "/card.json", overwrite: true)
    }

    @Test("Relative image paths still point at their files when the scene is written elsewhere")
    func relativePaths() throws {
        let document = try SceneJSON.read(fileAt: Repository.path("fixtures/scenes/example-card.json"))
        let directory = try TemporaryDirectory()
        let written = try document.scene.writeJSON(toFileAt: directory.path + "/moved.json")
        let images = [written.to.subviews[1].image, written.from.subviews[1].subviews[0].image]
        for case .file(let path)? in images { #expect(path.hasPrefix("/") && FileManager.default.fileExists(atPath: path)) }
        #expect(
            try Renderer(fileAt: directory.path + "/moved.json").still(.frame(10))
                == Renderer(scene: document.scene).still(.frame(10)))
    }
}
