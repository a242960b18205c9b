import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// A view's `gradient`: laid into its current bounds every frame, over its
/// background, rounded with it, in live views and in snapshots; on matched
/// pairs animated as `GradientSpec.between` says.
@Suite struct GradientEngineTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0)
    static let green = RGBAColor(red: 0, green: 1, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1)

    /// Every item of a list, groups opened, with its paint.
    func flattened(_ items: [DrawItem]) -> [DrawItem] {
        items.flatMap { item -> [DrawItem] in
            if case .group(let list) = item.paint { return flattened(list.items) }
            return [item]
        }
    }

    func gradientItems(_ t: TransitionTimeline, _ frame: Int) -> [(item: DrawItem, paint: GradientPaint)] {
        flattened(t.arrangement(frame: frame).items).compactMap { item in
            if case .gradient(let g) = item.paint { return (item, g) }
            return nil
        }
    }

    // MARK: Interpolation

    @Test func sameCountInterpolatesColoursLocationsAndPointsStopByStop() {
        let a = GradientSpec(colors: [Self.red, Self.blue], locations: [0, 1], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 0))
        let b = GradientSpec(colors: [Self.green, .white], locations: [0.2, 0.6], startPoint: Point(x: 0, y: 1), endPoint: Point(x: 0, y: 0))
        let (mid, leaving) = GradientSpec.between(a, b, 0.5)
        #expect(leaving == nil)
        #expect(mid?.colors == [RGBAColor(red: 0.5, green: 0.5, blue: 0), RGBAColor(red: 0.5, green: 0.5, blue: 1)])
        #expect(mid?.locations == [0.1, 0.8])
        #expect(mid?.startPoint == Point(x: 0, y: 0.5) && mid?.endPoint == Point(x: 0.5, y: 0))
        // The ends are the two gradients (locations written out).
        #expect(GradientSpec.between(a, b, 0).gradient == a && GradientSpec.between(a, b, 1).gradient == b)
    }

    /// Red -> blue against red -> green -> blue: the first gains a stop at
    /// 0.5 with its own colour there (premultiplied midpoint of opaque red and
    /// blue: (0.5, 0, 0.5)), then the middle stops meet halfway: (0.25, 0.5, 0.25).
    @Test func differentCountsResampleBothToTheUnionOfLocations() throws {
        let a = GradientSpec(colors: [Self.red, Self.blue])
        let b = GradientSpec(colors: [Self.red, Self.green, Self.blue])
        let mid = try #require(GradientSpec.between(a, b, 0.5).gradient)
        #expect(mid.locations == [0, 0.5, 1])
        #expect(mid.colors == [Self.red, RGBAColor(red: 0.25, green: 0.5, blue: 0.25), Self.blue])
        // Resampling keeps the picture: the same colour at every t.
        let hard = GradientSpec(colors: [Self.red, Self.red, Self.blue, .white], locations: [0, 0.5, 0.5, 0.9])
        let union = GradientSpec.unionOfLocations(hard.resolvedLocations, [0, 0.25, 1])
        #expect(union == [0, 0.25, 0.5, 0.5, 0.9, 1])
        let resampled = hard.resampled(at: union)
        for t in stride(from: -0.1, through: 1.1, by: 0.05) {
            let (x, y) = (hard.color(at: t), resampled.color(at: t))
            #expect(abs(x.red - y.red) + abs(x.green - y.green) + abs(x.blue - y.blue) + abs(x.alpha - y.alpha) < 1e-12, "t = \(t)")
        }
        // A translucent stop: the colour between is interpolated premultiplied, returned straight.
        let fading = GradientSpec(colors: [Self.red, RGBAColor(red: 0, green: 0, blue: 1, alpha: 0)])
        #expect(fading.color(at: 0.25) == RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.75))
    }

    @Test func oneSideOnlyFadesWithoutDarkeningAndTwoTypesCrossFade() throws {
        let a = GradientSpec(colors: [Self.red, Self.blue])
        let appearing = try #require(GradientSpec.between(nil, a, 0.25).gradient)
        #expect(appearing.colors == [RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.25), RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.25)])
        let leaving = try #require(GradientSpec.between(a, nil, 0.25).gradient)
        #expect(leaving.colors.map(\.alpha) == [0.75, 0.75])
        let conic = GradientSpec(type: .conic, colors: [.white, .black])
        let (over, under) = GradientSpec.between(a, conic, 0.25)
        #expect(over?.type == .conic && over?.colors.map(\.alpha) == [0.25, 0.25])
        #expect(under?.type == .axial && under?.colors.map(\.alpha) == [0.75, 0.75])
    }

    // MARK: In the engine

    /// An arriving view whose bounds animate from 200 x 100 to 100 x 50 and
    /// corner radius from 0 to 10: on every frame its gradient item has the
    /// view's current rounded bounds, and the gradient's points (left middle
    /// to right middle) are laid into them.
    @Test func theGradientFollowsTheAnimatedBoundsAndCornerRadius() throws {
        var card = view(
            "to.subviews[0]", [50, 50, 100, 50],
            animations: [AdditionalAnimation(.bounds(Rect(x: 0, y: 0, width: 200, height: 100))), AdditionalAnimation(.cornerRadius(0))])
        card.cornerRadius = 10
        card.gradient = GradientSpec(colors: [Self.red, Self.blue], startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [card])))
        var sizes = Set<Double>()
        for frame in 0 ..< t.frameCount {
            let found = gradientItems(t, frame)
            try #require(found.count == 1)
            let (item, g) = found[0]
            let r = item.shape.rect
            let midY = r.minY + r.height / 2
            #expect(g.start == Point(x: r.minX, y: midY) && g.end == Point(x: r.maxX, y: midY), "frame \(frame)")
            #expect(g.colors == [Self.red, Self.blue] && g.locations == [0, 1])
            #expect(abs(item.shape.cornerRadius - 10 * (1 - (r.width - 100) / 100)) < 1e-9, "frame \(frame)")
            sizes.insert(r.width)
            // Over the background, under nothing else of the view's own.
            let labels = flattened(t.arrangement(frame: frame).items).map(\.label)
            let index = try #require(labels.firstIndex(of: "to.subviews[0] (gradient)"))
            #expect(labels[index - 1] == "to.subviews[0]")
        }
        #expect(sizes.contains(200) && sizes.contains(100) && sizes.count > 5)
    }

    /// A matched pair, red -> blue on the left, green -> white on the right:
    /// its gradient is the interpolation at the view's progress on every
    /// frame, and its contents carry no background of their own (the
    /// background is drawn live under the gradient).
    @Test func aMatchedPairInterpolatesItsGradientEveryFrame() throws {
        var from = view("from.subviews[0]", [0, 0, 100, 100], id: "m")
        from.gradient = GradientSpec(colors: [Self.red, Self.blue])
        var to = view("to.subviews[0]", [100, 200, 200, 100], color: Self.blue, id: "m")
        to.gradient = GradientSpec(colors: [Self.green, .white], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: [from]), to: root("to", subviews: [to])))
        let segment = t.segments[0]
        let pair = try #require(segment.views.first { $0.isMatched })
        #expect(pair.finalContent.frame?.background == .clear && pair.initialContent?.frame?.background == .clear)
        let half = try #require(pair.state(at: 0.5).gradient)
        #expect(half.colors == [RGBAColor(red: 0.5, green: 0.5, blue: 0), RGBAColor(red: 0.5, green: 0.5, blue: 1)])
        #expect(half.endPoint == Point(x: 0.75, y: 1))
        let first = try #require(gradientItems(t, 0).first)
        #expect(first.paint.colors == [Self.red, Self.blue])
        let last = try #require(gradientItems(t, t.frameCount - 1).first)
        #expect(last.paint.colors == [Self.green, .white])
        #expect(last.paint.start == Point(x: 0, y: 0) && last.paint.end == Point(x: 200, y: 100))
        let time = segment.duration / 2
        let q = pair.progress(at: time)
        #expect(q > 0.2 && q < 0.9)
        let expected = try #require(pair.state(at: q).gradient).paint(in: Rect(origin: .zero, size: pair.state(at: q).size))
        let drawn = flattened(t.motionDisplayList(segment: 0, time: time).items).compactMap { item -> GradientPaint? in
            if case .gradient(let g) = item.paint { return g }
            return nil
        }
        #expect(drawn == [expected])
    }

    @Test func snapshotsDrawAPlainViewsGradientOverItsBackground() throws {
        var child = view("to.subviews[0].subviews[0]", [0, 0, 50, 50])
        child.gradient = GradientSpec(type: .radial, colors: [.white, .black], startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1))
        child.cornerRadius = 8
        let card = view("to.subviews[0]", [10, 10, 100, 100], animations: [AdditionalAnimation(.move(dx: 0, dy: 10))], subviews: [child])
        let t = TransitionTimeline(scene: scene(from: root("from", subviews: []), to: root("to", subviews: [card])))
        let snapshot = try #require(t.snapshots.first { $0.name == "to: to.subviews[0]" })
        #expect(snapshot.content.items.map(\.label) == ["to.subviews[0].subviews[0]", "to.subviews[0].subviews[0] (gradient)"])
        let item = snapshot.content.items[1]
        #expect(item.shape.cornerRadius == 8)
        guard case .gradient(let g) = item.paint else {
            Issue.record("not a gradient")
            return
        }
        #expect(g.kind == .radial && g.start == Point(x: 25, y: 25) && g.end == Point(x: 50, y: 50))
    }
}
