import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// One test per rule of Shift's that the engine reproduces.
@Suite struct ShiftRulesTests {
    func labels(_ t: TransitionTimeline, _ frame: Int) -> [String] { t.arrangement(frame: frame).items.map(\.label) }
    func item(_ t: TransitionTimeline, _ frame: Int, _ label: String) -> DrawItem? {
        t.arrangement(frame: frame).items.first { $0.label == label }
    }

    @Test func whichViewsAreTransient() {
        var container = view("to.subviews[3]", [0, 0, 10, 10])
        container.shift.superview = .container
        var hidden = view("to.subviews[4]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade)])
        hidden.isHidden = true
        var shiftHidden = view("to.subviews[5]", [0, 0, 10, 10], id: "hidden")
        shiftHidden.shift.isHidden = true
        let to = root(
            "to",
            subviews: [
                view("to.subviews[0]", [0, 0, 10, 10], id: "m"),
                view("to.subviews[1]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade)]),
                view("to.subviews[2]", [0, 0, 10, 10], subviews: [view("to.subviews[2].subviews[0]", [1, 1, 2, 2], id: "lonely")]),
                container, hidden, shiftHidden,
            ])
        let from = root("from", subviews: [view("from.subviews[0]", [5, 5, 10, 10], id: "m"), view("from.subviews[1]", [0, 0, 9, 9])])
        let t = TransitionTimeline(scene: scene(from: from, to: to))
        let paths = Set(t.segments[0].views.map(\.address.description))
        #expect(paths == ["from", "to", "to.subviews[0]", "to.subviews[1]", "to.subviews[2].subviews[0]", "to.subviews[3]"])
        // The matched partner is not a transient of its own; plain views are inside snapshots.
        #expect(!paths.contains("from.subviews[0]"))
        #expect(!paths.contains("to.subviews[2]"))
    }

    @Test func snapshotsLeaveOutTransientDescendantsAndTheViewsOwnLayer() throws {
        var card = view(
            "to.subviews[0]", [10, 10, 100, 100], animations: [AdditionalAnimation(.move(dx: 0, dy: 10))],
            subviews: [
                view("to.subviews[0].subviews[0]", [0, 0, 50, 50], color: RGBAColor(red: 0, green: 1, blue: 0)),
                view("to.subviews[0].subviews[1]", [50, 50, 50, 50], animations: [AdditionalAnimation(.fade)]),
            ])
        card.cornerRadius = 12
        card.alpha = 0.5
        var shadow = ShadowSpec()
        shadow.opacity = 0.4
        shadow.radius = 6
        shadow.offset = Size(width: 0, height: 4)
        card.shadow = shadow
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [card])))
        let snapshot = try #require(t.snapshots.first { $0.name == "to: to.subviews[0]" })
        // Only the plain child, at full opacity and without the card's corner radius or background.
        #expect(snapshot.content.items.map(\.label) == ["to.subviews[0].subviews[0]"])
        #expect(snapshot.content.items[0].opacity == 1)
        #expect(snapshot.content.items[0].clips.isEmpty)
        // The card's own layer is drawn live (shadow, background, content, then the
        // transient child), faded as one group by its alpha 0.5.
        let last = t.frameCount - 1
        let group = try #require(item(t, last, "to.subviews[0] (group)"))
        #expect(group.opacity == 0.5)
        guard case .group(let inside) = group.paint else {
            Issue.record("not a group")
            return
        }
        #expect(inside.items.map(\.label) == ["to.subviews[0] (shadow)", "to.subviews[0]", "to.subviews[0]", "to.subviews[0].subviews[1]"])
        let background = try #require(inside.items.first { $0.paint == .solid(RGBAColor(red: 1, green: 0, blue: 0)) })
        #expect(background.shape.cornerRadius == 12)
        #expect(background.opacity == 1)
        let shadowItem = try #require(inside.items.first { $0.label == "to.subviews[0] (shadow)" })
        #expect(shadowItem.paint == .shadow(color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.4), sigma: 6))
        #expect(shadowItem.shape.rect == Rect(x: 0, y: 4, width: 100, height: 100))
    }

    @Test func masksToBoundsHidesTheShadowAndClipsContent() throws {
        var card = view(
            "to.subviews[0]", [0, 0, 100, 100], animations: [AdditionalAnimation(.fade)],
            subviews: [
                view("to.subviews[0].subviews[0]", [-20, 0, 50, 50], animations: [AdditionalAnimation(.fade)])
            ])
        card.masksToBounds = true
        card.cornerRadius = 8
        var shadow = ShadowSpec()
        shadow.opacity = 1
        card.shadow = shadow
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [card])))
        let last = t.frameCount - 1
        #expect(item(t, last, "to.subviews[0] (shadow)") == nil)
        let child = try #require(item(t, last, "to.subviews[0].subviews[0]"))
        #expect(child.clips.map(\.shape) == [RoundedRect(rect: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 8)])
    }

    @Test func bordersAreDrawnAboveSublayersAndAnimate() throws {
        var a = view("from.subviews[0]", [0, 0, 100, 100], id: "b")
        a.borderWidth = 2
        a.borderColor = .black
        var b = view(
            "to.subviews[0]", [0, 0, 100, 100], id: "b",
            subviews: [
                view("to.subviews[0].subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.move(dx: 1, dy: 0))])
            ])
        b.borderWidth = 6
        b.borderColor = .white
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: [a]), to: root("to", subviews: [b]), baseline: 0.3))
        // Frame 9 is t = 0.15 s of 0.3 s: curve(0.5) = 0.7755613.
        let p = 0.7755613111161977
        let border = try #require(item(t, 9, "to.subviews[0] (border)"))
        guard case .border(let width, let color) = border.paint else {
            Issue.record("not a border")
            return
        }
        #expect(abs(width - (2 + 4 * p)) < 1e-4)
        #expect(abs(color.red - p) < 1e-4)
        let order = labels(t, 9)
        #expect(order.firstIndex(of: "to.subviews[0] (border)")! > order.firstIndex(of: "to.subviews[0].subviews[0]")!)
    }

    @Test func imageViewsRefitTheirImageToTheCurrentBounds() throws {
        // A 100 x 100 pt image, aspectFit, in a view morphing from 100 x 100 to 300 x 100.
        var a = view("from.subviews[0]", [0, 0, 100, 100], color: nil, id: "img")
        a.image = .file("/i.png")
        a.contentMode = .aspectFit
        var b = a
        b.name = "to.subviews[0]"
        b.frame = Rect(x: 0, y: 0, width: 300, height: 100)
        var s = scene(from: root("from", subviews: [a]), to: root("to", subviews: [b]))
        s.to.backgroundColor = nil
        let t = TransitionTimeline(scene: s, images: [.file("/i.png"): Bitmap(width: 100, height: 100, fill: (255, 0, 0, 255))])
        for frame in [0, t.frameCount / 2, t.frameCount - 1] {
            // Final content only at the ends would hide the check: look at every image item.
            for image in t.arrangement(frame: frame).items where image.paint == .bitmap(.image(0)) {
                let r = image.shape.rect
                #expect(abs(r.width - r.height) < 1e-9, "frame \(frame): \(r)")  // stays square
                #expect(r.height == 100)
            }
        }
        let last = t.arrangement(frame: t.frameCount - 1).items.filter { $0.paint == .bitmap(.image(0)) }
        #expect(last.last?.shape.rect == Rect(x: 100, y: 0, width: 100, height: 100))
    }

    @Test func parentViewsMoveAndClipWithTheirAncestorContainerViewsDoNot() throws {
        func build(_ choice: ShiftOptions.SuperviewChoice) -> TransitionTimeline {
            var child = view("to.subviews[0].subviews[0]", [10, 10, 20, 20], animations: [AdditionalAnimation(.fade, when: .onDisappear)])
            child.shift.superview = choice
            var parent = view(
                "to.subviews[0]", [100, 100, 50, 50], animations: [AdditionalAnimation(.move(dx: 0, dy: 300))], subviews: [child])
            parent.masksToBounds = true
            return TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [parent])))
        }
        let withParent = build(.parent)
        let first = try #require(item(withParent, 0, "to.subviews[0].subviews[0]"))
        #expect(first.transform == .translation(110, 410))  // moved down 300 with its parent
        #expect(first.clips.count == 1)
        let inContainer = build(.container)
        let free = try #require(item(inContainer, 0, "to.subviews[0].subviews[0]"))
        #expect(free.transform == .translation(110, 110))  // stays where it is, unclipped
        #expect(free.clips.isEmpty)
        #expect(inContainer.segments[0].views.first { $0.address.description == "to.subviews[0].subviews[0]" }?.superview == .container)
    }

    @Test func viewOrderAndPositionChangeTheDrawOrder() {
        let a = view("from.subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade)])
        let b = view("to.subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade, when: .onDisappear)])
        var c = view("to.subviews[1]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade, when: .onDisappear)])
        func order(_ viewOrder: ViewOrder, position: ShiftOptions.Position = .auto) -> [String] {
            c.shift.position = position
            var s = scene(from: root("from", subviews: [a]), to: root("to", color: .clear, subviews: [b, c]))
            s.transition.viewOrder = viewOrder
            return labels(TransitionTimeline(scene: s), 1).filter { $0.contains("subviews") }
        }
        #expect(order(.auto) == ["from.subviews[0]", "to.subviews[0]", "to.subviews[1]"])
        #expect(order(.toViewsOnTop) == ["from.subviews[0]", "to.subviews[0]", "to.subviews[1]"])
        #expect(order(.fromViewsOnTop) == ["to.subviews[0]", "to.subviews[1]", "from.subviews[0]"])
        #expect(order(.auto, position: .back) == ["from.subviews[0]", "to.subviews[1]", "to.subviews[0]"])
        // `front` lifts a view above its siblings within its superview (here the from root).
        var front = a
        front.shift.position = .front
        let sibling = view("from.subviews[1]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade)])
        let s = scene(from: root("from", subviews: [front, sibling]), to: root("to", color: .clear, subviews: []))
        #expect(labels(TransitionTimeline(scene: s), 1).filter { $0.contains("subviews") } == ["from.subviews[1]", "from.subviews[0]"])
    }

    @Test func zPositionOrdersSiblings() {
        var low = view("to.subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade, when: .onDisappear)])
        low.zPosition = 5
        let high = view("to.subviews[1]", [0, 0, 10, 10], animations: [AdditionalAnimation(.fade, when: .onDisappear)])
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [low, high])))
        #expect(labels(t, 0).filter { $0.contains("subviews") } == ["to.subviews[1]", "to.subviews[0]"])
    }

    func pairWithContent(sizing: ShiftOptions.ContentSizing, animation: ShiftOptions.ContentAnimation) -> TransitionTimeline {
        var a = view("from.subviews[0]", [0, 0, 100, 50], id: "p", subviews: [view("from.subviews[0].subviews[0]", [0, 0, 10, 10])])
        var b = view("to.subviews[0]", [0, 0, 200, 300], id: "p", subviews: [view("to.subviews[0].subviews[0]", [0, 0, 10, 10])])
        for i in [0, 1] {
            if i == 0 {
                a.shift.contentSizing = sizing
                a.shift.contentAnimation = animation
            } else {
                b.shift.contentSizing = sizing
                b.shift.contentAnimation = animation
            }
        }
        return TransitionTimeline(scene: scene(from: root("from", subviews: [a]), to: root("to", subviews: [b]), baseline: 0.3))
    }

    /// Each content snapshot of the pair: its rect, and the opacity it is drawn
    /// with (its own, or its group's when the content carries the view's background).
    func contentItems(_ t: TransitionTimeline, _ frame: Int) -> [(rect: Rect, opacity: Double, paint: Paint)] {
        func snapshots(in items: [DrawItem], opacity: Double) -> [(rect: Rect, opacity: Double, paint: Paint)] {
            items.flatMap { item -> [(rect: Rect, opacity: Double, paint: Paint)] in
                switch item.paint {
                case .group(let list): return snapshots(in: list.items, opacity: opacity * item.opacity)
                case .bitmap(.snapshot) where item.label.hasPrefix("to.subviews[0]"):
                    return [(item.shape.rect, opacity * item.opacity, item.paint)]
                default: return []
                }
            }
        }
        return snapshots(in: t.arrangement(frame: frame).items, opacity: 1)
    }

    @Test func contentSizingStretchFollowsTheBoundsAndFinalKeepsEachContentsOwnSize() throws {
        let stretch = pairWithContent(sizing: .stretch, animation: .fade)
        let mid = stretch.frameCount / 2
        let stretched = contentItems(stretch, mid)
        #expect(stretched.count == 2)
        #expect(stretched[0].rect == stretched[1].rect)
        #expect(stretched[0].rect.width > 100 && stretched[0].rect.width < 200)
        let final = contentItems(pairWithContent(sizing: .final, animation: .fade), mid)
        #expect(final.map(\.rect) == [Rect(x: 0, y: 0, width: 100, height: 50), Rect(x: 0, y: 0, width: 200, height: 300)])
    }

    @Test func contentAnimationFadeCrossFadesAndFinalShowsOnlyTheFinalContent() throws {
        let fade = pairWithContent(sizing: .stretch, animation: .fade)
        let p = 0.7755613111161977  // frame 9 = half of 0.3 s + travel
        let frame = 9
        let progress = fade.segments[0].views.first { $0.id == "p" }!.progress(at: Double(frame) / 60)
        let items = contentItems(fade, frame)
        #expect(abs(items[0].opacity - (1 - progress)) < 1e-12)  // initial (from) content fades out
        #expect(abs(items[1].opacity - progress) < 1e-12)  // final (to) content fades in
        #expect(items[0].paint != items[1].paint)
        #expect(progress > 0 && progress < 1 && p > 0)
        #expect(contentItems(fade, 0).map(\.opacity) == [1])  // frame 0: only the from content is visible
        let final = pairWithContent(sizing: .stretch, animation: .final)
        #expect(contentItems(final, frame).map(\.opacity) == [1])
        #expect(contentItems(final, 0).count == 1)
    }

    @Test func holdsAddStillFramesAndRoundtripComesBack() throws {
        var s = scene(
            from: root("from", color: RGBAColor(red: 1, green: 0, blue: 0), subviews: []),
            to: root("to", color: RGBAColor(red: 0, green: 0, blue: 1), subviews: []),
            baseline: 0.5, defaultAnimation: .fade, fps: 10)
        s.transition.holdBefore = 0.3
        s.transition.holdAfter = 0.2
        let held = TransitionTimeline(scene: s)
        #expect(held.frameCount == 3 + 6 + 2)  // 0.3 s, ceil(0.5 * 10) + 1, 0.2 s
        #expect(held.arrangement(frame: 0) == held.arrangement(frame: 3))
        #expect(held.arrangement(frame: 8) == held.arrangement(frame: 10))
        s.transition.direction = .roundtrip
        s.transition.roundtripPause = 0.4
        let round = TransitionTimeline(scene: s)
        #expect(round.segments.map(\.isPresenting) == [true, false])
        #expect(round.frameCount == 3 + 6 + 4 + 6 + 2)
        // Back where it started: only the `from` screen (now the arriving one) is drawn, opaque red on top.
        let end = round.arrangement(frame: round.frameCount - 1).items
        #expect(end.last?.paint == .solid(RGBAColor(red: 1, green: 0, blue: 0)))
        #expect(end.last?.opacity == 1)
        #expect(!end.contains { $0.paint == .solid(RGBAColor(red: 0, green: 0, blue: 1)) })
    }

    @Test func aViewWithAlphaBelowOneFadesAsOneGroup() throws {
        // Alpha 0.4 with a background and a child: one group holding both at full
        // opacity, bounded by the view (plus a pixel of margin); alpha 1: no group.
        var card = view(
            "to.subviews[0]", [10, 20, 100, 50], animations: [AdditionalAnimation(.move(dx: 0, dy: 1))],
            subviews: [view("to.subviews[0].subviews[0]", [0, 0, 20, 20], animations: [AdditionalAnimation(.fade, when: .onDisappear)])])
        card.alpha = 0.4
        card.masksToBounds = true
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [card])))
        let group = try #require(item(t, t.frameCount - 1, "to.subviews[0] (group)"))
        #expect(group.opacity == 0.4)
        #expect(group.transform == .identity)
        #expect(group.shape.rect == Rect(x: 9, y: 19, width: 102, height: 52))
        guard case .group(let inside) = group.paint else {
            Issue.record("not a group")
            return
        }
        #expect(inside.items.map(\.opacity) == [1, 1])
        #expect(inside.items[1].clips.count == 1)  // the card's masksToBounds, inside the group
        // A view with one item keeps a plain item with its opacity scaled.
        var single = view("to.subviews[0]", [0, 0, 10, 10], animations: [AdditionalAnimation(.move(dx: 0, dy: 1))])
        single.alpha = 0.4
        let plain = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [single])))
        #expect(item(plain, plain.frameCount - 1, "to.subviews[0]")?.opacity == 0.4)
    }

    @Test func summaryListsPairsAnimationsDurationsAndFrames() {
        let a = view("from.subviews[0]", [0, 0, 100, 100], id: "x")
        let b = view("to.subviews[0]", [300, 400, 100, 100], id: "x")
        let c = view(
            "to.subviews[1]", [0, 0, 10, 10],
            animations: [AdditionalAnimation(.move(dx: -150, dy: 0)), AdditionalAnimation(.scale(2), when: .onAppear)])
        let summary = TransitionSummary(
            TransitionTimeline(scene: scene(from: root("from", subviews: [a]), to: root("to", subviews: [b, c]))))
        let pair = summary.segments[0].views.first { $0.id == "x" }
        #expect(pair?.matchedWith == "from.subviews[0]")
        #expect(pair?.distance == 500)
        #expect(pair.map { abs($0.duration - 0.44) < 1e-12 } == true)
        #expect(
            summary.segments[0].views.first { $0.path == "to.subviews[1]" }?.animations == ["move(x: -150, y: 0)", "scale(2) onAppear"])
        #expect(summary.frameCount == Int((0.44 * 60).rounded(.up)) + 1)
    }
}
