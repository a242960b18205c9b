import Foundation
import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// `SceneJSON.encode` and the decoder are inverses on every scene the project
/// has: each fixture (decoded, written, decoded again) and each scene built
/// in Swift (written to a file, read back) is the same `Scene`, with no new
/// problems, and writing is stable: what is written reads back to what
/// writes the same bytes.
@Suite struct RoundTripTests {
    static var fixturePaths: [String] {
        let root = Repository.path("fixtures/scenes")
        let walker = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let relative = walker?.nextObject() as? String {
            if relative.hasSuffix(".json") { found.append(root + "/" + relative) }
        }
        return found.sorted()
    }

    @Test func everyFixtureIsFound() {
        let paths = Self.fixturePaths
        #expect(paths.contains { $0.hasSuffix("/features/anim-leaving.json") })
        #expect(paths.contains { $0.hasSuffix("/bench-transition-720p.json") })
        #expect(paths.count >= 37)
    }

    @Test(arguments: fixturePaths)
    func fixtureDecodesWritesAndDecodesToTheSameScene(path: String) throws {
        let original = try SceneJSON.read(fileAt: path)
        let written = try SceneJSON.encode(original.scene)
        let reread = try SceneJSON.decode(bytes: written, file: path, directory: original.scene.directory)
        #expect(reread.scene == original.scene)
        #expect(reread.problems == [], "new problems after writing")
        #expect(SceneValidator.problems(in: reread.scene) == SceneValidator.problems(in: original.scene))
        #expect(try SceneJSON.encode(reread.scene) == written, "writing is not stable")
    }

    @Test func swiftBuiltScenesWriteFilesThatReadBackEqual() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shiftrender-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (i, scene) in SwiftKitchenSink.scenes.enumerated() {
            let path = folder.appendingPathComponent("kitchen-sink-\(i).json").path
            let written = try SceneJSON.encode(scene)
            try Data(written).write(to: URL(fileURLWithPath: path))
            let read = try SceneJSON.read(fileAt: path)
            #expect(read.problems == [])
            // A scene read from a file resolves images against the file's folder.
            #expect(read.scene == scene.directory(folder.standardizedFileURL.path), "kitchen sink \(i)")
            #expect(try SceneJSON.encode(read.scene) == written, "kitchen sink \(i): writing is not stable")
        }
    }

    @Test func imagesInMemoryAreRefusedWithTheirPlace() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        for image in [ImageSource.encoded(png), .bitmap(Bitmap(width: 1, height: 1))] {
            let scene = Scene(
                canvas: CanvasSpec(width: 10, height: 10), from: View(),
                to: View {
                    View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
                    View(frame: Rect(x: 0, y: 0, width: 1, height: 1)).image(image)
                })
            #expect(writeError(scene)?.place.description == "to.subviews[1].image")
        }
    }

    /// JSON has no NaN or infinity: writing one would give text that does not read back.
    @Test func numbersJSONCannotHoldAreRefusedWithTheirPlace() {
        let cases: [(Scene, String)] = [
            (scene(View(frame: Rect(x: 0, y: 0, width: 1, height: 1)).alpha(.nan)), "to.subviews[0].alpha"),
            (scene(View(frame: Rect(x: 0, y: .infinity, width: 1, height: 1))), "to.subviews[0].frame[1]"),
            (
                scene(View(frame: Rect(x: 0, y: 0, width: 1, height: 1)).shift(animations: [.fade, .move(x: 1, y: .nan)])),
                "to.subviews[0].shift.animations[1].move.y"
            ),
            (scene(View()).fps(-.infinity), "fps"),
        ]
        for (scene, place) in cases {
            let error = writeError(scene)
            #expect(error?.place.description == place)
            #expect(error?.reason.contains("JSON has no NaN or infinity") == true)
        }
    }

    func writeError(_ scene: Scene) -> SceneJSON.WriteError? {
        do throws(SceneJSON.WriteError) {
            _ = try SceneJSON.encode(scene)
            return nil
        } catch {
            return error
        }
    }

    func scene(_ subview: View) -> Scene {
        Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View { subview })
    }
}
