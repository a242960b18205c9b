// Shared by `ExtremeSceneTests` and the libFuzzer target `fuzz/targets/ExtremeSceneFuzzer.swift`
// (fuzz/build.sh compiles this file into it), so it imports no test framework.
import FramePlan
import Primitives
import SceneModel
import TransitionEngine

/// Turns bytes into a VALID scene at the edges of every limit of the format
/// (`SceneLimits`): views up to 10^6 pt and 10 000 of them, nesting 24 deep,
/// scale 8, shadows of radius 1000, transforms of 1000x and 100 turns, many
/// animations, holds of 600 s. Values are mostly the limits themselves, 0 and
/// a few ordinary ones, since bugs live at the edges; the canvas stays small
/// (at most 64 px a side) so that frames can be drawn quickly.
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

    public static func scene(from bytes: [UInt8]) -> Scene {
        var generator = ExtremeSceneGenerator(bytes: bytes)
        return generator.scene()
    }

    private mutating func byte() -> Int {
        defer { position += 1 }
        return position < bytes.count ? Int(bytes[position]) : 0
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }

    /// A limit, its negative, 0, or an ordinary value in `0...limit`.
    private mutating func edge(_ limit: Double, signed: Bool = true) -> Double {
        let ordinary = Double(byte()) / 255 * min(limit, 400)
        let value = pick([0, limit, ordinary, 1, limit / 2, 0.001, ordinary])
        return signed && byte() % 4 == 0 ? -value : value
    }

    private mutating func unit() -> Double { pick([0, 1, 0.5, Double(byte()) / 255]) }

    private mutating func color() -> RGBAColor {
        RGBAColor(red: unit(), green: unit(), blue: unit(), alpha: pick([1, 0, 0.5]))
    }

    public mutating func scene() -> Scene {
        let scale = pick([1, 2, 3, 8, 0.5, 0.25])
        let width = Double(1 + byte() % 64) / scale, height = Double(1 + byte() % 64) / scale
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
        let from = root("from"), to = root("to")
        return Scene(canvas: canvas, fps: fps, transition: transition, from: from, to: to)
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
        guard depth < SceneLimits.maximumViewDepth else { return [] }
        var result: [View] = []
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
        return TransformSpec(translate: Point(x: edge(SceneLimits.maximumCoordinate), y: edge(SceneLimits.maximumCoordinate)),
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
            v.shadow = ShadowSpec(color: color(), opacity: unit(), radius: edge(SceneLimits.maximumShadowRadius, signed: false),
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
        let limit = SceneLimits.maximumCoordinate, factor = SceneLimits.maximumScaleFactor
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

/// What every plan of a valid scene promises (docs/frame-plan.md, "Invariants"),
/// plus the snapshot cap of docs/snapshots.md. Returns the broken ones.
public enum PlanInvariants {
    public static func problems(in timeline: TransitionTimeline, frames: [Int]) -> [String] {
        var problems: [String] = []
        for (i, s) in timeline.snapshots.enumerated() {
            if s.pixelWidth < 1 || s.pixelHeight < 1 || s.pixelWidth > SnapshotLimits.maximumSide
                || s.pixelHeight > SnapshotLimits.maximumSide || s.pixelWidth * s.pixelHeight > SnapshotLimits.maximumPixels {
                problems.append("snapshot \(i) is \(s.pixelWidth) x \(s.pixelHeight) px")
            }
            check(s.content, "snapshot \(i)", snapshots: 0, into: &problems)
        }
        for frame in frames {
            check(timeline.displayList(frame: frame), "frame \(frame)", snapshots: timeline.snapshots.count, into: &problems)
        }
        return problems
    }

    private static func check(_ list: DisplayList, _ place: String, snapshots: Int, depth: Int = 0,
                              into problems: inout [String]) {
        for (n, item) in list.items.enumerated() {
            let t = item.transform, r = item.shape.rect
            var numbers = [t.a, t.b, t.c, t.d, t.tx, t.ty, r.minX, r.minY, r.width, r.height, item.shape.cornerRadius]
            numbers += item.clips.flatMap { c in
                [c.transform.a, c.transform.b, c.transform.c, c.transform.d, c.transform.tx, c.transform.ty,
                 c.shape.rect.minX, c.shape.rect.minY, c.shape.rect.width, c.shape.rect.height, c.shape.cornerRadius]
            }
            switch item.paint {
            case .shadow(let color, let sigma): numbers += [sigma, color.alpha]
            case .border(let width, let color): numbers += [width, color.alpha]
            case .solid(let color): numbers.append(color.alpha)
            case .bitmap(.snapshot(let i)) where !(0 ..< snapshots).contains(i):
                problems.append("\(place) item \(n): snapshot \(i) of \(snapshots)")
            case .group(let nested): check(nested, place + " group \(n)", snapshots: snapshots, depth: depth + 1, into: &problems)
            case .bitmap: break
            }
            if !numbers.allSatisfy(\.isFinite) { problems.append("\(place) item \(n) (\(item.label)): a number is not finite") }
            if !(0 ... 1).contains(item.opacity) { problems.append("\(place) item \(n): opacity \(item.opacity)") }
            if r.width < 0 || r.height < 0 { problems.append("\(place) item \(n): negative size \(r.size)") }
        }
    }
}
