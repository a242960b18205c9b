import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// `TransitionTimeline.outlines(frame:)`: each transient view's bounds as drawn, in canvas pixels, worked by hand.
@Suite struct ViewOutlinesTests {
    struct Outline {
        var corners: [[Double]]
        var isVisible: Bool
    }

    static func outline(_ name: String, in timeline: TransitionTimeline, frame: Int) throws -> Outline {
        let outlines = timeline.outlines(frame: frame)
        let index = try #require(timeline.segments[outlines.segment].views.firstIndex { $0.name == name })
        let view = try #require(outlines.views.first { $0.index == index })
        return Outline(corners: view.corners.map { [$0.x, $0.y] }, isVisible: view.isVisible)
    }

    @Test func aMovingCardsOutlineFollowsItFromStartToEnd() throws {
        // The card's frame is [100, 0, 100, 100] and it moves in from 100 pt to the left, linearly over 0.5 s:
        // at t = 0 it spans x 0...100, at 0.25 s (frame 15 at 60 fps) 50...150, at the end 100...200.
        let t = TimingEngineTests.timeline([TimingEngineTests.movingCard(TimingOptions(duration: 0.5, curve: .named(.linear)))])
        #expect(try Self.outline("card", in: t, frame: 0).corners == [[0, 0], [100, 0], [100, 100], [0, 100]])
        let middle = try Self.outline("card", in: t, frame: 15).corners
        for (corner, expected) in zip(middle, [[50.0, 0], [150, 0], [150, 100], [50, 100]]) {
            #expect(abs(corner[0] - expected[0]) < 1e-9 && corner[1] == expected[1])
        }
        #expect(try Self.outline("card", in: t, frame: t.frameCount - 1).corners == [[100, 0], [200, 0], [200, 100], [100, 100]])
        #expect(try Self.outline("card", in: t, frame: 15).isVisible)
    }

    /// An animation that leaves the geometry alone makes a view transient (Shift snapshots static views into their root).
    static let border = [AdditionalAnimation(.borderWidth(4))]

    @Test func aRotatedViewsCornersTurnAboutItsCentre() throws {
        // [100, 100, 100, 50] turned 90 degrees about its centre (150, 125): a corner at (-50, -25) from the centre
        // goes to (25, -50) (x, y -> -y, x with y down), so the top-left lands at (175, 75); the others follow.
        var turned = view("turned", [100, 100, 100, 50], animations: Self.border)
        turned.transform.rotate = 90
        let t = TimingEngineTests.timeline([turned])
        let corners = try Self.outline("turned", in: t, frame: 0).corners
        for (corner, expected) in zip(corners, [[175.0, 75], [175, 175], [125, 175], [125, 75]]) {
            #expect(abs(corner[0] - expected[0]) < 1e-9 && abs(corner[1] - expected[1]) < 1e-9, "\(corners)")
        }
    }

    @Test func anOutlineIsWhereTheViewsBackgroundIsDrawn() throws {
        let t = TimingEngineTests.timeline([TimingEngineTests.movingCard(TimingOptions(duration: 0.5, curve: .named(.easeInOut)))])
        for frame in [0, 7, 20, t.frameCount - 1] {
            let outline = try Self.outline("card", in: t, frame: frame)
            let background = try #require(t.arrangement(frame: frame).items.first { $0.label == "card" })
            let origin = background.transform.apply(Point(x: 0, y: 0))
            #expect(abs(outline.corners[0][0] - origin.x) < 1e-9 && abs(outline.corners[0][1] - origin.y) < 1e-9)
        }
    }

    @Test func aTransparentViewAndItsSubviewsAreListedAsNotVisible() throws {
        var hidden = view(
            "hidden", [0, 0, 200, 200], animations: Self.border, subviews: [view("inside", [10, 10, 50, 50], animations: Self.border)])
        hidden.alpha = 0
        let t = TimingEngineTests.timeline([hidden, view("shown", [0, 300, 100, 100], animations: Self.border)])
        #expect(try !Self.outline("hidden", in: t, frame: 0).isVisible)
        #expect(try !Self.outline("inside", in: t, frame: 0).isVisible)
        #expect(try Self.outline("shown", in: t, frame: 0).isVisible)
        // Every transient view has an outline: the two roots, the three views.
        #expect(t.outlines(frame: 0).views.count == t.segments[0].views.count)
    }
}
