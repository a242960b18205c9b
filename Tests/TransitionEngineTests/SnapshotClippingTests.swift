import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Snapshots of large views hold only what can be seen (docs/snapshots.md).
/// The numbers are worked by hand from a 100 x 100-pt canvas at scale 2
/// (200 x 200 px, so "large" is over 2^20 px, the floor): the canvas plus the
/// 2-px margin is content points -1...101, which is grid pixels 0...202,
/// padded by 2 to 204 and aligned up to 256.
@Suite struct SnapshotClippingTests {
    /// A pane at the origin (anchor 0, 0, so no large offsets enter the
    /// arithmetic) holding three small views, moved in from 100 pt right.
    static func paneScene(
        side: Double, animations: [AdditionalAnimation] = [AdditionalAnimation(.move(dx: 100, dy: 0))],
        transform: TransformSpec = TransformSpec(), fps: Double = 30
    ) -> Scene {
        var pane = View(name: "pane", frame: Rect(x: 0, y: 0, width: side, height: side))
        pane.anchorPoint = .zero
        pane.transform = transform
        pane.shift.animations = animations
        pane.subviews = [
            View(name: "red", frame: Rect(x: 10, y: 10, width: 30, height: 30), backgroundColor: RGBAColor(red: 1, green: 0, blue: 0)),
            View(
                name: "blue", frame: Rect(x: 60, y: 50, width: 40, height: 40), backgroundColor: RGBAColor(red: 0, green: 0, blue: 1),
                cornerRadius: 8),
            // Crosses the canvas's right edge at the end: clipped only by the canvas.
            View(name: "bar", frame: Rect(x: 90, y: 0, width: 20, height: 100), backgroundColor: RGBAColor(red: 0, green: 1, blue: 0)),
        ]
        let to = View(name: "to", subviews: [pane])
        var transition = TransitionSpec()
        transition.baselineDuration = 0.3
        transition.defaultAnimation = .none
        return Scene(
            canvas: CanvasSpec(width: 100, height: 100, scale: 2), fps: fps, transition: transition,
            from: View(name: "from"), to: to)
    }

    static func paneContent(_ timeline: TransitionTimeline) throws -> TransientView.Content {
        let pane = try #require(timeline.segments[0].views.first { $0.name == "pane" })
        return pane.finalContent
    }

    @Test func aMillionPointViewMovingAHundredPointsGetsACanvasSizedSnapshot() throws {
        let scene = Self.paneScene(side: 1_000_000)
        #expect(SceneValidator.problems(in: scene).isEmpty)
        let timeline = TransitionTimeline(scene: scene)
        let snapshot = try #require(timeline.snapshots.first)
        #expect(timeline.snapshots.count == 1)
        // The whole would be 2 000 000 px a side; the part ever seen is points 0...101.
        #expect(snapshot.pixelWidth == 256 && snapshot.pixelHeight == 256)
        let grid = try #require(Self.paneContent(timeline).snapshotGrid)
        #expect(grid.width == 2_000_000 && grid.x0 == 0 && grid.y0 == 0)  // full density: 2 px a point
    }

    /// The same content in a 128-pt pane (whole: 256 x 256 px, not large) gives
    /// the same plan item for item, so the compositor draws the same bytes.
    @Test func theSeenPartPlansExactlyLikeASmallView() throws {
        let big = TransitionTimeline(scene: Self.paneScene(side: 1_000_000))
        let small = TransitionTimeline(scene: Self.paneScene(side: 128))
        #expect(try Self.paneContent(small).snapshotGrid == nil)
        #expect(big.frameCount == small.frameCount && big.frameCount > 2)
        #expect(big.snapshots == small.snapshots)
        for frame in 0 ..< big.frameCount {
            #expect(big.displayList(frame: frame) == small.displayList(frame: frame), "frame \(frame)")
        }
        // Between frames as well (stills at any progress).
        for t in stride(from: 0.0, through: big.segments[0].duration, by: 0.0123) {
            #expect(big.displayList(segment: 0, time: t) == small.displayList(segment: 0, time: t), "t \(t)")
        }
    }

    /// Zooming from 1x to 10x about the origin: at 10x only points 0...10.1
    /// are seen, but at 20 px a point, which the canvas scale caps at 2: the
    /// grid keeps full density and the 1x frames decide the extent (256 px).
    @Test func aViewScalingUpKeepsFullResolution() throws {
        let scene = Self.paneScene(side: 1_000_000, animations: [AdditionalAnimation(.scale(10))])
        let timeline = TransitionTimeline(scene: scene)
        let grid = try #require(Self.paneContent(timeline).snapshotGrid)
        #expect(grid.width == 2_000_000 && grid.height == 2_000_000)
        #expect(grid.pixelWidth == 256 && grid.pixelHeight == 256)
    }

