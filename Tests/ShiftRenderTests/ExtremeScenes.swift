// Shared by `ExtremeSceneTests` (swift test) and the libFuzzer target
// fuzz/targets/ExtremeSceneFuzzer.swift (fuzz/build.sh compiles this file into
// it), so it imports no test framework and reports problems as strings.
//
// Why a generator and not the JSON fuzzer: random bytes through the decoder
// almost never make a valid scene, let alone one at the limits, while the
// crashes of issue 11 all came from valid scenes at the limits (1e6-pt views,
// scale 8, thousands of views). Here every input makes a scene that is valid
// or over exactly one limit, so the fuzzer's time goes to planning and drawing.
import FramePlan
import Primitives
import SceneModel
import TransitionEngine

/// A generated scene, and the place `validate` must name when the generator
/// stepped over a limit on purpose (nil: the scene is meant to be valid).
public struct GeneratedScene {
    public var scene: Scene
    public var overstep: ScenePlace?
}

/// Turns bytes into a scene at the edges of every limit of the format
/// (`SceneLimits`): views up to 10^6 pt and 10 000 of them, nesting 24 deep,
/// scale 8, shadows of radius 1000, transforms of 1000x and 100 turns, many
/// animations, holds of 600 s. Values are mostly the limits themselves, 0 and
/// a few ordinary ones, since bugs live at the edges; the canvas stays small
/// (at most 64 px a side) so that frames can be drawn quickly. One scene in
/// eight then steps just over one limit (`GeneratedScene.overstep`), so that
/// refusals are exercised too.
///
/// Bytes past the end read as 0, so every input makes a scene, and a longer
/// input only refines it (what libFuzzer's mutations need).
public struct ExtremeSceneGenerator {
    private var bytes: [UInt8]
    private var position = 0
    private var views = 0
    /// Ids used in the screen being made (they must be unique within it).
    private var ids = Set<String>()

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public static func scene(from bytes: [UInt8]) -> GeneratedScene {
        var generator = ExtremeSceneGenerator(bytes: bytes)
        // Decided by the first two bytes, so that the rest shapes the scene
        // either way; 0 (also what bytes past the end read as) means valid.
        let over = generator.byte() % 8 == 7
        let kind = generator.byte()
        var scene = generator.scene()
        let overstep = over ? generator.overstep(&scene, kind: kind) : nil
        return GeneratedScene(scene: scene, overstep: overstep)
    }

    private mutating func byte() -> Int {
        defer { position += 1 }
        return position < bytes.count ? Int(bytes[position]) : 0
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }

    /// A limit, its negative, 0, or an ordinary value in `0...limit`.
    /// Ordinary values come in two sizes: a phone screen's, and a few thousand
    /// points (large enough for a snapshot to be clipped, small enough for its
    /// whole to be drawn as a reference).
    private mutating func edge(_ limit: Double, signed: Bool = true) -> Double {
        let ordinary = Double(byte()) / 255 * min(limit, pick([400, 400, 5000]))
        let value = pick([0, limit, ordinary, 1, limit / 2, 0.001, ordinary])
        return signed && byte() % 4 == 0 ? -value : value
    }

    private mutating func unit() -> Double { pick([0, 1, 0.5, Double(byte()) / 255]) }

    private mutating func color() -> RGBAColor {
        RGBAColor(red: unit(), green: unit(), blue: unit(), alpha: pick([1, 0, 0.5]))
    }

    private mutating func scene() -> Scene {
        let scale = pick([1, 2, 3, 8, 0.5, 0.25])
        let width = Double(1 + byte() % 64) / scale
        let height = Double(1 + byte() % 64) / scale
        var transition = TransitionSpec()
        transition.direction = pick([.present, .dismiss, .roundtrip])
        transition.baselineDuration = pick([0.3, 0, 600, 0.01, 5])
        transition.viewOrder = pick([.auto, .toViewsOnTop, .fromViewsOnTop])
        transition.defaultAnimation = pick([.none, .fade, .scale(100), .scale(0.001), .scale(2)])
        transition.holdBefore = pick([0, 600, 0.5])
        transition.holdAfter = pick([0, 600, 0.1])
        transition.roundtripPause = pick([0, 600, 0.2])
        let fps = pick([1, 24, 60, 240, 7.5])
        let canvas = CanvasSpec(width: width, height: height, scale: scale, background: color())
        let from = root("from")
        let to = root("to")
        return Scene(canvas: canvas, fps: fps, transition: transition, from: from, to: to)
    }

