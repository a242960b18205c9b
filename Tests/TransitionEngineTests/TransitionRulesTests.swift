import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Values worked out by hand from Shift's formulas.
@Suite struct TransitionRulesTests {
    func items(_ timeline: TransitionTimeline, frame: Int, label: String) -> [DrawItem] {
        timeline.arrangement(frame: frame).items.filter { $0.label == label }
    }

    @Test func arrivingViewWithMoveRightAndFade() throws {
        // move right 150 -> starts 150 pt left of its place; baseline 0.2475 + 0.175 * 150/500 = 0.3 s.
        let box = view(
            "to.subviews[0]", [100, 200, 50, 50],
            animations: [
                AdditionalAnimation(.fade), AdditionalAnimation(.move(dx: -150, dy: 0)),
            ])
        let timeline = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [box]), baseline: 0.2475))
        #expect(abs(timeline.segments[0].duration - 0.3) < 1e-12)
        #expect(timeline.frameCount == 19)  // ceil(0.3 * 60) + 1
        // Frame 0: alpha 0, so nothing of the box is drawn.
        #expect(items(timeline, frame: 0, label: "to.subviews[0]").isEmpty)
        // Frame 9 is t = 0.15 s, half of 0.3 s: curve(0.5) = 0.7755613 of the way.
        let p = 0.7755613111161977
        let mid = try #require(items(timeline, frame: 9, label: "to.subviews[0]").first)
        #expect(abs(mid.transform.tx - (-50 + 150 * p)) < 1e-3)
        #expect(abs(mid.transform.ty - 200) < 1e-9)
        #expect(abs(mid.opacity - p) < 1e-4)
        // Last frame: in place, fully opaque.
        let last = try #require(items(timeline, frame: 18, label: "to.subviews[0]").first)
        #expect(last.transform == .translation(100, 200))
        #expect(last.opacity == 1)
        #expect(last.shape.rect == Rect(x: 0, y: 0, width: 50, height: 50))
    }

    @Test func leavingViewAnimatesIntoTheModifiedState() throws {
        // A from-screen view with `move up 100`: ends 100 pt lower (position.y + 100), faded out.
        let box = view(
            "from.subviews[0]", [10, 10, 20, 20],
            animations: [
                AdditionalAnimation(.fade), AdditionalAnimation(.move(dx: 0, dy: 100)),
            ])
        let timeline = TransitionTimeline(scene: scene(from: root("from", subviews: [box]), to: root("to", color: .clear, subviews: [])))
        let first = try #require(items(timeline, frame: 0, label: "from.subviews[0]").first)
        #expect(first.transform == .translation(10, 10))
        #expect(first.opacity == 1)
        #expect(items(timeline, frame: timeline.frameCount - 1, label: "from.subviews[0]").isEmpty)
        let before = try #require(items(timeline, frame: timeline.frameCount - 2, label: "from.subviews[0]").first)
        #expect(before.transform.ty > 100 && before.transform.ty < 110)
    }

    @Test func conditionsFollowTheTransitionMode() throws {
        let box = view(
            "to.subviews[0]", [0, 0, 20, 20],
            animations: [
                AdditionalAnimation(.move(dx: 0, dy: 50), when: .onAppear),
                AdditionalAnimation(.move(dx: 30, dy: 0), when: .onDisappear),
            ])
        let present = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [box])))
        let p0 = try #require(present.arrangement(frame: 0).items.first { $0.label == "to.subviews[0]" })
        #expect(p0.transform == .translation(0, 50))
        // Dismissing, the `to` screen arrives: only the onDisappear move applies, to its initial state.
        let dismiss = TransitionTimeline(
            scene: scene(from: root("from", subviews: []), to: root("to", subviews: [box]), direction: .dismiss))
        let d0 = try #require(dismiss.arrangement(frame: 0).items.first { $0.label == "to.subviews[0]" })
        #expect(d0.transform == .translation(30, 0))
    }

    @Test func matchedPairMovesFromItsFromStateToItsToStateInBothDirections() throws {
        let a = view("from.subviews[0]", [0, 0, 100, 100], id: "x")
        let b = view("to.subviews[0]", [200, 400, 50, 50], color: RGBAColor(red: 0, green: 0, blue: 1), id: "x")
        for direction in [TransitionDirection.present, .dismiss] {
            let timeline = TransitionTimeline(
                scene: scene(from: root("from", subviews: [a]), to: root("to", subviews: [b]), direction: direction))
            let segment = timeline.segments[0]
            let pair = try #require(segment.views.first { $0.id == "x" })
            #expect(pair.isMatched)
            #expect(pair.superview == .container)
            // Distance between centres: (50,50) -> (225,425) = 175 * sqrt(2 * (1 + (375/175)^2 ...)).
            let distance = Point(x: 50, y: 50).distance(to: Point(x: 225, y: 425))
            #expect(abs(pair.duration - (0.265 + 0.175 * distance / 500)) < 1e-12)
            let label = direction == .present ? "to.subviews[0]" : "from.subviews[0]"
            let first = try #require(items(timeline, frame: 0, label: label).first)
            #expect(first.transform == .translation(0, 0))
            #expect(first.shape.rect.size == Size(width: 100, height: 100))
            #expect(first.paint == .solid(RGBAColor(red: 1, green: 0, blue: 0)))
            let last = try #require(items(timeline, frame: timeline.frameCount - 1, label: label).first)
            #expect(last.transform == .translation(200, 400))
            #expect(last.shape.rect.size == Size(width: 50, height: 50))
            #expect(last.paint == .solid(RGBAColor(red: 0, green: 0, blue: 1)))
            // The other screen's partner is not drawn separately.
            let other = direction == .present ? "from.subviews[0]" : "to.subviews[0]"
            #expect((0 ..< timeline.frameCount).allSatisfy { items(timeline, frame: $0, label: other).isEmpty })
        }
    }

    @Test func transitionLastsAsLongAsItsLongestView() {
        let near = view("to.subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.move(dx: 0, dy: 100))])
        let far = view("to.subviews[1]", [0, 0, 10, 10], animations: [AdditionalAnimation(.move(dx: 0, dy: 400))])
        let timeline = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [near, far])))
        let durations = timeline.segments[0].views.map(\.duration)
        #expect(durations.contains { abs($0 - (0.265 + 0.035)) < 1e-12 })
        #expect(abs(timeline.segments[0].duration - (0.265 + 0.14)) < 1e-12)
        #expect(timeline.frameCount == Int((0.405 * 60).rounded(.up)) + 1)
    }

    @Test func defaultFadeGoesToTheSourceRoot() throws {
        let s = scene(from: root("from", subviews: []), to: root("to", subviews: []), defaultAnimation: .fade)
        // Presenting: the `to` root fades in over the `from` root.
        let present = TransitionTimeline(scene: s)
        #expect(present.arrangement(frame: 0).items.map(\.label) == ["from"])
        let lastPresent = present.arrangement(frame: present.frameCount - 1).items
        #expect(lastPresent.map(\.label) == ["from", "to"])
        #expect(lastPresent[1].opacity == 1)
        // Dismissing: the `from` root (on top) fades out, revealing `to`.
        var d = s
        d.transition.direction = .dismiss
        let dismiss = TransitionTimeline(scene: d)
        #expect(dismiss.arrangement(frame: 0).items.map(\.label) == ["to", "from"])
        #expect(dismiss.arrangement(frame: dismiss.frameCount - 1).items.map(\.label) == ["to"])
    }

    @Test func defaultScaleScalesTheSourceRootAboutItsCentre() throws {
        let s = scene(from: root("from", subviews: []), to: root("to", subviews: []), defaultAnimation: .scale(0.5))
        let timeline = TransitionTimeline(scene: s)
        let first = try #require(timeline.arrangement(frame: 1).items.first { $0.label == "to" })
        // Scale k about the centre (200, 400): x' = 200 + k (x - 200); k is between 0.5 and 1.
        let k = first.transform.a
        #expect(k > 0.5 && k < 1)
        #expect(abs(first.transform.tx - (200 - 200 * k)) < 1e-9)
    }
}
