import Primitives
import SceneModel

/// Which part of a transient view's content can ever be on the canvas, and at
/// how many pixels a point at most (docs/snapshots.md).
///
/// `drawContent` maps the content's unit square onto its area and the area to
/// canvas pixels through the view's transform chain: `M(t)`. A unit point is
/// seen at `t` when `M(t)` puts it on the canvas (grown by `margin` pixels for
/// anti-aliasing and reduced texture levels), so the part seen is the unit
/// square's overlap with `M(t)^-1` of the canvas, a parallelogram inside the
/// box of its corners. Times run over all of `0...D`, not only frame times,
/// because stills may show any moment between frames (`Moment.progress`).
/// They are covered in intervals between sample times (every frame, or every
/// `stride`-th when there are many big snapshots): over `[ta, tb]` each
/// view's progress lies in what its curve can reach (`Easing.range`: the ends
/// for a monotone curve, an envelope for a spring), so each of its parameters
/// lies between two values (keyframes and an arc bounded over that progress
/// by their own forms), and `Interval` arithmetic through the
/// inverse chain bounds where each canvas corner lands in the content. On a
/// sample (`ta == tb`) the bound is exact; between samples it grows with the
/// motion. A chain that can collapse (a scale or size through 0) bounds
/// nothing, and then all of the content counts as seen.
///
/// Rejected: sampling frame times only and hoping the motion between them is
/// small. A still between two frames of a fast zoom would then sample the
/// clamped edge of the bitmap; the interval bound costs a few more pixels.
/// Also rejected: bounding how far the content's corners move and growing the
/// canvas by that. For a 10^6-pt view zooming in, its far corner moves by
/// millions of pixels a frame while the part near the canvas barely moves.
struct SnapshotRegion: Sendable {
    /// Canvas pixels around the canvas that count as seen: the half-pixel
    /// anti-aliased edge and a bilinear tap of a reduced level.
    static let margin = 2.0
    /// Intervals evaluated per plan, shared among its big snapshots (a
    /// microsecond or two each in a release build, over a chain of views)...
    static let intervalBudget = 1 << 16
    /// ...but never fewer than this per snapshot (10 000 big views: 160 000 in all).
    static let minimumIntervals = 16

    /// The seen part of the content in its unit square (clamped to 0...1).
    var unitRect: Rect
    /// The most canvas pixels a content point spans along each content axis
    /// while any of it is seen (an upper bound).
    var density: (x: Double, y: Double)

    /// The part of `content` (drawn by `segment.views[view]`) seen on a canvas
    /// of `canvas` pixels at any time of the segment (`duration`: the caller
    /// has it, and it costs a pass over every view), sampling every
    /// `stride`-th of the frames at `fps`; nil when none of it can be seen.
    static func of(
        _ content: TransientView.Content, view: Int, in segment: TransitionSegment, duration: Double,
        fps: Double, stride: Int, canvas: (width: Int, height: Int)
    ) -> SnapshotRegion? {
        let frames = Int((duration * fps - 1e-9).rounded(.up)) + 1
        var samples = Swift.stride(from: 0, to: frames - 1, by: max(1, stride)).map { min(Double($0) / fps, duration) }
        samples.append(duration)
        if samples.count == 1 { samples.append(duration) }
        let corners = [
            Point(x: -margin, y: -margin), Point(x: Double(canvas.width) + margin, y: -margin),
            Point(x: -margin, y: Double(canvas.height) + margin),
            Point(x: Double(canvas.width) + margin, y: Double(canvas.height) + margin),
        ]
        var result: SnapshotRegion?
        for (ta, tb) in zip(samples, samples.dropFirst()) {
            guard let part = interval(content, view: view, segment: segment, from: ta, to: tb, canvas: corners)
            else { continue }
            guard var r = result else {
                result = part
                continue
            }
            r.unitRect = union(r.unitRect, part.unitRect)
            r.density = (max(r.density.x, part.density.x), max(r.density.y, part.density.y))
            result = r
        }
        return result
    }

