import Compositor
import Foundation
import Primitives
import ShiftRender
import Testing
import TransitionEngine

/// Scenes at the edges of every limit (`ExtremeSceneGenerator`, the generator
/// of the fuzz target `ExtremeSceneFuzzer`) are either refused with the place
/// that is over a limit, or planned within the plan's invariants and drawn
/// within the memory budget, the same at any thread count. Seeded, so a
/// failure names a seed that reproduces it; the fuzzer explores further.
@Suite("Extreme scenes")
struct ExtremeSceneTests {
    /// SplitMix64: the bytes of seed `seed`.
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        return (0 ..< count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    enum Outcome: Equatable { case rendered, renderedClipped, refusedAtItsPlace, tooManyFrames, overBudget }

    /// Far above anything a canvas of at most 64 px a side needs, far below
    /// what an unclipped 10^6-pt view asks (terabytes).
    static let budget = 512e6

    /// One scene through what `shiftrender` does with it; records what broke.
    static func check(_ bytes: [UInt8], _ name: String) -> Outcome? {
        let generated = ExtremeSceneGenerator.scene(from: bytes)
        let renderer: Renderer
        do {
            renderer = try Renderer(scene: generated.scene, options: Renderer.Options(threads: 1, memoryLimit: budget))
        } catch {
            let places = (error.diagnostics?.errors ?? []).map(\.place)
            if error.kind == .invalidScene, let overstep = generated.overstep {
                #expect(places.contains(overstep), "\(name): over the limit at \(overstep), refused with \(places)")
                return .refusedAtItsPlace
            }
            // A valid scene whose motion and holds make more frames than a render may have.
            if error.kind == .invalidScene, places.isEmpty, error.message.contains("frames; the limit is") { return .tooManyFrames }
            Issue.record("\(name): refused: \(error.kind) \(error.message.prefix(300))")
            return nil
        }
        #expect(generated.overstep == nil, "\(name): over the limit at \(generated.overstep.map { "\($0)" } ?? ""), not refused")
        let timeline = renderer.timeline
        let last = renderer.frameCount - 1
        let frames = Array(Set([0, last / 2, last])).sorted()
        // Between frames too: stills may show any moment of the motion.
        let duration = timeline.segments[0].duration
        let times = duration > 0 ? [0.37, 0.61, 0.93].map { $0 * duration } : []
        let broken = PlanInvariants.problems(in: timeline, frames: frames, times: times)
        #expect(broken.isEmpty, "\(name): \(broken.prefix(3))")
        let clipped = timeline.snapshots.indices.contains { timeline.keptPart(ofSnapshot: $0) != nil }
        let estimate = renderer.memoryEstimate().total
        let middle: Bitmap
        do {
            middle = try renderer.still(.frame(last / 2))
            _ = try renderer.still(.frame(last))
        } catch {
            #expect(error.kind == .memory && estimate > budget, "\(name): \(error.kind) \(error.message.prefix(300))")
            return .overBudget
        }
        #expect(estimate <= budget)
        #expect(middle.width == timeline.canvas.pixelWidth && middle.height == timeline.canvas.pixelHeight)
        // The pixels never depend on the thread count (README: repeatable bytes).
        let banded = FrameRenderer(plan: timeline, threads: 3).render(frame: last / 2)
        #expect(banded == middle, "\(name): frame \(last / 2) differs between 1 and 3 threads")
        return clipped ? .renderedClipped : .rendered
    }

    @Test("Seeded extreme scenes: refused at their place, or planned within the invariants and drawn within the budget")
    func seededScenes() {
        var outcomes: [Outcome: Int] = [:]
        // 48 by default (about 15 s in a debug build); more to explore by hand.
        let count = UInt64(ProcessInfo.processInfo.environment["SHIFTRENDER_EXTREME_SEEDS"] ?? "") ?? 48
        for seed in 0 ..< count {
            if let outcome = Self.check(Self.bytes(seed: seed, count: 400), "seed \(seed)") { outcomes[outcome, default: 0] += 1 }
        }
        // Not vacuous: most of them are drawn, some from clipped snapshots (so
        // the kept-part check above ran), and some are refused.
        let rendered = outcomes[.rendered, default: 0] + outcomes[.renderedClipped, default: 0]
        #expect(rendered >= 30, "\(outcomes)")
        #expect(outcomes[.renderedClipped, default: 0] >= 4, "\(outcomes)")
        #expect(outcomes[.refusedAtItsPlace, default: 0] >= 2, "\(outcomes)")
    }

    /// Every input the fuzzer found (fuzz/regressions/extreme/), replayed.
    @Test func fuzzerRegressions() throws {
        let folder = URL(fileURLWithPath: Repository.path("fuzz/regressions/extreme"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(Self.check([UInt8](data), file) != nil, "\(file)")
        }
    }
}
