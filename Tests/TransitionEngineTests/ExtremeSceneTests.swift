import FramePlan
import Foundation
import Primitives
import SceneModel
import Testing
import TransitionEngine

/// Valid but extreme scenes (`ExtremeSceneGenerator`, the same generator as the
/// fuzz target `ExtremeSceneFuzzer`) plan without trapping, and their plans keep
/// the frame plan's invariants and the snapshot cap. Seeded, so a failure
/// names a seed that reproduces it.
@Suite struct ExtremeSceneTests {
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        return (0 ..< count).map { _ in
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    static func check(_ bytes: [UInt8], _ name: String) {
        let scene = ExtremeSceneGenerator.scene(from: bytes)
        let problems = SceneValidator.problems(in: scene)
        #expect(problems.isEmpty, "\(name): the generator made an invalid scene: \(problems.prefix(3))")
        guard problems.isEmpty else { return }
        let timeline = TransitionTimeline(scene: scene)
        let last = timeline.frameCount - 1
        let broken = PlanInvariants.problems(in: timeline, frames: Array(Set([0, last / 2, last])).sorted())
        #expect(broken.isEmpty, "\(name): \(broken.prefix(3))")
    }

    @Test func randomExtremeScenesPlanWithinTheInvariants() {
        for seed in 0 ..< 300 as Range<UInt64> {
            let start = Date(); FileHandle.standardError.write("START seed \(seed)\n".data(using: .utf8)!)
            Self.check(Self.bytes(seed: seed, count: 160), "seed \(seed)")
            let t = Date().timeIntervalSince(start)
            if t > 0.3 { FileHandle.standardError.write("SLOW seed \(seed) \(t)\n".data(using: .utf8)!) }
        }
    }

    /// Every input the fuzzer found (fuzz/regressions/extreme/), replayed.
    @Test func fuzzerRegressionsPlanWithinTheInvariants() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/regressions/extreme")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for file in files.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            Self.check([UInt8](data), file)
        }
    }
}