    /// The part seen at some time in `ta...tb`.
    private static func interval(
        _ content: TransientView.Content, view: Int, segment: TransitionSegment,
        from ta: Double, to tb: Double, canvas: [Point]
    ) -> SnapshotRegion? {
        var unit = unitSquare
        let chain = segment.geometryRanges(of: view, from: ta, to: tb)
        let boxes = canvas.map { segment.unitBox(of: $0, size: content.size, chain: chain) }
        if let first = boxes[0], let second = boxes[1], let third = boxes[2], let fourth = boxes[3] {
            let hull = first.union(second).union(third).union(fourth)
            let x0 = max(0, hull.x.lo)
            let x1 = min(1, hull.x.hi)
            let y0 = max(0, hull.y.lo)
            let y1 = min(1, hull.y.hi)
            guard x0 <= x1, y0 <= y1 else { return nil }
            unit = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        // Canvas pixels per content point along each content axis, at most.
        let (ex, ey) = segment.axes(size: content.size, chain: chain)
        func length(_ v: IntervalPoint) -> Double { (v.x.magnitude * v.x.magnitude + v.y.magnitude * v.y.magnitude).squareRoot() }
        let density = (x: length(ex) / content.size.width, y: length(ey) / content.size.height)
        return SnapshotRegion(
            unitRect: unit,
            density: (
                density.x.isFinite ? density.x : .infinity,
                density.y.isFinite ? density.y : .infinity
            ))
    }

    static let unitSquare = Rect(x: 0, y: 0, width: 1, height: 1)

    private static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x0 = min(a.minX, b.minX)
        let y0 = min(a.minY, b.minY)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }
}

/// What one view's geometry can be over a time interval: each parameter of
/// `ViewGeometry.localToSuperview` as an interval, made once and used for
/// every corner.
struct GeometryRanges {
    var position: IntervalPoint
    var translate: IntervalPoint
    var cosine: Interval
    var sine: Interval
    var scale: IntervalPoint
    var anchor: IntervalPoint
    var size: IntervalPoint
    var stretches: Bool

    init(_ view: TransientView, from ta: Double, to tb: Double) {
        let p = view.progressRange(from: ta, to: tb)
        let (a, b) = (view.initial, view.final)
        let (s, e) = (a.transform, b.transform)
        func pair(_ property: KeyframeProperty, _ from: Point, _ to: Point) -> IntervalPoint {
            view.pairRange(property, (from.x, from.y), (to.x, to.y), over: p)
        }
        if view.keyframes.track(.position) == nil, let arc = view.arc {
            position = arc.range(over: p)
        } else {
            position = pair(.position, a.position, b.position)
        }
        translate = pair(.translate, s.translate, e.translate)
        let degrees = view.keyframes.track(.rotate)?.range(over: p)[0] ?? Interval(lerp: s.rotate, e.rotate, over: p)
        let angle = Interval(degrees.lo * .pi / 180, degrees.hi * .pi / 180)
        cosine = Interval.cosine(angle)
        sine = Interval.sine(angle)
        scale = view.pairRange(.scale, (s.scale.width, s.scale.height), (e.scale.width, e.scale.height), over: p)
        anchor = pair(.anchorPoint, a.anchorPoint, b.anchorPoint)
        // Sizes are held at 0 or more (`ViewState.clampedToRanges`).
        let sizes = view.pairRange(.size, (a.size.width, a.size.height), (b.size.width, b.size.height), over: p)
        size = IntervalPoint(x: Interval(max(sizes.x.lo, 0), max(sizes.x.hi, 0)), y: Interval(max(sizes.y.lo, 0), max(sizes.y.hi, 0)))
        stretches = view.options.contentSizing == .stretch
    }
}

