import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// A label's drawn text is content: in the snapshot of a static view, and for
/// a matched label one bitmap per side, cross-faded or stretched like an image.
/// The bitmaps here stand in for what TextLayout draws (their pixels do not
/// matter, only where the engine puts them).
@Suite struct LabelContentTests {
    /// A stand-in for a label's drawn text at `size` points and scale 1.
    func drawn(_ size: Size) -> Bitmap {
        Bitmap(width: Int(size.width.rounded(.up)), height: Int(size.height.rounded(.up)), fill: (0, 0, 0, 255))
    }

    func labels(_ scene: Scene) -> [LabelKey: Bitmap] {
        Dictionary(uniqueKeysWithValues: LabelKey.labels(in: scene).map { ($0.key, drawn($0.key.size)) })
    }

    /// `r` under `t`, for transforms that only scale and translate.
    func mapped(_ r: Rect, _ t: AffineTransform2D) -> Rect {
        let a = t.apply(Point(x: r.minX, y: r.minY))
        let b = t.apply(Point(x: r.maxX, y: r.maxY))
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    /// Every label bitmap item with the opacity it is drawn at, groups opened.
    func labelItems(_ t: TransitionTimeline, frame: Int) -> [(rect: Rect, opacity: Double, image: Int)] {
        func walk(_ items: [DrawItem], _ opacity: Double) -> [(rect: Rect, opacity: Double, image: Int)] {
            items.flatMap { item -> [(rect: Rect, opacity: Double, image: Int)] in
                switch item.paint {
                case .group(let list): return walk(list.items, opacity * item.opacity)
                case .bitmap(.image(let i)): return [(mapped(item.shape.rect, item.transform), opacity * item.opacity, i)]
                default: return []
                }
            }
        }
        return walk(t.arrangement(frame: frame).items, 1)
    }

    @Test func labelsAreListedOnceEachWithTheirViewsSizeAndHiddenOnesLeftOut() {
        let title = TextSpec("Title")
        var hidden = view("hidden", [0, 0, 50, 20], subviews: [view("inner", [0, 0, 50, 20]).text(TextSpec("Gone"))])
        hidden.isHidden = true
        let s = scene(
            from: root("from", subviews: [view("a", [0, 0, 120, 30]).text(title), hidden]),
            to: root("to", subviews: [view("b", [10, 10, 120, 30]).text(title), view("c", [0, 40, 80, 20]).text(title)]))
        let listed = LabelKey.labels(in: s)
        #expect(listed.map(\.key) == [LabelKey(text: title, size: Size(width: 120, height: 30)), LabelKey(text: title, size: Size(width: 80, height: 20))])
        #expect(listed.map(\.address.description) == ["from.subviews[0]", "to.subviews[1]"])
    }

    @Test func aStaticLabelIsDrawnInItsSuperviewsSnapshotAtItsOwnSize() {
        let s = scene(
            from: root("from", subviews: []),
            to: root("to", subviews: [view("card", [20, 40, 200, 100], subviews: [view("label", [10, 10, 150, 21]).text(TextSpec("Hello"))])]))
        let t = TransitionTimeline(scene: s, labels: labels(s))
        #expect(t.images.count == 1 && t.images[0].width == 150 && t.images[0].height == 21)
        let inSnapshots = t.snapshots.flatMap(\.content.items).filter { $0.paint == .bitmap(.image(0)) }
        #expect(inSnapshots.count == 1)
        // The card is static too, so both are in the root's snapshot: the label at card (20, 40) + (10, 10).
        #expect(inSnapshots.first.map { mapped($0.shape.rect, $0.transform) } == Rect(x: 30, y: 50, width: 150, height: 21))
        // Without the drawn text, nothing stands in for it.
        #expect(TransitionTimeline(scene: s).snapshots.flatMap(\.content.items).allSatisfy { $0.paint.bitmapReference == nil })
    }

    @Test func aMatchedLabelCrossFadesItsTwoTextsAndStretchesThemWithItsBounds() throws {
        let s = scene(
            from: root("from", subviews: [view("title", [0, 100, 100, 20], id: "t").text(TextSpec("Albums"))]),
            to: root("to", subviews: [view("title", [0, 0, 200, 40], id: "t").text(TextSpec("Now Playing"))]))
        let t = TransitionTimeline(scene: s, labels: labels(s))
        #expect(t.images.map(\.width) == [100, 200])
        let first = labelItems(t, frame: 0)
        #expect(first.map(\.image) == [0])  // only the leaving text shows at q = 0
        #expect(first.first?.rect == Rect(x: 0, y: 100, width: 100, height: 20))
        let last = labelItems(t, frame: t.frameCount - 1)
        #expect(last.map(\.image) == [1] && last.first?.opacity == 1)
        #expect(last.first?.rect == Rect(x: 0, y: 0, width: 200, height: 40))
        let mid = labelItems(t, frame: t.frameCount / 2)
        #expect(mid.map(\.image) == [0, 1])
        // Both texts fill the same animated bounds (stretched), between the two sizes.
        #expect(mid[0].rect == mid[1].rect)
        #expect(mid[0].rect.width > 100 && mid[0].rect.width < 200)
    }
}