    /// Never drawn above 0.5x, so never above 1 px a point: the grid is
    /// 1 000 000 px a side, and at 0.25x the canvas shows points -4...404
    /// (grid pixels 0...404, padded to 406 and aligned to 448).
    @Test func aViewDrawnSmallerGetsAFewerPixelsAPoint() throws {
        let scene = Self.paneScene(
            side: 1_000_000, animations: [AdditionalAnimation(.scale(0.5))],
            transform: TransformSpec(scale: Size(width: 0.5, height: 0.5)))
        let timeline = TransitionTimeline(scene: scene)
        let grid = try #require(Self.paneContent(timeline).snapshotGrid)
        #expect(grid.width == 1_000_000 && grid.height == 1_000_000)
        #expect(grid.pixelWidth == 448 && grid.pixelHeight == 448)
    }

    @Test func aLargeViewThatIsNeverOnTheCanvasHasNoSnapshot() throws {
        // Starts 600 000 pt to the right and ends there too (a fade only): never seen.
        var scene = Self.paneScene(side: 1_000_000, animations: [AdditionalAnimation(.fade)])
        scene.to.subviews[0].frame = Rect(x: 600_000, y: 0, width: 1_000_000, height: 1_000_000)
        let timeline = TransitionTimeline(scene: scene)
        #expect(timeline.snapshots.isEmpty)
        #expect(try Self.paneContent(timeline).snapshot == nil)
    }

    /// Moving 10^6 pt across the canvas sees all of a 10^6-pt-wide strip: at
    /// full density 2 000 000 px wide, so it is made coarser to 16 384 px
    /// (blurrier, never a crash), and it still maps onto the whole strip.
    @Test func aSnapshotStillOverTheCapIsMadeCoarser() throws {
        var scene = Self.paneScene(side: 1_000_000, animations: [AdditionalAnimation(.move(dx: -1_000_000, dy: 0))])
        scene.to.subviews[0].frame = Rect(x: 0, y: 0, width: 1_000_000, height: 50)
        let timeline = TransitionTimeline(scene: scene)
        let snapshot = try #require(timeline.snapshots.first)
        #expect(snapshot.pixelWidth <= SnapshotGrid.maximumSide && snapshot.pixelHeight <= SnapshotGrid.maximumSide)
        #expect(snapshot.pixelWidth * snapshot.pixelHeight <= SnapshotGrid.maximumPixels)
        #expect(snapshot.pixelWidth > SnapshotGrid.maximumSide / 2)
        // All of it is seen, so the coarser grid is whole: drawn over the whole area.
        #expect(try Self.paneContent(timeline).snapshotGrid == nil)
    }

    /// The attack: a 1 000 000-pt animating view with a subview, at scale 8,
    /// used to ask for 8 000 000 px a side (`failed to allocate 4000000000032 bytes`).
    @Test func theAttackScenePlansWithACanvasSizedSnapshot() throws {
        var pane = View(
            name: "huge", frame: Rect(x: 0, y: 0, width: 1_000_000, height: 1_000_000),
            backgroundColor: RGBAColor(red: 0.9, green: 0.9, blue: 0.9))
        pane.shift.animations = [AdditionalAnimation(.move(dx: 0, dy: -300))]
        pane.subviews = [
            View(
                name: "label", frame: Rect(x: 20, y: 20, width: 200, height: 40),
                backgroundColor: RGBAColor(red: 0.2, green: 0.2, blue: 0.8))
        ]
        let scene = Scene(
            canvas: CanvasSpec(width: 320, height: 240, scale: 8), fps: 60, transition: TransitionSpec(),
            from: View(name: "from"), to: View(name: "to", subviews: [pane]))
        #expect(SceneValidator.problems(in: scene).isEmpty)
        let timeline = TransitionTimeline(scene: scene)
        let snapshot = try #require(timeline.snapshots.first)
        // The canvas is 2560 x 1920 px (320 x 240 pt). The view starts 300 pt up
        // and comes down to the top left, so points 0...320.25 across and
        // 0...540.25 down are seen (with the 2-px margin): grid pixels 0...2562
        // and 0...4322, padded by 2 and aligned to 64.
        #expect(snapshot.pixelWidth == 2624 && snapshot.pixelHeight == 4352)
        let pixels = timeline.snapshots.reduce(0) { $0 + $1.pixelWidth * $1.pixelHeight }
        #expect(pixels == 2624 * 4352)  // was 8 000 000 x 8 000 000
    }
}
