import Foundation
import GoldenImages
import ShiftRender
import Testing

/// Renders every scene under fixtures/scenes at its chosen frames and compares
/// them with fixtures/golden/<scene>/frame_NNNNN.png. Mismatches write the
/// actual frame and a diff to .build/golden-failures/<scene>/ and fail.
/// Re-record (after looking at the new frames!) with:
///     SHIFTRENDER_RECORD=1 swift test --filter GoldenSuiteTests
@Suite struct GoldenSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Scene names relative to fixtures/scenes, without ".json"; benchmark scenes are left to the harness.
    static let scenes: [String] = {
        let base = root.appendingPathComponent("fixtures/scenes")
        let enumerator = FileManager.default.enumerator(atPath: base.path)
        var names: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".json") && !path.contains("bench") { names.append(String(path.dropLast(5))) }
        }
        return names.sorted()
    }()

    struct FrameChoice: Decodable {
        var `default`: [String]
        var extra: [String: [Int]]
    }

    static func frames(for scene: String, frameCount: Int) throws -> [Int] {
        let data = try Data(contentsOf: root.appendingPathComponent("fixtures/golden/frames.json"))
        let choice = try JSONDecoder().decode(FrameChoice.self, from: data)
        var frames = choice.default.map { name -> Int in
            switch name {
            case "first": return 0
            case "middle": return (frameCount - 1) / 2
            default: return frameCount - 1
            }
        }
        frames += choice.extra[scene] ?? []
        return Array(Set(frames.filter { $0 < frameCount })).sorted()
    }

    @Test func thereAreEnoughScenesToCoverTheFormat() {
        #expect(Self.scenes.count >= 25)
    }

    @Test(arguments: scenes)
    func sceneMatchesItsGoldens(_ scene: String) throws {
        let renderer = try Renderer(
            fileAt: Self.root.appendingPathComponent("fixtures/scenes/\(scene).json").path,
            options: Renderer.Options(threads: 2))
        let goldens = SceneGoldens(
            renderer: renderer, goldenDirectory: Self.root.appendingPathComponent("fixtures/golden/\(scene)").path,
            failureDirectory: Self.root.appendingPathComponent(".build/golden-failures/\(scene)").path)
        let report = try goldens.verify(frames: try Self.frames(for: scene, frameCount: renderer.frameCount))
        for (_, result) in report.results { #expect(result.passed, "\(result.message)") }
    }
}
