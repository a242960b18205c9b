import Primitives

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
/// view's progress lies between its values at the ends (Shift's curve is
/// monotonic; others are bounded by their control points), so each of its
/// parameters lies between two values, and `Interval` arithmetic through the
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
    /// Intervals evaluated per plan, shared among its big snapshots...
    static let intervalBudget = 1 << 18
    /// ...but never fewer than this per snapshot (10 000 big views: 640 000 in all).
    static let minimumIntervals = 64

    /// The seen part of the content in its unit square (clamped to 0...1).
    var unitRect: Rect
    /// The most canvas pixels a content point spans along each content axis
    /// while any of it is seen (an upper bound).
    var density: (x: Double, y: Double)

    /// The part of `content` (drawn by `segment.views[view]`) seen on a canvas
    /// of `canvas` pixels at any time of the segment, sampling every
    /// `stride`-th of the frames at `fps`; nil when none of it can be seen.
    static func of(_ content: TransientView.Content, view: Int, in segment: TransitionSegment,
                   fps: Double, stride: Int, canvas: (width: Int, height: Int)) -> SnapshotRegion? {
        let duration = segment.duration
        let frames = Int((duration * fps - 1e-9).rounded(.up)) + 1
        var samples = Swift.stride(from: 0, to: frames - 1, by: max(1, stride)).map { min(Double($0) / fps, duration) }
        samples.append(duration)
        if samples.count == 1 { samples.append(duration) }
        let corners = [Point(x: -margin, y: -margin), Point(x: Double(canvas.width) + margin, y: -margin),
                       Point(x: -margin, y: Double(canvas.height) + margin),
                       Point(x: Double(canvas.width) + margin, y: Double(canvas.height) + margin)]
        var result: SnapshotRegion?
        for (ta, tb) in zip(samples, samples.dropFirst()) {
            guard let part = interval(content, view: view, segment: segment, from: ta, to: tb, canvas: corners)
            else { continue }
            guard var r = result else { result = part; continue }
            r.unitRect = union(r.unitRect, part.unitRect)
            r.density = (max(r.density.x, part.density.x), max(r.density.y, part.density.y))
            result = r
        }
        return result
    }

    /// The part seen at some time in `ta...tb`.
    private static func interval(_ content: TransientView.Content, view: Int, segment: TransitionSegment,
                                 from ta: Double, to tb: Double, canvas: [Point]) -> SnapshotRegion? {
        var unit = unitSquare
        let boxes = canvas.map { segment.unitBox(of: $0, content: content, view: view, from: ta, to: tb) }
        if let first = boxes[0], let second = boxes[1], let third = boxes[2], let fourth = boxes[3] {
            let hull = first.union(second).union(third).union(fourth)
            let x0 = max(0, hull.x.lo), x1 = min(1, hull.x.hi), y0 = max(0, hull.y.lo), y1 = min(1, hull.y.hi)
            guard x0 <= x1, y0 <= y1 else { return nil }
            unit = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        // Canvas pixels per content point along each content axis, at most.
        let (ex, ey) = segment.axes(content: content, view: view, from: ta, to: tb)
        func length(_ v: IntervalPoint) -> Double { (v.x.magnitude * v.x.magnitude + v.y.magnitude * v.y.magnitude).squareRoot() }
        let density = (x: length(ex) / content.size.width, y: length(ey) / content.size.height)
        return SnapshotRegion(unitRect: unit, density: (density.x.isFinite ? density.x : .infinity,
                                                        density.y.isFinite ? density.y : .infinity))
    }

    static let unitSquare = Rect(x: 0, y: 0, width: 1, height: 1)

    private static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x0 = min(a.minX, b.minX), y0 = min(a.minY, b.minY)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }
}

extension TransitionSegment {
    /// The view and its transient ancestors, innermost first.
    private func chain(of index: Int) -> [Int] {
        var chain = [index]
        while case .parent(let p) = views[chain.last!].superview { chain.append(p) }
        return chain
    }

