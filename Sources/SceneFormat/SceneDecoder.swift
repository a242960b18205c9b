import Foundation
import Primitives

/// Turns a parsed JSON document into a `Scene`, checking every key, type and
/// range, and collecting every problem with its path instead of stopping at
/// the first. Image files are only resolved here; `SceneLoader` decodes them.
struct SceneDecoder {
    private(set) var issues: [SceneIssue] = []
    private var viewCount = 0
    let baseDirectory: String

    init(baseDirectory: String) { self.baseDirectory = baseDirectory }

    // MARK: Problems

    mutating func report(_ path: String, _ message: String, at node: JSONNode? = nil) {
        issues.append(SceneIssue(path: path, message: message, line: node?.line, column: node?.column))
    }

    /// The members of an object, after reporting any key not in `known`.
    mutating func members(_ node: JSONNode, _ path: String, known: [String]) -> [String: JSONNode]? {
        guard case .object(let pairs) = node.value else {
            report(path, "expected an object, got \(node.value.kindName)", at: node)
            return nil
        }
        var result: [String: JSONNode] = [:]
        for (key, value) in pairs {
            if known.contains(key) {
                result[key] = value
            } else {
                let keyPath = join(path, key)
                if let hint = KeySuggestion.closest(to: key, among: known) {
                    report(keyPath, "unknown key \"\(key)\"; did you mean \"\(hint)\"?", at: value)
                } else {
                    report(keyPath, "unknown key \"\(key)\"; known keys here: \(known.joined(separator: ", "))", at: value)
                }
            }
        }
        return result
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: Scalars

    mutating func number(_ node: JSONNode?, _ path: String, default value: Double,
                         in range: ClosedRange<Double>, exclusiveLower: Bool = false) -> Double {
        guard let node else { return value }
        guard case .number(let n) = node.value else {
            report(path, "expected a number, got \(node.value.kindName)", at: node)
            return value
        }
        if !range.contains(n) || (exclusiveLower && n == range.lowerBound) {
            let lower = exclusiveLower ? "greater than \(format(range.lowerBound))" : "at least \(format(range.lowerBound))"
            report(path, "\(format(n)) is out of range: must be \(lower) and at most \(format(range.upperBound))", at: node)
            return value
        }
        return n
    }

    /// A value as a message quotes it: numbers by value, anything else by kind.
    func describe(_ node: JSONNode) -> String {
        if case .number(let n) = node.value { return format(n) }
        return node.value.kindName
    }

    func format(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }

    mutating func bool(_ node: JSONNode?, _ path: String, default value: Bool) -> Bool {
        guard let node else { return value }
        guard case .bool(let b) = node.value else {
            report(path, "expected true or false, got \(node.value.kindName)", at: node)
            return value
        }
        return b
    }

    mutating func string(_ node: JSONNode?, _ path: String) -> String? {
        guard let node else { return nil }
        guard case .string(let s) = node.value else {
            report(path, "expected a string, got \(node.value.kindName)", at: node)
            return nil
        }
        return s
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode?, _ path: String, default value: T) -> T
    where T.RawValue == String {
        guard let node, let text = string(node, path) else { return value }
        if let found = T(rawValue: text) { return found }
        let names = T.allCases.map(\.rawValue)
        var message = "unknown value \"\(text)\"; expected one of: \(names.joined(separator: ", "))"
        if let hint = KeySuggestion.closest(to: text, among: names) { message += " (did you mean \"\(hint)\"?)" }
        report(path, message, at: node)
        return value
    }

    /// A fixed-length array of numbers, each within `range`.
    mutating func numbers(_ node: JSONNode, _ path: String, count: Int, meaning: String,
                          in range: ClosedRange<Double> = -SceneLimits.maximumCoordinate...SceneLimits.maximumCoordinate) -> [Double]? {
        guard case .array(let elements) = node.value else {
            report(path, "expected \(meaning), got \(node.value.kindName)", at: node)
            return nil
        }
        guard elements.count == count else {
            report(path, "expected \(meaning), got \(elements.count) number\(elements.count == 1 ? "" : "s")", at: node)
            return nil
        }
        var values: [Double] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let n) = element.value else {
                report("\(path)[\(i)]", "expected a number, got \(element.value.kindName)", at: element)
                return nil
            }
            guard range.contains(n) else {
                report("\(path)[\(i)]", "\(format(n)) is out of range \(format(range.lowerBound))...\(format(range.upperBound))", at: element)
                return nil
            }
            values.append(n)
        }
        return values
    }

    mutating func point(_ node: JSONNode?, _ path: String, default value: Point,
                        in range: ClosedRange<Double> = -SceneLimits.maximumCoordinate...SceneLimits.maximumCoordinate) -> Point {
        guard let node, let v = numbers(node, path, count: 2, meaning: "[x, y]", in: range) else { return value }
        return Point(x: v[0], y: v[1])
    }

    mutating func size(_ node: JSONNode?, _ path: String, default value: Size) -> Size {
        guard let node, let v = numbers(node, path, count: 2, meaning: "[width, height]") else { return value }
        return Size(width: v[0], height: v[1])
    }

    mutating func rect(_ node: JSONNode, _ path: String) -> Rect? {
        guard let v = numbers(node, path, count: 4, meaning: "[x, y, width, height]") else { return nil }
        if v[2] < 0 || v[3] < 0 {
            report(path, "width and height must not be negative (got \(format(v[2])) x \(format(v[3])))", at: node)
            return nil
        }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    mutating func color(_ node: JSONNode?, _ path: String) -> RGBAColor? {
        guard let node else { return nil }
        switch node.value {
        case .string(let text):
            if let c = ColorParser.parseHex(text) { return c }
            report(path, "invalid colour \"\(text)\"; use #RGB, #RRGGBB, #RRGGBBAA or [r, g, b, a] in 0...1", at: node)
            return nil
        case .array:
            guard let v = numbers(node, path, count: 4, meaning: "a colour [r, g, b, a] with components in 0...1", in: 0...1)
            else { return nil }
            return RGBAColor(red: v[0], green: v[1], blue: v[2], alpha: v[3])
        default:
            report(path, "expected a colour (\"#RRGGBB\" or [r, g, b, a]), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    // MARK: Scene

    mutating func decodeScene(_ root: JSONNode) -> Scene? {
        guard let m = members(root, "", known: SceneKeys.scene) else { return nil }
        _ = string(m["$schema"], "$schema")
        var version = SceneFormatVersion.current
        if let node = m["version"] {
            if case .number(let n) = node.value, n == n.rounded(), n >= 1 {
                if n > Double(SceneFormatVersion.current) {
                    report("version", "format version \(format(n)) is newer than this shiftrender reads (\(SceneFormatVersion.current)); update shiftrender", at: node)
                } else {
                    version = Int(n)
                }
            } else {
                report("version", "expected a whole number >= 1, got \(describe(node))", at: node)
            }
        } else {
            report("version", "missing; write \"version\": 1")
        }
        var canvas = CanvasSpec(width: 390, height: 844, scale: 1)
        if let node = m["canvas"] { canvas = decodeCanvas(node) } else { report("canvas", "missing; e.g. \"canvas\": {\"width\": 390, \"height\": 844, \"scale\": 2}") }
        let fps = number(m["fps"], "fps", default: 60, in: 0...SceneLimits.maximumFPS, exclusiveLower: true)
        let transition = m["transition"].map { decodeTransition($0) } ?? TransitionSpec()
        let rootFrame = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var from = ViewSpec(path: "from", frame: rootFrame)
        var to = ViewSpec(path: "to", frame: rootFrame)
        if let node = m["from"] { from = decodeView(node, "from", depth: 0, isRoot: true, canvasFrame: rootFrame) } else { report("from", "missing: the root view of the screen being left") }
        if let node = m["to"] { to = decodeView(node, "to", depth: 0, isRoot: true, canvasFrame: rootFrame) } else { report("to", "missing: the root view of the screen arriving") }
        checkUniqueIDs(from)
        checkUniqueIDs(to)
        return Scene(version: version, canvas: canvas, fps: fps, transition: transition, from: from, to: to)
    }

    /// Matching is by `shift.id`, so an id may stand only once on each screen.
    mutating func checkUniqueIDs(_ root: ViewSpec) {
        var firstPlace: [String: String] = [:]
        func visit(_ view: ViewSpec) {
            if let id = view.shift.id {
                if let first = firstPlace[id] {
                    report(join(view.path, "shift.id"), "duplicate id \"\(id)\" (first used at \(first)); ids must be unique within a screen")
                } else {
                    firstPlace[id] = view.path
                }
            }
            view.subviews.forEach(visit)
        }
        visit(root)
    }

    mutating func decodeCanvas(_ node: JSONNode) -> CanvasSpec {
        var canvas = CanvasSpec(width: 390, height: 844, scale: 1)
        guard let m = members(node, "canvas", known: SceneKeys.canvas) else { return canvas }
        let limit = Double(SceneLimits.maximumCanvasPixels)
        if m["width"] == nil { report("canvas.width", "missing") }
        if m["height"] == nil { report("canvas.height", "missing") }
        canvas.width = number(m["width"], "canvas.width", default: 390, in: 0...limit, exclusiveLower: true)
        canvas.height = number(m["height"], "canvas.height", default: 844, in: 0...limit, exclusiveLower: true)
        canvas.scale = number(m["scale"], "canvas.scale", default: 1, in: 0...SceneLimits.maximumScale, exclusiveLower: true)
        canvas.background = color(m["background"], "canvas.background") ?? .black
        for (side, points) in [("width", canvas.width), ("height", canvas.height)] {
            let pixels = (points * canvas.scale).rounded()
            if pixels > limit {
                report("canvas.\(side)", "\(format(points)) pt at scale \(format(canvas.scale)) is \(format(pixels)) px; the limit is \(SceneLimits.maximumCanvasPixels) px a side", at: m[side])
            } else if pixels < 1 {
                report("canvas.\(side)", "\(format(points)) pt at scale \(format(canvas.scale)) is less than one pixel", at: m[side])
            }
        }
        return canvas
    }

    mutating func decodeTransition(_ node: JSONNode) -> TransitionSpec {
        var spec = TransitionSpec()
        guard let m = members(node, "transition", known: SceneKeys.transition) else { return spec }
        spec.direction = choice(m["direction"], "transition.direction", default: .present)
        spec.baselineDuration = number(m["baselineDuration"], "transition.baselineDuration", default: 0.265, in: 0...SceneLimits.maximumSeconds)
        spec.viewOrder = choice(m["viewOrder"], "transition.viewOrder", default: .auto)
        spec.roundtripPause = number(m["roundtripPause"], "transition.roundtripPause", default: 0.5, in: 0...SceneLimits.maximumSeconds)
        if let node = m["defaultAnimation"] { spec.defaultAnimation = decodeDefaultAnimation(node) }
        if let node = m["hold"], let h = members(node, "transition.hold", known: SceneKeys.hold) {
            spec.holdBefore = number(h["before"], "transition.hold.before", default: 0, in: 0...SceneLimits.maximumSeconds)
            spec.holdAfter = number(h["after"], "transition.hold.after", default: 0, in: 0...SceneLimits.maximumSeconds)
        }
        return spec
    }

    mutating func decodeDefaultAnimation(_ node: JSONNode) -> DefaultAnimation {
        let path = "transition.defaultAnimation"
        switch node.value {
        case .string("fade"): return .fade
        case .string("none"): return .none
        case .object:
            guard let m = members(node, path, known: SceneKeys.defaultAnimation), let scale = m["scale"] else {
                report(path, "expected {\"scale\": \"up\" | \"down\" | number}", at: node)
                return .fade
            }
            switch scale.value {
            case .string("down"): return .scale(1.7)
            case .string("up"): return .scale(0.7)
            case .number:
                return .scale(number(scale, "\(path).scale", default: 1, in: 0...100, exclusiveLower: true))
            default:
                report("\(path).scale", "expected \"up\", \"down\" or a number, got \(scale.value.kindName)", at: scale)
                return .fade
            }
        default:
            report(path, "expected \"fade\", \"none\" or {\"scale\": \"up\" | \"down\" | number}", at: node)
            return .fade
        }
    }

    // MARK: Views

    mutating func decodeView(_ node: JSONNode, _ path: String, depth: Int, isRoot: Bool, canvasFrame: Rect) -> ViewSpec {
        var view = ViewSpec(path: path, frame: isRoot ? canvasFrame : nil)
        viewCount += 1
        if viewCount == SceneLimits.maximumViews + 1 {
            report(path, "more than \(SceneLimits.maximumViews) views in the scene", at: node)
        }
        guard let m = members(node, path, known: SceneKeys.view) else { return view }
        view.name = string(m["name"], join(path, "name"))
        if let f = m["frame"] {
            view.frame = rect(f, join(path, "frame")) ?? view.frame
        } else if !isRoot {
            report(join(path, "frame"), "missing: every view but a root needs [x, y, width, height]", at: node)
        }
        view.backgroundColor = color(m["backgroundColor"], join(path, "backgroundColor"))
        view.alpha = number(m["alpha"], join(path, "alpha"), default: 1, in: 0...1)
        view.cornerRadius = number(m["cornerRadius"], join(path, "cornerRadius"), default: 0, in: 0...SceneLimits.maximumCoordinate)
        view.masksToBounds = bool(m["masksToBounds"], join(path, "masksToBounds"), default: false)
        view.borderWidth = number(m["borderWidth"], join(path, "borderWidth"), default: 0, in: 0...SceneLimits.maximumCoordinate)
        view.borderColor = color(m["borderColor"], join(path, "borderColor")) ?? .black
        if let s = m["shadow"] { view.shadow = decodeShadow(s, join(path, "shadow")) }
        if let t = m["transform"] { view.transform = decodeTransform(t, join(path, "transform")) }
        view.anchorPoint = point(m["anchorPoint"], join(path, "anchorPoint"), default: Point(x: 0.5, y: 0.5), in: -100...100)
        view.zPosition = number(m["zPosition"], join(path, "zPosition"), default: 0, in: -SceneLimits.maximumCoordinate...SceneLimits.maximumCoordinate)
        view.isHidden = bool(m["isHidden"], join(path, "isHidden"), default: false)
        if let written = string(m["image"], join(path, "image")) {
            if written.isEmpty {
                report(join(path, "image"), "empty image path", at: m["image"])
            } else {
                view.image = ImageReference(written: written, resolvedPath: resolve(written))
            }
        }
        view.contentMode = choice(m["contentMode"], join(path, "contentMode"), default: .scaleToFill)
        if let s = m["shift"] { view.shift = decodeShift(s, join(path, "shift")) }
        if let subviews = m["subviews"] {
            let subviewsPath = join(path, "subviews")
            if case .array(let elements) = subviews.value {
                if depth + 1 > SceneLimits.maximumViewDepth {
                    report(subviewsPath, "views nest deeper than \(SceneLimits.maximumViewDepth) levels", at: subviews)
                } else {
                    view.subviews = elements.enumerated().map { i, element in
                        decodeView(element, "\(subviewsPath)[\(i)]", depth: depth + 1, isRoot: false, canvasFrame: canvasFrame)
                    }
                }
            } else {
                report(subviewsPath, "expected an array of views, got \(subviews.value.kindName)", at: subviews)
            }
        }
        return view
    }

    func resolve(_ written: String) -> String {
        if written.hasPrefix("/") { return written }
        let joined = baseDirectory.isEmpty ? written : baseDirectory + "/" + written
        return (joined as NSString).standardizingPath
    }

    mutating func decodeShadow(_ node: JSONNode, _ path: String) -> ShadowSpec {
        var shadow = ShadowSpec()
        guard let m = members(node, path, known: SceneKeys.shadow) else { return shadow }
        shadow.color = color(m["color"], join(path, "color")) ?? .black
        shadow.opacity = number(m["opacity"], join(path, "opacity"), default: 0, in: 0...1)
        shadow.radius = number(m["radius"], join(path, "radius"), default: 3, in: 0...1000)
        shadow.offset = size(m["offset"], join(path, "offset"), default: Size(width: 0, height: -3))
        return shadow
    }

    mutating func decodeTransform(_ node: JSONNode, _ path: String) -> TransformSpec {
        var t = TransformSpec()
        guard let m = members(node, path, known: SceneKeys.transform) else { return t }
        t.translate = point(m["translate"], join(path, "translate"), default: .zero)
        if let s = m["scale"] {
            if case .number = s.value {
                let k = number(s, join(path, "scale"), default: 1, in: -1000...1000)
                t.scale = Size(width: k, height: k)
            } else {
                t.scale = size(s, join(path, "scale"), default: Size(width: 1, height: 1))
            }
        }
        t.rotate = number(m["rotate"], join(path, "rotate"), default: 0, in: -36000...36000)
        return t
    }

    mutating func decodeShift(_ node: JSONNode, _ path: String) -> ShiftOptions {
        var options = ShiftOptions()
        guard let m = members(node, path, known: SceneKeys.shift) else { return options }
        if let id = string(m["id"], join(path, "id")) {
            if id.isEmpty { report(join(path, "id"), "empty id", at: m["id"]) } else { options.id = id }
        }
        options.contentAnimation = choice(m["contentAnimation"], join(path, "contentAnimation"), default: .fade)
        options.contentSizing = choice(m["contentSizing"], join(path, "contentSizing"), default: .stretch)
        options.superview = choice(m["superview"], join(path, "superview"), default: .parent)
        options.position = choice(m["position"], join(path, "position"), default: .auto)
        options.isHidden = bool(m["isHidden"], join(path, "isHidden"), default: false)
        if let list = m["animations"] {
            let listPath = join(path, "animations")
            if case .array(let elements) = list.value {
                for (i, element) in elements.enumerated() {
                    if let animation = AnimationDecoding.decode(element, "\(listPath)[\(i)]", &self) {
                        options.animations.append(animation)
                    }
                }
            } else {
                report(listPath, "expected an array of animations, got \(list.value.kindName)", at: list)
            }
        }
        return options
    }
}
