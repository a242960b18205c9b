import Compositor
import Foundation
import Primitives
import Testing
import ShiftRender
import TransitionEngine

/// Large views render from snapshots clipped to what can be seen
/// (docs/snapshots.md), and draw what a whole snapshot would.
@Suite("Large views: clipped snapshots")
struct LargeViewRenderingTests {
    /// A `side`-pt sheet with content spread over it (near its origin, in the
    /// middle, near its far corner), arriving from 0.5x, turned 10 degrees and
    /// 120 pt down: its snapshot moves, turns and is sampled through reduced
    /// levels while it is small.
    static func sheetScene(side: Double) -> Scene {
        var sheet = View(
            name: "sheet", frame: Rect(x: -40, y: 30, width: side, height: side),
            backgroundColor: RGBAColor(red: 0.85, green: 0.9, blue: 0.95))
        var badge = Bitmap(width: 2, height: 2)
        badge.pixels = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        sheet.subviews = [
            View(
                name: "label", frame: Rect(x: 60, y: 20, width: 200, height: 44),
                backgroundColor: RGBAColor(red: 0.2, green: 0.2, blue: 0.8), cornerRadius: 9),
            View(name: "badge", frame: Rect(x: 300, y: 90, width: 37.5, height: 37.5), image: .bitmap(badge)),
            View(
                name: "rule", frame: Rect(x: 0.5, y: 400.25, width: side - 1, height: 3),
                backgroundColor: RGBAColor(red: 0.1, green: 0.6, blue: 0.2)),
            View(
                name: "middle", frame: Rect(x: side / 2 - 50, y: side / 2 - 50, width: 100, height: 100),
                backgroundColor: RGBAColor(red: 0.9, green: 0.5, blue: 0.1), cornerRadius: 50),
            View(
                name: "far corner", frame: Rect(x: side - 120, y: side - 120, width: 100, height: 100),
                backgroundColor: RGBAColor(red: 0.5, green: 0.1, blue: 0.5)),
        ]
        sheet.shift.animations = [
            AdditionalAnimation(.scale(0.5)), AdditionalAnimation(.rotate(10)),
            AdditionalAnimation(.move(dx: 0, dy: 120)),
        ]
        sheet.anchorPoint = .zero
        var transition = TransitionSpec(defaultAnimation: .none)
        transition.baselineDuration = 0.4
        return Scene(
            canvas: CanvasSpec(width: 240, height: 400, scale: 1, background: .white), fps: 30,
            transition: transition, from: View(name: "from", backgroundColor: .white),
            to: View(name: "to", subviews: [sheet]))
    }

    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return 255 }
        return zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The clipped snapshot is drawn exactly like the whole one: it keeps the
    /// whole grid's pixels (same density, shifted by whole pixels) and starts
    /// on a multiple of 64 px, so even reduced levels average the same pixels.
    /// Exact, not within 1/255: any difference would mean a texel read from
    /// outside what the clip kept, which is the bug this would catch.
    @Test("A 3000-pt view draws the same bytes from its clipped snapshot as from the whole one, on and between frames")
    func clippedEqualsWhole() throws {
        let scene = Self.sheetScene(side: 3000)
        let clipped = TransitionTimeline(scene: scene)
        let whole = TransitionTimeline(scene: scene, clipsLargeSnapshots: false)
        // Not vacuous: the whole snapshot is 3000 x 3000 px, the clipped one far less.
        #expect(whole.snapshots.map { $0.pixelWidth * $0.pixelHeight } == [3000 * 3000])
        let kept = try #require(clipped.snapshots.first)
        #expect(clipped.snapshots.count == 1 && kept.pixelWidth * kept.pixelHeight < 3000 * 3000 / 4)
        let a = FrameRenderer(plan: clipped, threads: 2)
        let b = FrameRenderer(plan: whole, threads: 2)
        #expect(clipped.frameCount == whole.frameCount && clipped.frameCount > 10)
        for frame in 0 ..< clipped.frameCount {
            #expect(Self.largestDifference(a.render(frame: frame), b.render(frame: frame)) == 0, "frame \(frame)")
        }
        var x = Bitmap(width: 0, height: 0)
        var y = Bitmap(width: 0, height: 0)
        for t in stride(from: 0.0071, to: clipped.segments[0].duration, by: 0.0613) {
            a.render(clipped.displayList(segment: 0, time: t), into: &x)
            b.render(whole.displayList(segment: 0, time: t), into: &y)
            #expect(Self.largestDifference(x, y) == 0, "t \(t)")
        }
    }

    /// The same under curves that overshoot or turn back, an arc and keyframes:
    /// what can be seen is bounded over the progress each can reach
    /// (`Easing.range`, the arc's hull, the keyframes' stops), not its ends.
    @Test(
        "A clipped snapshot draws what the whole one does under springs, back and elastic curves, an arc and keyframes",
        arguments: [
            TimingOptions(curve: .spring(.response(response: 0.5, dampingFraction: 0.2))),
            TimingOptions(duration: 0.6, curve: .named(.easeInOutBack)),
            TimingOptions(duration: 0.8, curve: .named(.easeOutElastic)),
            TimingOptions(duration: 0.5, curve: .named(.easeOutBounce), arc: 1),
            TimingOptions(
                duration: 0.5, curve: .spring(.dampingRatio(0.4)),
                keyframes: [
                    KeyframeTrack(.translate, [KeyframeStop(at: 0, .pair(0, 0)), KeyframeStop(at: 0.5, .pair(-150, 60)), KeyframeStop(at: 1, .pair(0, 0))]),
                    KeyframeTrack(.rotate, [KeyframeStop(at: 0, .number(-20)), KeyframeStop(at: 0.7, .number(15)), KeyframeStop(at: 1, .number(0))]),
                ]),
        ])
    func clippedEqualsWholeUnderEveryTimingForm(timing: TimingOptions) throws {
        var scene = Self.sheetScene(side: 1100)
        // Arriving from 2x, turned and moved: the final state shows the most of the sheet, so what
        // an overshoot past it shows (below 1x, turned back) is seen at no other time.
        scene.to.subviews[0].shift.animations = [
            AdditionalAnimation(.scale(2)), AdditionalAnimation(.rotate(-25)), AdditionalAnimation(.move(dx: -60, dy: -90)),
        ]
        scene.to.subviews[0].shift.timing = timing
        // Two frames a second: the region is bounded between samples half a second apart, where
        // these curves swing far past both ends (an end-values bound drew wrong pixels here).
        scene.fps = 2
        #expect(SceneValidator.problems(in: scene).isEmpty)
        let clipped = TransitionTimeline(scene: scene)
        let whole = TransitionTimeline(scene: scene, clipsLargeSnapshots: false)
        // The bounds are sound but loose for these curves (an envelope, a control-point hull), so the
        // kept part may be all of it; what must hold is that no frame reads past what was kept. A bound
        // from the end values only failed this for the spring and the elastic curve.
        #expect(clipped.snapshots.count == 1)
        let a = FrameRenderer(plan: clipped, threads: 2)
        let b = FrameRenderer(plan: whole, threads: 2)
        var x = Bitmap(width: 0, height: 0)
        var y = Bitmap(width: 0, height: 0)
        for t in stride(from: 0.0, through: clipped.segments[0].duration, by: 0.1) {
            a.render(clipped.displayList(segment: 0, time: t), into: &x)
            b.render(whole.displayList(segment: 0, time: t), into: &y)
            #expect(Self.largestDifference(x, y) == 0, "t \(t)")
        }
    }

    /// The scene: a 1 000 000-pt animating view with a subview, on a
    /// 390 x 844 canvas at scale 2. Its whole snapshot would be 2 000 000 px a
    /// side (16 TB); the budget refused it. Clipped, it renders within 200 MB.
    @Test("A million-point moving view with a subview renders, within a small memory budget")
    func millionPointView() throws {
        var huge = View(
            name: "huge", frame: Rect(x: 0, y: 0, width: 1_000_000, height: 1_000_000),
            backgroundColor: RGBAColor(red: 0.9, green: 0.9, blue: 0.9))
        huge.shift.animations = [AdditionalAnimation(.move(dx: 0, dy: 300))]
        huge.subviews = [
            View(
                name: "label", frame: Rect(x: 20, y: 20, width: 200, height: 40),
                backgroundColor: RGBAColor(red: 0.2, green: 0.2, blue: 0.8))
        ]
        let scene = Scene(
            canvas: CanvasSpec(width: 390, height: 844, scale: 2, background: .black), fps: 30,
            transition: TransitionSpec(defaultAnimation: .none),
            from: View(name: "from", backgroundColor: .white), to: View(name: "to", subviews: [huge]))
        let renderer = try Renderer(scene: scene, options: Renderer.Options(threads: 2, memoryLimit: 200e6))
        #expect(renderer.memoryEstimate().total < 200e6)
        let end = try renderer.still(.progress(1))
        // At rest at the origin: the label at (20, 20)-(220, 60) pt, the view's grey all around.
        func colour(_ bitmap: Bitmap, _ x: Double, _ y: Double) -> [UInt8] {
            let p = bitmap.pixel(x: Int(x * 2), y: Int(y * 2))
            return [p.r, p.g, p.b, p.a]
        }
        let grey: [UInt8] = [230, 230, 230, 255]
        let blue: [UInt8] = [51, 51, 204, 255]
        let white: [UInt8] = [255, 255, 255, 255]
        #expect(colour(end, 100, 40) == blue)
        #expect(colour(end, 10, 10) == grey && colour(end, 300, 40) == grey && colour(end, 380, 830) == grey)
        #expect(colour(end, 100, 70) == grey)
        // As the motion starts (the first instant after rest, progress 1e-9) it is 300 pt down: the white `from`
        // root shows above it, the label 300 pt lower.
        let start = try renderer.still(.progress(1e-9))
        #expect(colour(start, 100, 100) == white && colour(start, 100, 290) == white)
        #expect(colour(start, 100, 340) == blue && colour(start, 100, 310) == grey && colour(start, 380, 830) == grey)
    }
}