    /// Where canvas pixel `pixel` falls in the unit square of view `index`'s
    /// content at any time in `ta...tb`: `M(t)^-1` through the chain, outermost
    /// view first, undoing `ViewGeometry.localToSuperview` (position and
    /// translate, rotation, scale, anchor) and then the content's area. Nil
    /// when the bound is unbounded (a scale or a size that can be 0).
    func unitBox(of pixel: Point, content: TransientView.Content, view index: Int,
                 from ta: Double, to tb: Double) -> IntervalPoint? {
        var x = Interval(pixel.x / scale), y = Interval(pixel.y / scale)
        var area = IntervalPoint(x: Interval(content.size.width), y: Interval(content.size.height))
        for i in chain(of: index).reversed() {
            let view = views[i], (a, b) = (views[i].initial, views[i].final), (s, e) = (a.transform, b.transform)
            let p = view.progressRange(from: ta, to: tb)
            func range(_ from: Double, _ to: Double) -> Interval { Interval(lerp: from, to, over: p) }
            x = x - range(a.position.x, b.position.x) - range(s.translate.x, e.translate.x)
            y = y - range(a.position.y, b.position.y) - range(s.translate.y, e.translate.y)
            let degrees = range(s.rotate, e.rotate)
            let angle = Interval(degrees.lo * .pi / 180, degrees.hi * .pi / 180)
            let cosine = Interval.cosine(angle), sine = Interval.sine(angle)
            (x, y) = (x * cosine + y * sine, y * cosine - x * sine)
            let width = range(a.size.width, b.size.width), height = range(a.size.height, b.size.height)
            guard let sx = x / range(s.scale.width, e.scale.width), let sy = y / range(s.scale.height, e.scale.height)
            else { return nil }
            x = sx + range(a.anchorPoint.x, b.anchorPoint.x) * width
            y = sy + range(a.anchorPoint.y, b.anchorPoint.y) * height
            if i == index, view.options.contentSizing == .stretch { area = IntervalPoint(x: width, y: height) }
            guard x.isFinite, y.isFinite else { return nil }
        }
        guard let u = x / area.x, let v = y / area.y, u.isFinite, v.isFinite else { return nil }
        return IntervalPoint(x: u, y: v)
    }

    /// The content's unit steps along x and y in canvas pixels (the linear
    /// part of `M(t)`), bounded over `ta...tb`: scale, then rotate, per view.
    func axes(content: TransientView.Content, view index: Int, from ta: Double, to tb: Double)
        -> (IntervalPoint, IntervalPoint) {
        var ex = IntervalPoint(x: Interval(content.size.width), y: Interval(0))
        var ey = IntervalPoint(x: Interval(0), y: Interval(content.size.height))
        for i in chain(of: index) {
            let view = views[i], (a, b) = (views[i].initial, views[i].final), (s, e) = (a.transform, b.transform)
            let p = view.progressRange(from: ta, to: tb)
            func range(_ from: Double, _ to: Double) -> Interval { Interval(lerp: from, to, over: p) }
            if i == index, view.options.contentSizing == .stretch {
                ex.x = range(a.size.width, b.size.width)
                ey.y = range(a.size.height, b.size.height)
            }
            let sx = range(s.scale.width, e.scale.width), sy = range(s.scale.height, e.scale.height)
            let degrees = range(s.rotate, e.rotate)
            let angle = Interval(degrees.lo * .pi / 180, degrees.hi * .pi / 180)
            let cosine = Interval.cosine(angle), sine = Interval.sine(angle)
            func turn(_ v: IntervalPoint) -> IntervalPoint {
                let x = v.x * sx, y = v.y * sy
                return IntervalPoint(x: x * cosine - y * sine, y: x * sine + y * cosine)
            }
            ex = turn(ex); ey = turn(ey)
        }
        let k = Interval(scale)
        return (IntervalPoint(x: ex.x * k, y: ex.y * k), IntervalPoint(x: ey.x * k, y: ey.y * k))
    }
}

extension TransientView {
    /// The progress the view can have at any time in `ta...tb`: the ends for a
    /// monotonic curve (control points' y in order within 0...1), else all the
    /// curve can reach (a Bézier stays inside its control points' hull).
    func progressRange(from ta: Double, to tb: Double) -> Interval {
        let c = curve
        if 0 <= c.y1, c.y1 <= c.y2, c.y2 <= 1 { return Interval(progress(at: ta), progress(at: tb)) }
        return Interval(min(0, c.y1, c.y2), max(1, c.y1, c.y2))
    }
}
