import Foundation
import Primitives
import SceneModel

/// Turns a parsed JSON document into a `Scene`, reporting what only a file can
/// get wrong: unknown keys (with the closest known one), wrong types, unknown
/// names, a missing `version`, `canvas`, `from` or `to`. Values are taken as
/// written; their ranges are `SceneValidator`'s to check, so a file and a
/// scene built in Swift meet one set of rules. A value of the wrong type is
/// reported and replaced by its default, and decoding goes on, so that one run
/// reports every problem. Every place decoded is remembered with its line and
/// column (`SourceLocations`), so the validator's problems can point into the file.
struct SceneDecoder {
    private(set) var problems: [SceneProblem] = []
    private(set) var locations = SourceLocations()

    // MARK: Problems

    mutating func report(_ place: ScenePlace, _ message: String, at node: JSONNode? = nil) {
        problems.append(SceneProblem(at: place, message, location: node.map { SourceLocation(line: $0.line, column: $0.column) }))
    }

    mutating func remember(_ place: ScenePlace, _ node: JSONNode) {
        locations.record(place, SourceLocation(line: node.line, column: node.column))
    }

    /// Where a place of the model stands in the file when the two differ (a lone atomic transition is a list of one).
    mutating func remember(modelPlace: ScenePlace, filePlace: ScenePlace) {
        locations.record(modelPlace: modelPlace, filePlace: filePlace)
    }

    /// The members of an object, after reporting any key not in `known`.
    mutating func members(_ node: JSONNode, _ place: ScenePlace, known: [String]) -> [String: JSONNode]? {
        remember(place, node)
        guard case .object(let pairs) = node.value else {
            report(place, "expected an object, got \(node.value.kindName)", at: node)
            return nil
        }
        var result: [String: JSONNode] = [:]
        for (key, value) in pairs {
            if known.contains(key) {
                result[key] = value
            } else if let hint = Self.springHint(key, known: known) {
                report(place.key(key), "unknown key \"\(key)\"; \(hint)", at: value)
            } else if let hint = KeySuggestion.closest(to: key, among: known) {
                report(place.key(key), "unknown key \"\(key)\"; did you mean \"\(hint)\"?", at: value)
            } else {
                report(place.key(key), "unknown key \"\(key)\"; known keys here: \(known.joined(separator: ", "))", at: value)
            }
        }
        return result
    }

    // MARK: Scalars

    mutating func number(_ node: JSONNode?, _ place: ScenePlace, default value: Double) -> Double {
        guard let node else { return value }
        remember(place, node)
        guard case .number(let n) = node.value else {
            report(place, "expected a number, got \(node.value.kindName)", at: node)
            return value
        }
        return n
    }

    mutating func bool(_ node: JSONNode?, _ place: ScenePlace, default value: Bool) -> Bool {
        guard let node else { return value }
        remember(place, node)
        guard case .bool(let b) = node.value else {
            report(place, "expected true or false, got \(node.value.kindName)", at: node)
            return value
        }
        return b
    }

    mutating func string(_ node: JSONNode?, _ place: ScenePlace) -> String? {
        guard let node else { return nil }
        remember(place, node)
        guard case .string(let s) = node.value else {
            report(place, "expected a string, got \(node.value.kindName)", at: node)
            return nil
        }
        return s
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode?, _ place: ScenePlace, default value: T) -> T
    where T.RawValue == String {
        guard let node else { return value }
        return strictChoice(node, place, as: T.self) ?? value
    }

    /// A fixed-length array of numbers; nil (reported) when it is anything else.
    mutating func numbers(_ node: JSONNode, _ place: ScenePlace, count: Int, meaning: String) -> [Double]? {
        guard let elements = array(node, place, meaning: meaning) else { return nil }
        guard elements.count == count else {
            report(place, "expected \(meaning), got \(elements.count) number\(elements.count == 1 ? "" : "s")", at: node)
            return nil
        }
        var values: [Double] = []
        for (i, element) in elements.enumerated() {
            remember(place.index(i), element)
            guard case .number(let n) = element.value else {
                report(place.index(i), "expected a number, got \(element.value.kindName)", at: element)
                return nil
            }
            values.append(n)
        }
        return values
    }

    mutating func point(_ node: JSONNode?, _ place: ScenePlace, default value: Point) -> Point {
        guard let node, let v = numbers(node, place, count: 2, meaning: "[x, y]") else { return value }
        return Point(x: v[0], y: v[1])
    }

    mutating func size(_ node: JSONNode?, _ place: ScenePlace, default value: Size) -> Size {
        guard let node, let v = numbers(node, place, count: 2, meaning: "[width, height]") else { return value }
        return Size(width: v[0], height: v[1])
    }