    /// Steps just over one limit, and returns the place `validate` must name.
    private func overstep(_ scene: inout Scene, kind: Int) -> ScenePlace {
        let added = scene.to.subviews.count
        let newView = ScenePlace.key("to").key("subviews").index(added)
        func square() -> View { View(name: "over", frame: Rect(x: 0, y: 0, width: 10, height: 10)) }
        switch kind % 6 {
        case 0:
            scene.fps = SceneLimits.maximumFPS + 0.5
            return .key("fps")
        case 1:
            scene.canvas.width = (Double(SceneLimits.maximumCanvasPixels) + 1) / scene.canvas.scale
            return ScenePlace.key("canvas").key("width")
        case 2:
            scene.transition.baselineDuration = SceneLimits.maximumSeconds + 0.5
            return ScenePlace.key("transition").key("baselineDuration")
        case 3:
            var view = square()
            view.frame = Rect(x: SceneLimits.maximumCoordinate * 1.000001, y: 0, width: 10, height: 10)
            scene.to.subviews.append(view)
            return newView.key("frame").index(0)
        case 4:
            var view = square()
            view.shadow = ShadowSpec(radius: SceneLimits.maximumShadowRadius + 0.5)
            scene.to.subviews.append(view)
            return newView.key("shadow").key("radius")
        default:
            // A chain one level too deep: the view at depth 24 has a subview.
            var chain = square()
            var place = newView
            for _ in 2 ... SceneLimits.maximumViewDepth { place = place.key("subviews").index(0) }
            for _ in 1 ... SceneLimits.maximumViewDepth {
                var parent = square()
                parent.subviews = [chain]
                chain = parent
            }
            scene.to.subviews.append(chain)
            return place.key("subviews")
        }
    }

    private mutating func root(_ name: String) -> View {
        ids = []
        var view = View(name: name)
        if byte() % 3 == 0 { view.frame = frame() }
        view.backgroundColor = pick([nil, color()])
        view.subviews = subviews(depth: 1)
        return view
    }

    /// Children of a view at `depth` (the root is 0): a few distinct ones, each
    /// possibly repeated many times, so that a short input reaches 10 000 views.
    private mutating func subviews(depth: Int) -> [View] {
        // Views may sit at depth 24 (the root is 0), not below.
        guard depth <= SceneLimits.maximumViewDepth else { return [] }
        var result: [View] = []
        if depth == 1, byte() % 2 == 0, views < SceneLimits.maximumViews - 20 { result.append(sheet()) }
        for _ in 0 ..< byte() % 4 {
            let copies = pick([1, 1, 2, 50, 1000, 9990])
            guard views < SceneLimits.maximumViews - 2 else { break }
            var child = view(depth: depth)
            child.subviews = byte() % 3 == 0 ? subviews(depth: depth + 1) : []
            let size = Self.count(child)
            let allowed = min(copies, (SceneLimits.maximumViews - 2 - views) / max(1, size))
            guard allowed > 0 else { break }
            views += allowed * size
            for i in 0 ..< allowed {
                var copy = child
                if i > 0 { Self.dropIDs(&copy) }  // only the first copy keeps its ids
                result.append(copy)
            }
        }
        return result
    }