extension TransitionSegment {
    /// The ranges of view `index` and its transient ancestors over `ta...tb`, innermost first.
    func geometryRanges(of index: Int, from ta: Double, to tb: Double) -> [GeometryRanges] {
        var chain = [GeometryRanges(views[index], from: ta, to: tb)]
        var current = index
        while case .parent(let p) = views[current].superview {
            chain.append(GeometryRanges(views[p], from: ta, to: tb))
            current = p
        }
        return chain
    }

    /// Where canvas pixel `pixel` falls in the unit square of a content of
    /// `size` points drawn by the innermost view of `chain`, at any time the
    /// ranges hold: `M(t)^-1` through the chain, outermost view first, undoing
    /// `ViewGeometry.localToSuperview` (position and translate, rotation,
    /// scale, anchor) and then the content's area. Nil when unbounded (a
    /// scale or a size that can be 0).
    func unitBox(of pixel: Point, size: Size, chain: [GeometryRanges]) -> IntervalPoint? {
        var x = Interval(pixel.x / scale)
        var y = Interval(pixel.y / scale)
        for g in chain.reversed() {
            x = x - g.position.x - g.translate.x
            y = y - g.position.y - g.translate.y
            (x, y) = (x * g.cosine + y * g.sine, y * g.cosine - x * g.sine)
            guard let sx = x / g.scale.x, let sy = y / g.scale.y else { return nil }
            x = sx + g.anchor.x * g.size.x
            y = sy + g.anchor.y * g.size.y
            guard x.isFinite, y.isFinite else { return nil }
        }
        let area = chain[0].stretches ? chain[0].size : IntervalPoint(x: Interval(size.width), y: Interval(size.height))
        guard let u = x / area.x, let v = y / area.y, u.isFinite, v.isFinite else { return nil }
        return IntervalPoint(x: u, y: v)
    }

    /// The content's unit steps along x and y in canvas pixels (the linear
    /// part of `M(t)`), bounded: scale, then rotate, per view.
    func axes(size: Size, chain: [GeometryRanges]) -> (IntervalPoint, IntervalPoint) {
        let area = chain[0].stretches ? chain[0].size : IntervalPoint(x: Interval(size.width), y: Interval(size.height))
        var ex = IntervalPoint(x: area.x, y: Interval(0))
        var ey = IntervalPoint(x: Interval(0), y: area.y)
        for g in chain {
            func turn(_ v: IntervalPoint) -> IntervalPoint {
                let x = v.x * g.scale.x
                let y = v.y * g.scale.y
                return IntervalPoint(x: x * g.cosine - y * g.sine, y: x * g.sine + y * g.cosine)
            }
            ex = turn(ex)
            ey = turn(ey)
        }
        let k = Interval(scale)
        return (IntervalPoint(x: ex.x * k, y: ex.y * k), IntervalPoint(x: ey.x * k, y: ey.y * k))
    }
}

extension TransientView {
    /// The progress the view can have at any time in `ta...tb`: what its
    /// curve can reach over that stretch of unit time (`Easing.range`: the
    /// ends for a monotone curve, an envelope for a spring).
    func progressRange(from ta: Double, to tb: Double) -> Interval {
        let range = easing.range(from: unitTime(at: ta), to: unitTime(at: tb))
        return Interval(range.lowerBound, range.upperBound)
    }

    /// The bounds of a pair-valued property (`position`, `size`, ...) for
    /// progress in `p`: keyframes when it has them, else interpolation.
    func pairRange(_ property: KeyframeProperty, _ from: (Double, Double), _ to: (Double, Double), over p: Interval) -> IntervalPoint {
        if let track = keyframes.track(property) {
            let r = track.range(over: p)
            return IntervalPoint(x: r[0], y: r[1])
        }
        return IntervalPoint(x: Interval(lerp: from.0, to.0, over: p), y: Interval(lerp: from.1, to.1, over: p))
    }
}