    mutating func rect(_ node: JSONNode, _ place: ScenePlace) -> Rect? {
        guard let v = numbers(node, place, count: 4, meaning: "[x, y, width, height]") else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    mutating func color(_ node: JSONNode?, _ place: ScenePlace) -> RGBAColor? {
        guard let node else { return nil }
        remember(place, node)
        switch node.value {
        case .string(let text):
            if let c = RGBAColor(hex: text) { return c }
            report(place, "invalid colour \"\(text)\"; use #RGB, #RRGGBB, #RRGGBBAA or [r, g, b, a] in 0...1", at: node)
            return nil
        case .array:
            guard let v = numbers(node, place, count: 4, meaning: "a colour [r, g, b, a] with components in 0...1") else { return nil }
            return RGBAColor(red: v[0], green: v[1], blue: v[2], alpha: v[3])
        default:
            report(place, "expected a colour (\"#RRGGBB\" or [r, g, b, a]), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    // MARK: Scene

    mutating func decodeScene(_ root: JSONNode, directory: String?) -> Scene {
        // Not an object: that is all there is to say.
        guard let m = members(root, .scene, known: SceneKeys.scene) else {
            return Scene(canvas: CanvasSpec(width: 390, height: 844), from: View(), to: View(), directory: directory)
        }
        _ = string(m["$schema"], .key("$schema"))
        var version = SceneFormatVersion.current
        if let node = m["version"] {
            remember(.key("version"), node)
            if case .number(let n) = node.value, n == n.rounded(), n >= 1 {
                if n > Double(SceneFormatVersion.current) {
                    let text = n < 1e15 ? String(Int64(n)) : String(n)
                    report(
                        .key("version"),
                        "format version \(text) is newer than this shiftrender reads "
                            + "(\(SceneFormatVersion.current)); update shiftrender", at: node)
                } else {
                    version = Int(n)
                }
            } else {
                let shown: String
                if case .number(let n) = node.value { shown = String(n) } else { shown = node.value.kindName }
                report(.key("version"), "expected a whole number >= 1, got \(shown)", at: node)
            }
        } else {
            report(.key("version"), "missing; write \"version\": 1")
        }
        var canvas = CanvasSpec(width: 390, height: 844, scale: 1)
        if let node = m["canvas"] {
            canvas = decodeCanvas(node)
        } else {
            report(.key("canvas"), "missing; e.g. \"canvas\": {\"width\": 390, \"height\": 844, \"scale\": 2}")
        }
        let fps = number(m["fps"], .key("fps"), default: 60)
        let transition = m["transition"].map { decodeTransition($0) } ?? TransitionSpec()
        var from = View()
        var to = View()
        if let node = m["from"] {
            from = decodeView(node, ViewAddress(screen: .from).place)
        } else {
            report(.key("from"), "missing: the root view of the screen being left")
        }
        if let node = m["to"] {
            to = decodeView(node, ViewAddress(screen: .to).place)
        } else {
            report(.key("to"), "missing: the root view of the screen arriving")
        }
        return Scene(version: version, canvas: canvas, fps: fps, transition: transition, from: from, to: to, directory: directory)
    }

    mutating func decodeCanvas(_ node: JSONNode) -> CanvasSpec {
        var canvas = CanvasSpec(width: 390, height: 844, scale: 1)
        let place = ScenePlace.key("canvas")
        guard let m = members(node, place, known: SceneKeys.canvas) else { return canvas }
        if m["width"] == nil { report(place.key("width"), "missing") }
        if m["height"] == nil { report(place.key("height"), "missing") }
        canvas.width = number(m["width"], place.key("width"), default: 390)
        canvas.height = number(m["height"], place.key("height"), default: 844)
        canvas.scale = number(m["scale"], place.key("scale"), default: 1)
        canvas.background = color(m["background"], place.key("background")) ?? .black
        return canvas
    }

    mutating func decodeTransition(_ node: JSONNode) -> TransitionSpec {
        var spec = TransitionSpec()
        let place = ScenePlace.key("transition")
        guard let m = members(node, place, known: SceneKeys.transition) else { return spec }
        spec.direction = choice(m["direction"], place.key("direction"), default: .present)
        spec.baselineDuration = number(m["baselineDuration"], place.key("baselineDuration"), default: 0.265)
        spec.viewOrder = choice(m["viewOrder"], place.key("viewOrder"), default: .auto)
        spec.roundtripPause = number(m["roundtripPause"], place.key("roundtripPause"), default: 0.5)
        if let node = m["defaultAnimation"] { spec.defaultAnimation = decodeDefaultAnimation(node, place.key("defaultAnimation")) }
        if let node = m["hold"], let h = members(node, place.key("hold"), known: SceneKeys.hold) {
            spec.holdBefore = number(h["before"], place.key("hold").key("before"), default: 0)
            spec.holdAfter = number(h["after"], place.key("hold").key("after"), default: 0)
        }
        spec.timing = decodeTiming(m, place)
        if let node = m["navigation"] { spec.navigation = decodeNavigation(node, place.key("navigation")) }
        if let node = m["presentation"] { spec.presentation = decodePresentation(node, place.key("presentation")) }
        if let node = m["interaction"] { spec.interaction = decodeInteraction(node, place.key("interaction")) }
        return spec
    }

    mutating func decodeDefaultAnimation(_ node: JSONNode, _ place: ScenePlace) -> DefaultAnimation {
        remember(place, node)
        switch node.value {
        case .string("fade"): return .fade
        case .string("none"): return .none
        case .object:
            guard let m = members(node, place, known: SceneKeys.defaultAnimation), let scale = m["scale"] else {
                report(place, "expected {\"scale\": \"up\" | \"down\" | number}", at: node)
                return .fade
            }
            remember(place.key("scale"), scale)
            switch scale.value {
            case .string("down"): return .scaleDown
            case .string("up"): return .scaleUp
            case .number(let k): return .scale(k)
            default:
                report(place.key("scale"), "expected \"up\", \"down\" or a number, got \(scale.value.kindName)", at: scale)
                return .fade
            }
        default:
            report(place, "expected \"fade\", \"none\" or {\"scale\": \"up\" | \"down\" | number}", at: node)
            return .fade
        }
    }

    // MARK: Views

    mutating func decodeView(_ node: JSONNode, _ place: ScenePlace) -> View {
        var view = View()
        guard let m = members(node, place, known: SceneKeys.view) else { return view }
        view.name = string(m["name"], place.key("name"))
        if let f = m["frame"] { view.frame = rect(f, place.key("frame")) }
        view.backgroundColor = color(m["backgroundColor"], place.key("backgroundColor"))
        view.alpha = number(m["alpha"], place.key("alpha"), default: 1)
        view.cornerRadius = number(m["cornerRadius"], place.key("cornerRadius"), default: 0)
        view.masksToBounds = bool(m["masksToBounds"], place.key("masksToBounds"), default: false)
        view.borderWidth = number(m["borderWidth"], place.key("borderWidth"), default: 0)
        view.borderColor = color(m["borderColor"], place.key("borderColor")) ?? .black
        if let s = m["shadow"] { view.shadow = decodeShadow(s, place.key("shadow")) }
        if let g = m["gradient"] { view.gradient = decodeGradient(g, place.key("gradient")) }
        if let b = m["blur"] { view.blur = decodeBlur(b, place.key("blur")) }
        if let t = m["transform"] { view.transform = decodeTransform(t, place.key("transform")) }
        view.doubleSided = bool(m["doubleSided"], place.key("doubleSided"), default: true)
        view.anchorPoint = point(m["anchorPoint"], place.key("anchorPoint"), default: Point(x: 0.5, y: 0.5))
        view.zPosition = number(m["zPosition"], place.key("zPosition"), default: 0)
        view.isHidden = bool(m["isHidden"], place.key("isHidden"), default: false)
        if let written = string(m["image"], place.key("image")) { view.image = .file(written) }
        view.contentMode = choice(m["contentMode"], place.key("contentMode"), default: .scaleToFill)
        if let t = m["text"] { view.text = decodeText(t, place.key("text")) }
        if let s = m["shift"] { view.shift = decodeShift(s, place.key("shift")) }
        if let subviews = m["subviews"] {
            let subviewsPlace = place.key("subviews")
            remember(subviewsPlace, subviews)
            if case .array(let elements) = subviews.value {
                // The JSON reader's nesting limit bounds this recursion; the
                // validator reports views deeper than the scene limit.
                view.subviews = elements.enumerated().map { i, element in decodeView(element, subviewsPlace.index(i)) }
            } else {
                report(subviewsPlace, "expected an array of views, got \(subviews.value.kindName)", at: subviews)
            }
        }
        return view
    }

    mutating func decodeShadow(_ node: JSONNode, _ place: ScenePlace) -> ShadowSpec {
        var shadow = ShadowSpec()
        guard let m = members(node, place, known: SceneKeys.shadow) else { return shadow }
        shadow.color = color(m["color"], place.key("color")) ?? .black
        shadow.opacity = number(m["opacity"], place.key("opacity"), default: 0)
        shadow.radius = number(m["radius"], place.key("radius"), default: 3)
        shadow.offset = size(m["offset"], place.key("offset"), default: Size(width: 0, height: -3))
        return shadow
    }

    /// CAGradientLayer's keys; colours and locations of any count (the
    /// validator checks counts and order, so Swift-built scenes meet the same rules).
    mutating func decodeGradient(_ node: JSONNode, _ place: ScenePlace) -> GradientSpec {
        var gradient = GradientSpec(colors: [])
        guard let m = members(node, place, known: SceneKeys.gradient) else { return gradient }
        gradient.type = choice(m["type"], place.key("type"), default: .axial)
        if let list = array(m["colors"], place.key("colors"), meaning: "an array of colours") {
            gradient.colors = list.enumerated().map { i, element in color(element, place.key("colors").index(i)) ?? .clear }
        }
        if let list = array(m["locations"], place.key("locations"), meaning: "an array of numbers in 0...1") {
            gradient.locations = list.enumerated().map { i, element in number(element, place.key("locations").index(i), default: 0) }
        }
        gradient.startPoint = point(m["startPoint"], place.key("startPoint"), default: Point(x: 0.5, y: 0))
        gradient.endPoint = point(m["endPoint"], place.key("endPoint"), default: Point(x: 0.5, y: 1))
        return gradient
    }

    /// The elements of an array of any length; nil (reported) when it is anything else.
    mutating func array(_ node: JSONNode?, _ place: ScenePlace, meaning: String) -> [JSONNode]? {
        guard let node else { return nil }
        remember(place, node)
        guard case .array(let elements) = node.value else {
            report(place, "expected \(meaning), got \(node.value.kindName)", at: node)
            return nil
        }
        return elements
    }

    mutating func decodeTransform(_ node: JSONNode, _ place: ScenePlace) -> TransformSpec {
        var t = TransformSpec()
        guard let m = members(node, place, known: SceneKeys.transform) else { return t }
        t.translate = point(m["translate"], place.key("translate"), default: .zero)
        if let s = m["scale"] {
            if case .number = s.value {
                let k = number(s, place.key("scale"), default: 1)
                t.scale = Size(width: k, height: k)
            } else {
                t.scale = size(s, place.key("scale"), default: Size(width: 1, height: 1))
            }
        }
        t.rotate = number(m["rotate"], place.key("rotate"), default: 0)
        t.rotateX = number(m["rotateX"], place.key("rotateX"), default: 0)
        t.rotateY = number(m["rotateY"], place.key("rotateY"), default: 0)
        t.translateZ = number(m["translateZ"], place.key("translateZ"), default: 0)
        t.perspective = optionalNumber(m["perspective"], place.key("perspective"))
        if let node = m["matrix3D"] {
            t.matrix3D = numbers(node, place.key("matrix3D"), count: 16, meaning: "16 numbers (CATransform3D's m11 ... m44)")
            // In a file any component key beside matrix3D is refused, even at its identity value (the
            // schema can say only that much); the component is then dropped, so it is reported once.
            for key in TransformSpec.componentKeys {
                guard let written = m[key] else { continue }
                report(place.key(key), TransformSpec.besideMatrix3D(key), at: written)
            }
            t = TransformSpec(matrix3D: t.matrix3D)
        }
        return t
    }

    /// `{"style": "regular", "radius": 20}`, either key left out at its default (`{}` is the default blur).
    mutating func decodeBlur(_ node: JSONNode, _ place: ScenePlace) -> BlurSpec {
        let d = BlurSpec()
        guard let m = members(node, place, known: SceneKeys.blur) else { return d }
        return BlurSpec(
            style: choice(m["style"], place.key("style"), default: d.style),
            radius: number(m["radius"], place.key("radius"), default: d.radius))
    }

    mutating func decodeShift(_ node: JSONNode, _ place: ScenePlace) -> ShiftOptions {
        var options = ShiftOptions()
        guard let m = members(node, place, known: SceneKeys.shift) else { return options }
        options.id = string(m["id"], place.key("id"))
        options.contentAnimation = choice(m["contentAnimation"], place.key("contentAnimation"), default: .fade)
        options.contentSizing = choice(m["contentSizing"], place.key("contentSizing"), default: .stretch)
        options.superview = choice(m["superview"], place.key("superview"), default: .parent)
        options.position = choice(m["position"], place.key("position"), default: .auto)
        options.isHidden = bool(m["isHidden"], place.key("isHidden"), default: false)
        if let list = m["animations"] {
            let listPlace = place.key("animations")
            remember(listPlace, list)
            if case .array(let elements) = list.value {
                for (i, element) in elements.enumerated() {
                    let before = problems.count
                    let decoded = AnimationDecoding.decode(element, listPlace.index(i), &self)
                    // A broken entry (reported) stands in as a plain fade, so that the
                    // scene stays whole; `{"fade": false}` says nothing and is left out.
                    guard let animation = decoded ?? (problems.count > before ? AdditionalAnimation(.fade) : nil) else {
                        continue
                    }
                    locations.record(modelPlace: listPlace.index(options.animations.count), filePlace: listPlace.index(i))
                    options.animations.append(animation)
                }
            } else {
                report(listPlace, "expected an array of animations, got \(list.value.kindName)", at: list)
            }
        }
        options.timing = decodeTiming(m, place)
        return options
    }
}