    /// Issue 11's shape: a view of 1500 to 10^6 pt that moves, turns or zooms a
    /// little, holding plain views near its origin, its middle and its far
    /// corner, so that its snapshot is large and clipped to what can be seen.
    private mutating func sheet() -> View {
        let side: Double = pick([1_000_000, 3000, 500_000, 20000, 1500])
        let height: Double = pick([side, 50, side / 3])
        var v = View(
            name: "sheet\(views)",
            frame: Rect(
                x: pick([0, -side / 2, 100, -40]), y: pick([0, 30, 50 - height]),
                width: side, height: height), backgroundColor: color())
        v.anchorPoint = pick([Point.zero, Point(x: 0.5, y: 0.5), Point(x: 1, y: 0)])
        v.transform = pick([TransformSpec(), TransformSpec(scale: Size(width: 0.5, height: 0.5)), TransformSpec(rotate: 30)])
        v.shift.contentSizing = pick(ShiftOptions.ContentSizing.allCases)
        v.shift.animations = (0 ..< 1 + byte() % 3).map { _ in
            let change: PropertyChange
            switch byte() % 5 {
            case 0: change = .move(dx: edge(400), dy: edge(400))
            case 1: change = .scale(pick([0.5, 2, 0.01, 10]))
            case 2: change = .rotate(edge(360))
            case 3: change = .bounds(Rect(x: 0, y: 0, width: side / 2, height: height / 2))
            default: change = .fade
            }
            return AdditionalAnimation(change)
        }
        let spots = [Point(x: 20, y: 20), Point(x: side / 2 - 50, y: height / 2 - 50), Point(x: side - 120, y: height - 120)]
        for spot in spots where byte() % 4 != 0 {
            var child = View(
                name: "plain\(views)", frame: Rect(x: spot.x, y: spot.y, width: 100, height: 100),
                backgroundColor: color(), cornerRadius: pick([0, 12, 50]))
            child.borderWidth = pick([0, 0, 3])
            if byte() % 3 == 0 {
                var bitmap = Bitmap(width: 2, height: 2)
                bitmap.pixels = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
                child.subviews = [View(name: "image", frame: Rect(x: 10, y: 10, width: 37.5, height: 37.5), image: .bitmap(bitmap))]
            }
            v.subviews.append(child)
        }
        views += Self.count(v)
        return v
    }

    private static func count(_ view: View) -> Int { 1 + view.subviews.reduce(0) { $0 + count($1) } }

    private static func dropIDs(_ view: inout View) {
        view.shift.id = nil
        for i in view.subviews.indices { dropIDs(&view.subviews[i]) }
    }

    private mutating func frame() -> Rect {
        let limit = SceneLimits.maximumCoordinate
        return Rect(x: edge(limit), y: edge(limit), width: edge(limit, signed: false), height: edge(limit, signed: false))
    }

    private mutating func transform() -> TransformSpec {
        let factor = SceneLimits.maximumScaleFactor
        return TransformSpec(
            translate: Point(x: edge(SceneLimits.maximumCoordinate), y: edge(SceneLimits.maximumCoordinate)),
            scale: Size(width: pick([1, factor, -factor, 0, 1 / factor, 2]), height: pick([1, factor, 0, 0.5])),
            rotate: edge(SceneLimits.maximumRotation))
    }

    private mutating func view(depth: Int) -> View {
        var v = View(name: "v\(views)", frame: frame(), backgroundColor: pick([nil, color()]))
        v.alpha = unit()
        v.cornerRadius = edge(SceneLimits.maximumCoordinate, signed: false)
        v.masksToBounds = byte() % 2 == 0
        v.borderWidth = edge(SceneLimits.maximumCoordinate, signed: false) * Double(byte() % 2)
        v.borderColor = color()
        if byte() % 2 == 0 {
            v.shadow = ShadowSpec(
                color: color(), opacity: unit(), radius: edge(SceneLimits.maximumShadowRadius, signed: false),
                offset: Size(width: edge(SceneLimits.maximumCoordinate), height: edge(1000)))
        }
        if byte() % 3 == 0 { v.transform = transform() }
        v.anchorPoint = pick([Point(x: 0.5, y: 0.5), .zero, Point(x: 100, y: -100), Point(x: 1, y: 1)])
        v.zPosition = edge(SceneLimits.maximumCoordinate)
        if byte() % 8 == 0 {
            var bitmap = Bitmap(width: 2, height: 2)
            bitmap.pixels = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0]
            v.image = .bitmap(bitmap)
            v.contentMode = pick(ContentMode.allCases)
        }
        // A plain view (no id, no animations, in its superview) is drawn into
        // its transient ancestor's snapshot, which is what gets clipped.
        if byte() % 3 == 0 { return v }
        // Ids shared between the screens make matched pairs.
        if let id = pick([nil, nil, "a", "b", "c", "d"]), !ids.contains(id) {
            ids.insert(id)
            v.shift.id = id
        }
        v.shift.contentAnimation = pick(ShiftOptions.ContentAnimation.allCases)
        v.shift.contentSizing = pick(ShiftOptions.ContentSizing.allCases)
        v.shift.superview = pick(ShiftOptions.SuperviewChoice.allCases)
        v.shift.position = pick(ShiftOptions.Position.allCases)
        v.shift.animations = (0 ..< pick([0, 0, 1, 2, 40])).map { _ in animation() }
        return v
    }

    private mutating func animation() -> AdditionalAnimation {
        let limit = SceneLimits.maximumCoordinate
        let factor = SceneLimits.maximumScaleFactor
        let change: PropertyChange
        switch byte() % 12 {
        case 0: change = .fade
        case 1: change = .scale(pick([factor, -factor, 0, 0.001, 2]))
        case 2: change = .move(dx: edge(limit), dy: edge(limit))
        case 3: change = .bounds(frame())
        case 4: change = .rotate(edge(SceneLimits.maximumRotation))
        case 5: change = .transform(transform())
        case 6: change = .shadowRadius(edge(SceneLimits.maximumShadowRadius, signed: false))
        case 7: change = .cornerRadius(edge(limit, signed: false))
        case 8: change = .anchorPoint(Point(x: edge(SceneLimits.maximumAnchor), y: edge(SceneLimits.maximumAnchor)))
        case 9: change = .borderWidth(edge(limit, signed: false))
        case 10: change = .alpha(unit())
        default: change = .shadowOffset(Size(width: edge(limit), height: edge(limit)))
        }
        return AdditionalAnimation(change, when: pick([nil, .onAppear, .onDisappear]))
    }
}

