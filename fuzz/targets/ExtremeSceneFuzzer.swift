// libFuzzer target: bytes -> a valid-but-extreme scene (ExtremeSceneGenerator,
// Tests/ShiftRenderTests/ExtremeScenes.swift, compiled into this target by
// fuzz/build.sh) -> validate -> plan -> draw. The crashes of issue 11 came from
// valid scenes at the format's limits, which random JSON almost never reaches;
// here every input is such a scene, or one just over a single limit.
//
// Checks, besides crashes, hangs and memory: a scene over a limit is refused at
// the place the generator stepped over; a valid one plans within the plan's
// invariants (PlanInvariants: snapshot cap, clipped snapshots hold what frames
// show); frames are drawn at the canvas's size, the same at 1 and 2 threads.
import Compositor
import FramePlan
import Primitives
import SceneModel
import TransitionEngine

/// What `shiftrender`'s default memory budget would refuse is not drawn: the
/// compositor holds about three copies of each snapshot (docs/memory.md), and
/// run.sh's -rss_limit_mb must stay a signal of a real leak or blow-up.
let snapshotBudget = 512e6

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExtremeScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let generated = ExtremeSceneGenerator.scene(from: Array(UnsafeBufferPointer(start: data, count: size)))
    let errors = SceneValidator.problems(in: generated.scene).filter { $0.severity == .error }
    if let overstep = generated.overstep {
        precondition(errors.contains { $0.place == overstep }, "over the limit at \(overstep), refused with \(errors.prefix(3))")
        return 0
    }
    precondition(errors.isEmpty, "the generator made an invalid scene: \(errors.prefix(3))")
    let timeline = TransitionTimeline(scene: generated.scene)
    // Too many frames is refused by the renderer (`Renderer.init`), not a bug.
    guard timeline.frameCount <= TransitionTimeline.maximumFrameCount else { return 0 }
    let last = timeline.frameCount - 1
    let duration = timeline.segments[0].duration
    let times = duration > 0 ? [0.37, 0.61].map { $0 * duration } : []
    let broken = PlanInvariants.problems(in: timeline, frames: Array(Set([0, last / 2, last])).sorted(), times: times)
    precondition(broken.isEmpty, "plan invariants: \(broken.prefix(3))")
    let bytes = timeline.snapshots.reduce(0.0) { $0 + 12 * Double($1.pixelWidth) * Double($1.pixelHeight) }
    guard bytes <= snapshotBudget else { return 0 }
    let one = FrameRenderer(plan: timeline, threads: 1).render(frame: last / 2)
    precondition(one.width == timeline.canvas.pixelWidth && one.height == timeline.canvas.pixelHeight, "frame size")
    let two = FrameRenderer(plan: timeline, threads: 2).render(frame: last / 2)
    precondition(one == two, "frame \(last / 2) differs between 1 and 2 threads")
    return 0
}
