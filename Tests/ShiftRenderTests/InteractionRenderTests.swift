import Testing
@testable import ShiftRender

/// Interactive transitions through `Renderer`, pixel for pixel: a finger that
/// lets go shows what the transition shows by itself at the same progress, and
/// a cancelled one ends on the very picture it started from.
///
/// `movingCardScene` (RendererTests): a red card moving 100 pt right over 0.3 s
/// on a 200 x 80 canvas at 30 fps, so the extent is 200 pt.
@Suite("Renderer: interactive transitions")
struct InteractionRenderTests {
    /// 40 pt at 0.1 s, back to 30 pt at 0.2 s: p = 0.15, v = -100 pt/s, so easyTransitions cancels
    /// (v > -5 fails); D = 0.15 x 0.3 = 0.045 s; ceil(0.245 x 30) + 1 = 9 frames, floor(0.2 x 30) + 1 = 7 of them the drag's.
    static func cancelled() -> Scene {
        var scene = movingCardScene()
        scene.transition.interaction = InteractionSpec(points: [(0, 0), (0.1, 40), (0.2, 30)])
        return scene
    }

    /// 120 pt at 0.2 s: p = 0.6, v = 600 pt/s, so easyTransitions finishes; D = 0.4 x 0.3 = 0.12 s;
    /// ceil(0.32 x 30) + 1 = 11 frames, 7 of them the drag's. The finger is at 600 w pt: p(w) = 3 w.
    static func finished() -> Scene {
        var scene = movingCardScene()
        scene.transition.interaction = InteractionSpec(points: [(0, 0), (0.2, 120)])
        return scene
    }

    @Test("A cancelled drag ends on the first frame's picture, byte for byte")
    func cancelledEndsWhereItStarted() throws {
        let renderer = try Renderer(scene: Self.cancelled())
        let plain = try Renderer(scene: movingCardScene())
        #expect(renderer.timeline.interaction?.outcome == .cancel && renderer.frameCount == 9)
        let last = try renderer.still(.frame(renderer.frameCount - 1))
        #expect(try last == renderer.still(.progress(0)))
        #expect(try last == plain.still(.frame(0)))
        #expect(try last == renderer.still(.frame(0)))
        #expect(redColumns(last, row: 35) == 10 ... 49)
        // It did move in between: at the release (frame 6, p = 0.15) the card is off its start.
        #expect(try renderer.still(.frame(6)) != last)
    }

    @Test("A finished drag ends on the last frame the transition plays by itself")
    func finishedEndsWhereThePlainTransitionEnds() throws {
        let renderer = try Renderer(scene: Self.finished())
        let plain = try Renderer(scene: movingCardScene())
        #expect(renderer.timeline.interaction?.outcome == .finish && renderer.frameCount == 11)
        let last = try renderer.still(.frame(renderer.frameCount - 1))
        #expect(try last == plain.still(.frame(plain.frameCount - 1)))
        #expect(try last == renderer.still(.progress(1)))
        #expect(redColumns(last, row: 35) == 110 ... 169)
    }

    @Test(
        "A still by progress is the transition's state at that progress, finger or not",
        arguments: [0, 0.25, 0.5, 0.8, 1.0])
    func stillsByProgressIgnoreTheFinger(_ progress: Double) throws {
        let plain = try Renderer(scene: movingCardScene()).still(.progress(progress))
        #expect(try Renderer(scene: Self.cancelled()).still(.progress(progress)) == plain)
        #expect(try Renderer(scene: Self.finished()).still(.progress(progress)) == plain)
    }

    @Test("Each drag frame is the still at the finger's progress")
    func dragFramesAreStillsAtTheFingersProgress() throws {
        let renderer = try Renderer(scene: Self.finished())
        let plan = try #require(renderer.timeline.interaction)
        for frame in 0 ... 6 {
            // Frame k is w = k / 30 s: p = 3 k / 30 = k / 10.
            let p = plan.progress(at: Double(frame) / 30)
            #expect(abs(p - Double(frame) / 10) < 1e-12)
            #expect(try renderer.still(.frame(frame)) == renderer.still(.progress(p)), "frame \(frame)")
        }
        // Frame 3, p = 0.3: 0.09 s of 0.3, the curve (0.4, 0, 0.2, 1) at 0.3 of the way: c. The card's centre
        // x runs 30 -> 140 and its width 40 -> 60, as in RendererStillTests.
        let c = TimingCurve.shift.value(at: 0.3)
        let columns = try #require(redColumns(try renderer.still(.frame(3)), row: 35))
        #expect(abs(Double(columns.lowerBound) - (30 + 110 * c - (40 + 20 * c) / 2)) <= 1)
        #expect(abs(Double(columns.upperBound + 1) - (30 + 110 * c + (40 + 20 * c) / 2)) <= 1)
    }
}