/// What every plan of a valid scene promises (docs/frame-plan.md,
/// "Invariants"), and the promises of docs/snapshots.md: no snapshot over
/// the cap, and a clipped snapshot holds every part of its content that a
/// frame (or a moment between frames) can show. Returns the broken ones.
public enum PlanInvariants {
    /// Checks the snapshots, then the display lists of `frames` and of segment
    /// 0 at `times` (seconds into it, between frames as stills may be).
    public static func problems(in timeline: TransitionTimeline, frames: [Int], times: [Double] = []) -> [String] {
        var problems: [String] = []
        for (i, s) in timeline.snapshots.enumerated() {
            if s.pixelWidth < 1 || s.pixelHeight < 1 || s.pixelWidth > SnapshotLimits.maximumSide
                || s.pixelHeight > SnapshotLimits.maximumSide || s.pixelWidth * s.pixelHeight > SnapshotLimits.maximumPixels
            {
                problems.append("snapshot \(i) is \(s.pixelWidth) x \(s.pixelHeight) px")
            }
            check(s.content, "snapshot \(i)", snapshots: 0, into: &problems)
        }
        let kept = timeline.snapshots.indices.map { timeline.keptPart(ofSnapshot: $0) }
        let canvas = (width: Double(timeline.canvas.pixelWidth), height: Double(timeline.canvas.pixelHeight))
        let lists =
            frames.map { ("frame \($0)", timeline.displayList(frame: $0)) }
            + times.map { ("time \($0)", timeline.displayList(segment: 0, time: $0)) }
        for (place, list) in lists {
            check(list, place, snapshots: timeline.snapshots.count, into: &problems)
            shown(list, place, kept: kept, canvas: canvas, into: &problems)
        }
        return problems
    }

    private static func check(
        _ list: DisplayList, _ place: String, snapshots: Int, depth: Int = 0,
        into problems: inout [String]
    ) {
        for (n, item) in list.items.enumerated() {
            let t = item.transform
            let r = item.shape.rect
            var numbers = [t.a, t.b, t.c, t.d, t.tx, t.ty, r.minX, r.minY, r.width, r.height, item.shape.cornerRadius]
            numbers += item.clips.flatMap { c in
                [
                    c.transform.a, c.transform.b, c.transform.c, c.transform.d, c.transform.tx, c.transform.ty,
                    c.shape.rect.minX, c.shape.rect.minY, c.shape.rect.width, c.shape.rect.height, c.shape.cornerRadius,
                ]
            }
            switch item.paint {
            case .shadow(let color, let sigma): numbers += [sigma, color.alpha]
            case .border(let width, let color): numbers += [width, color.alpha]
            case .solid(let color): numbers.append(color.alpha)
            case .gradient(let g):
                numbers += [g.start.x, g.start.y, g.end.x, g.end.y] + g.locations + g.colors.map(\.alpha)
            case .bitmap(.snapshot(let i)) where !(0 ..< snapshots).contains(i):
                problems.append("\(place) item \(n): snapshot \(i) of \(snapshots)")
            case .group(let nested): check(nested, place + " group \(n)", snapshots: snapshots, depth: depth + 1, into: &problems)
            case .bitmap: break
            case .backdropBlur(let sigma): numbers.append(sigma)
            }
            numbers += (item.projection?.values ?? []) + item.clips.flatMap { $0.projection?.values ?? [] }
            if !numbers.allSatisfy(\.isFinite) { problems.append("\(place) item \(n) (\(item.label)): a number is not finite") }
            if !(0 ... 1).contains(item.opacity) { problems.append("\(place) item \(n): opacity \(item.opacity)") }
            if r.width < 0 || r.height < 0 { problems.append("\(place) item \(n): negative size \(r.size)") }
        }
    }

