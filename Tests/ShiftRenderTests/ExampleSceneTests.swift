import Foundation
@testable import scene_in_swift
import ShiftRender
import Testing

/// The example executable's scene, built in Swift, is the README's example
/// file as a value: the same `Scene` the decoder makes of
/// fixtures/scenes/example-card.json (images and `directory` included), and
/// it writes a scene file that reads back to itself.
@Suite struct ExampleSceneTests {
    static let examplePath = RepositoryFiles.path("fixtures/scenes/example-card.json")

    @Test func swiftExampleEqualsTheJSONExample() throws {
        let decoded = try SceneJSON.read(fileAt: Self.examplePath)
        #expect(decoded.problems.isEmpty)
        let built = ExampleCard.scene()
        #expect(built.directory == decoded.scene.directory)
        #expect(built.from == decoded.scene.from)
        #expect(built.to == decoded.scene.to)
        #expect(built == decoded.scene)
    }

    @Test func swiftExampleWritesAFileThatReadsBackEqual() throws {
        let folder = try RepositoryFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/example-card.json"
        let scene = ExampleCard.scene()
        let written = try SceneJSON.encode(scene)
        try Data(written).write(to: URL(fileURLWithPath: path))
        let read = try SceneJSON.read(fileAt: path)
        #expect(read.problems.isEmpty)
        // Read from a file, relative image paths resolve against the file's folder.
        #expect(read.scene == scene.directory(read.scene.directory))
        #expect(read.scene.directory == URL(fileURLWithPath: folder).standardizedFileURL.path)
        #expect(try SceneJSON.encode(read.scene) == written)
    }
}

/// Places in this repository and scratch folders for the tests of this target.
enum RepositoryFiles {
    static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().standardizedFileURL.path
    }

    static func path(_ relative: String) -> String { root + "/" + relative }

    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shiftrender-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