    /// Every clipped snapshot item: the part of its content the canvas (grown
    /// by one pixel, half of `SnapshotRegion`'s margin, for rounding) shows
    /// must lie in the part the snapshot kept, which the item draws into. The
    /// content's whole area is recovered from the item's rect and the kept
    /// fraction; clips are ignored (they only hide more), so this is stricter
    /// than what the compositor needs.
    private static func shown(
        _ list: DisplayList, _ place: String, kept: [Rect?], canvas: (width: Double, height: Double),
        into problems: inout [String]
    ) {
        for (n, item) in list.items.enumerated() {
            if case .group(let nested) = item.paint { shown(nested, place + " group \(n)", kept: kept, canvas: canvas, into: &problems) }
            guard case .bitmap(.snapshot(let index)) = item.paint, kept.indices.contains(index), let unit = kept[index],
                unit.width > 0, unit.height > 0, let inverse = item.transform.inverted
            else { continue }
            let rect = item.shape.rect
            let areaWidth = rect.width / unit.width
            let areaHeight = rect.height / unit.height
            let area = Rect(
                x: rect.minX - areaWidth * unit.minX, y: rect.minY - areaHeight * unit.minY,
                width: areaWidth, height: areaHeight)
            let m = 1.0
            let corners = [
                Point(x: -m, y: -m), Point(x: canvas.width + m, y: -m),
                Point(x: canvas.width + m, y: canvas.height + m), Point(x: -m, y: canvas.height + m),
            ]
            guard let seen = bounds(of: clip(corners.map(inverse.apply), to: area)) else { continue }
            // Relative slack for the arithmetic that recovered the area.
            let ex = 1e-9 * (abs(area.minX) + area.width)
            let ey = 1e-9 * (abs(area.minY) + area.height)
            if seen.minX < rect.minX - ex || seen.maxX > rect.maxX + ex || seen.minY < rect.minY - ey || seen.maxY > rect.maxY + ey {
                problems.append("\(place) item \(n) (\(item.label)): shows \(seen) of its content, the snapshot kept \(rect)")
            }
        }
    }

    /// The polygon `points` cut to `rect` (one half-plane at a time).
    private static func clip(_ points: [Point], to rect: Rect) -> [Point] {
        var polygon = points
        let edges: [(Point) -> Double] = [{ $0.x - rect.minX }, { rect.maxX - $0.x }, { $0.y - rect.minY }, { rect.maxY - $0.y }]
        for inside in edges {
            var out: [Point] = []
            for (i, p) in polygon.enumerated() {
                let q = polygon[(i + 1) % polygon.count]
                let a = inside(p)
                let b = inside(q)
                if a >= 0 { out.append(p) }
                if (a >= 0) != (b >= 0) {
                    let k = a / (a - b)
                    out.append(Point(x: p.x + (q.x - p.x) * k, y: p.y + (q.y - p.y) * k))
                }
            }
            polygon = out
            if polygon.isEmpty { break }
        }
        return polygon
    }

    private static func bounds(of points: [Point]) -> Rect? {
        guard let first = points.first else { return nil }
        var x0 = first.x
        var x1 = first.x
        var y0 = first.y
        var y1 = first.y
        for p in points {
            x0 = min(x0, p.x)
            x1 = max(x1, p.x)
            y0 = min(y0, p.y)
            y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
