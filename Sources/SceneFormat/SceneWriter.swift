import Primitives
import SceneModel

extension SceneJSON {
    /// Why a scene cannot be written as JSON.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var place: ScenePlace
        public var reason: String
        public var description: String { "\(place): \(reason)" }
    }

    /// The scene as JSON text that reads back equal (`decode`): keys in the
    /// documented order, values left out where they are the default, numbers
    /// in their shortest exact form, colours as `#RRGGBB(AA)` when that is
    /// exact and as `[r, g, b, a]` otherwise, moves as Shift spells them.
    /// Images must be files (`ImageSource.file`): images held in memory have
    /// no JSON spelling (`Scene.writeJSON(toFileAt:)` in ShiftRender writes them out as files first).
    /// Numbers must be finite: JSON has no NaN or infinity, and text that
    /// does not read back is worse than an error naming the place.
    public static func encode(_ scene: Scene) throws(WriteError) -> [UInt8] {
        var writer = SceneWriter()
        let value = try writer.scene(scene)
        if let (place, number) = value.firstNonFiniteNumber(at: .scene) {
            throw WriteError(place: place, reason: "\(number) cannot be written: JSON has no NaN or infinity")
        }
        return Array((JSONOutput.render(value) + "\n").utf8)
    }
}

/// A JSON value to print; objects keep their key order.
indirect enum JSONOutput {
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case number(Double)
    case string(String)
    case bool(Bool)

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Pretty-printed with two-space indents; an object or array that fits on
    /// one short line and holds no views stays on one line.
    static func render(_ value: JSONOutput, indent: String = "") -> String {
        let flat = renderFlat(value)
        if flat.count + indent.count <= 100 && !value.holdsViews { return flat }
        let inner = indent + "  "
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{\n" + members.map { inner + quoted($0.0) + ": " + render($0.1, indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "}"
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + render($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return flat
        }
    }

    static func renderFlat(_ value: JSONOutput) -> String {
        switch value {
        case .object(let members): return "{" + members.map { quoted($0.0) + ": " + renderFlat($0.1) }.joined(separator: ", ") + "}"
        case .array(let elements): return "[" + elements.map(renderFlat).joined(separator: ", ") + "]"
        case .number(let n): return number(n)
        case .string(let s): return quoted(s)
        case .bool(let b): return b ? "true" : "false"
        }
    }

    /// The first number JSON cannot hold, and its place (keys are the scene's, so it names a `ScenePlace`).
    func firstNonFiniteNumber(at place: ScenePlace) -> (ScenePlace, Double)? {
        switch self {
        case .number(let n):
            return n.isFinite ? nil : (place, n)
        case .object(let members):
            for (key, member) in members {
                if let found = member.firstNonFiniteNumber(at: place.key(key)) { return found }
            }
            return nil
        case .array(let elements):
            for (i, element) in elements.enumerated() {
                if let found = element.firstNonFiniteNumber(at: place.index(i)) { return found }
            }
            return nil
        case .string, .bool:
            return nil
        }
    }

    /// Views (objects with subviews) always get a line per key, so a scene reads as a tree.
    private var holdsViews: Bool {
        if case .object(let members) = self { return members.contains { $0.0 == "subviews" } }
        return false
    }
}

/// Model -> `JSONOutput`, the inverse of `SceneDecoder` for every value it can produce.
private struct SceneWriter {
    func numbers(_ values: Double...) -> JSONOutput { .array(values.map { .number($0) }) }

    func color(_ c: RGBAColor) -> JSONOutput {
        guard c.isExactInHex else { return numbers(c.red, c.green, c.blue, c.alpha) }
        let hex = c.hexString
        return .string(c.alpha == 1 ? String(hex.prefix(7)) : hex)
    }

    mutating func scene(_ scene: Scene) throws(SceneJSON.WriteError) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("version", .number(Double(scene.version)))]
        let c = scene.canvas
        var canvas: [(String, JSONOutput)] = [("width", .number(c.width)), ("height", .number(c.height))]
        if c.scale != 1 { canvas.append(("scale", .number(c.scale))) }
        if c.background != .black { canvas.append(("background", color(c.background))) }
        members.append(("canvas", .object(canvas)))
        if scene.fps != 60 { members.append(("fps", .number(scene.fps))) }
        let t = try transition(scene.transition)
        if !t.isEmpty { members.append(("transition", .object(t))) }
        members.append(("from", try view(scene.from, ViewAddress(screen: .from).place)))
        members.append(("to", try view(scene.to, ViewAddress(screen: .to).place)))
        return .object(members)
    }

    func transition(_ t: TransitionSpec) throws(SceneJSON.WriteError) -> [(String, JSONOutput)] {
        let d = TransitionSpec()
        var members: [(String, JSONOutput)] = []
        if t.direction != d.direction { members.append(("direction", .string(t.direction.rawValue))) }
        if t.baselineDuration != d.baselineDuration { members.append(("baselineDuration", .number(t.baselineDuration))) }
        if t.viewOrder != d.viewOrder { members.append(("viewOrder", .string(t.viewOrder.rawValue))) }
        switch t.defaultAnimation {
        case .fade: break
        case .none: members.append(("defaultAnimation", .string("none")))
        case .scale(let k):
            let scale: JSONOutput = k == 1.7 ? .string("down") : k == 0.7 ? .string("up") : .number(k)
            members.append(("defaultAnimation", .object([("scale", scale)])))
        }
        var hold: [(String, JSONOutput)] = []
        if t.holdBefore != d.holdBefore { hold.append(("before", .number(t.holdBefore))) }
        if t.holdAfter != d.holdAfter { hold.append(("after", .number(t.holdAfter))) }
        if !hold.isEmpty { members.append(("hold", .object(hold))) }
        if t.roundtripPause != d.roundtripPause { members.append(("roundtripPause", .number(t.roundtripPause))) }
        members += try timing(t.timing, .key("transition"))
        if let n = t.navigation { members.append(("navigation", navigation(n))) }
        if let p = t.presentation { members.append(("presentation", presentation(p))) }
        if let i = t.interaction { members.append(("interaction", interaction(i))) }
        return members
    }

    /// The axis, rule and a threshold's velocity weight are written only when not the defaults (x, easyTransitions, 1).
    func interaction(_ i: InteractionSpec) -> JSONOutput {
        var m: [(String, JSONOutput)] = []
        if i.axis != .x { m.append(("axis", .string(i.axis.rawValue))) }
        m.append(("gesture", .array(i.gesture.map { numbers($0.time, $0.translation) })))
        if let v = i.releaseVelocity { m.append(("releaseVelocity", .number(v))) }
        switch i.rule {
        case .easyTransitions: break
        case .navigationTransitions, .liquid: m.append(("rule", .string(i.rule.name)))
        case .threshold(let threshold, let weight):
            var rule: [(String, JSONOutput)] = [("threshold", .number(threshold))]
            if weight != 1 { rule.append(("velocity", .number(weight))) }
            m.append(("rule", .object(rule)))
        }
        return .object(m)
    }

    /// Bare strings where a name says it all (seed 004's `.slide` is `"slide"`); a composition without
    /// a pop as `{"insertion", "removal", "mirror"}`, with one as `{"push", "pop"}`.
    func navigation(_ n: NavigationSpec) -> JSONOutput {
        switch n {
        case .default: return .string("default")
        case .slide(.horizontal): return .string("slide")
        case .slide(let axis): return .object([("slide", .string(axis.rawValue))])
        case .fade(let style): return .object([("fade", .string(style.rawValue))])
        case .hero(let hero):
            switch hero {
            case .zoom, .zoomOut: return .string(hero.name)
            case .push(let d), .pull(let d), .cover(let d), .uncover(let d), .slide(let d), .zoomSlide(let d), .pageIn(let d),
                .pageOut(let d):
                return .object([(hero.name, .string(d.rawValue))])
            }
        case .composed(let c):
            guard let pop = c.pop else {
                var m = rootTransitions(c.push)
                // Mirror written even when false if nothing else is, so that the object says what it is.
                if c.mirror || m.isEmpty { m.append(("mirror", .bool(c.mirror))) }
                return .object(m)
            }
            var m: [(String, JSONOutput)] = [("push", .object(rootTransitions(c.push))), ("pop", .object(rootTransitions(pop)))]
            // A contradiction the validator reports; written so that it reads back as it was.
            if c.mirror { m.append(("mirror", .bool(true))) }
            return .object(m)
        case .flip(let d): return .object([("flip", .string(d.rawValue))])
        case .cube(let d): return .object([("cube", .string(d.rawValue))])
        }
    }

    /// A side left out is identity; one atomic transition is written alone, more as a list.
    func rootTransitions(_ r: RootTransitions) -> [(String, JSONOutput)] {
        var m: [(String, JSONOutput)] = []
        for (side, list) in [("insertion", r.insertion), ("removal", r.removal)] where !list.isEmpty {
            m.append((side, list.count == 1 ? atomic(list[0]) : .array(list.map(atomic))))
        }
        return m
    }

    func atomic(_ a: AtomicTransition) -> JSONOutput {
        switch a {
        case .opacity, .bringToFront, .sendToBack, .identity: return .string(a.name)
        case .move(let edge): return .object([("move", .string(edge.rawValue))])
        case .offset(let x, let y): return .object([("offset", numbers(x, y))])
        case .rotate(let v), .scale(let v), .zPosition(let v): return .object([(a.name, .number(v))])
        case .rotate3D(let angle, let axis, let perspective):
            var m: [(String, JSONOutput)] = [("angle", .number(angle)), ("axis", numbers(axis.x, axis.y, axis.z))]
            if perspective != 1 { m.append(("perspective", .number(perspective))) }
            return .object([("rotate3D", .object(m))])
        }
    }

    /// Dimming with EasyTransitions' black at 0.5 is written `true`.
    func presentation(_ p: PresentationSpec) -> JSONOutput {
        var m: [(String, JSONOutput)] = []
        if p.style != .overFullScreen { m.append(("style", .string(p.style.rawValue))) }
        if let dimming = p.dimming {
            let d = DimmingSpec()
            var o: [(String, JSONOutput)] = []
            if dimming.color != d.color { o.append(("color", color(dimming.color))) }
            if dimming.opacity != d.opacity { o.append(("opacity", .number(dimming.opacity))) }
            m.append(("dimming", o.isEmpty ? .bool(true) : .object(o)))
        }
        return .object(m)
    }

    func view(_ v: View, _ place: ScenePlace) throws(SceneJSON.WriteError) -> JSONOutput {
        let d = View()
        var m: [(String, JSONOutput)] = []
        if let name = v.name { m.append(("name", .string(name))) }
        if let f = v.frame { m.append(("frame", numbers(f.minX, f.minY, f.width, f.height))) }
        if let b = v.backgroundColor { m.append(("backgroundColor", color(b))) }
        if v.alpha != d.alpha { m.append(("alpha", .number(v.alpha))) }
        if v.cornerRadius != d.cornerRadius { m.append(("cornerRadius", .number(v.cornerRadius))) }
        if v.masksToBounds != d.masksToBounds { m.append(("masksToBounds", .bool(v.masksToBounds))) }
        if v.borderWidth != d.borderWidth { m.append(("borderWidth", .number(v.borderWidth))) }
        if v.borderColor != d.borderColor { m.append(("borderColor", color(v.borderColor))) }
        if let s = v.shadow { m.append(("shadow", .object(shadow(s)))) }
        if let g = v.gradient { m.append(("gradient", .object(gradient(g)))) }
        if let b = v.blur { m.append(("blur", .object(blur(b)))) }
        if v.transform != d.transform { m.append(("transform", .object(transform(v.transform)))) }
        if v.doubleSided != d.doubleSided { m.append(("doubleSided", .bool(v.doubleSided))) }
        if v.anchorPoint != d.anchorPoint { m.append(("anchorPoint", numbers(v.anchorPoint.x, v.anchorPoint.y))) }
        if v.zPosition != d.zPosition { m.append(("zPosition", .number(v.zPosition))) }
        if v.isHidden != d.isHidden { m.append(("isHidden", .bool(v.isHidden))) }
        if let image = v.image {
            guard case .file(let path) = image else {
                throw SceneJSON.WriteError(
                    place: place.key("image"),
                    reason: "\(image.description) is held in memory; JSON can only name image files")
            }
            m.append(("image", .string(path)))
        }
        if v.contentMode != d.contentMode { m.append(("contentMode", .string(v.contentMode.rawValue))) }
        if let t = v.text { m.append(("text", text(t))) }
        let s = try shift(v.shift, place.key("shift"))
        if !s.isEmpty { m.append(("shift", .object(s))) }
        if !v.subviews.isEmpty {
            var subviews: [JSONOutput] = []
            for (i, subview) in v.subviews.enumerated() {
                subviews.append(try view(subview, place.key("subviews").index(i)))
            }
            m.append(("subviews", .array(subviews)))
        }
        return .object(m)
    }

    /// A bare string when only the string differs from UILabel's defaults.
    func text(_ t: TextSpec) -> JSONOutput {
        let d = TextSpec(t.string)
        guard t != d else { return .string(t.string) }
        var m: [(String, JSONOutput)] = [("string", .string(t.string))]
        if t.font != d.font { m.append(("font", font(t.font))) }
        if t.color != d.color { m.append(("color", color(t.color))) }
        if t.alignment != d.alignment { m.append(("alignment", .string(t.alignment.rawValue))) }
        if t.numberOfLines != d.numberOfLines { m.append(("numberOfLines", .number(Double(t.numberOfLines)))) }
        if t.lineBreakMode != d.lineBreakMode { m.append(("lineBreakMode", .string(t.lineBreakMode.rawValue))) }
        if t.lineHeightMultiple != d.lineHeightMultiple { m.append(("lineHeightMultiple", .number(t.lineHeightMultiple))) }
        if t.letterSpacing != d.letterSpacing { m.append(("letterSpacing", .number(t.letterSpacing))) }
        return .object(m)
    }

    /// A text style's name when the font is one as made; otherwise the object.
    func font(_ f: FontSpec) -> JSONOutput {
        if let style = f.textStyle, f == FontSpec(textStyle: style) { return .string(style.rawValue) }
        let d = FontSpec()
        switch f.face {
        case .file(let path):
            return .object([("file", .string(path)), ("size", .number(f.size))])
        case .family(let family):
            var m: [(String, JSONOutput)] = []
            if family != FontSpec.defaultFamily { m.append(("family", .string(family))) }
            m.append(("size", .number(f.size)))
            if f.weight != d.weight { m.append(("weight", .string(f.weight.rawValue))) }
            if f.italic { m.append(("italic", .bool(true))) }
            return .object(m)
        }
    }

    func shadow(_ s: ShadowSpec) -> [(String, JSONOutput)] {
        let d = ShadowSpec()
        var m: [(String, JSONOutput)] = []
        if s.color != d.color { m.append(("color", color(s.color))) }
        if s.opacity != d.opacity { m.append(("opacity", .number(s.opacity))) }
        if s.radius != d.radius { m.append(("radius", .number(s.radius))) }
        if s.offset != d.offset { m.append(("offset", numbers(s.offset.width, s.offset.height))) }
        return m
    }

    /// Colours always (a gradient needs them); the rest where not CAGradientLayer's default.
    func gradient(_ g: GradientSpec) -> [(String, JSONOutput)] {
        let d = GradientSpec(colors: [])
        var m: [(String, JSONOutput)] = []
        if g.type != d.type { m.append(("type", .string(g.type.rawValue))) }
        m.append(("colors", .array(g.colors.map(color))))
        if let l = g.locations { m.append(("locations", .array(l.map { .number($0) }))) }
        if g.startPoint != d.startPoint { m.append(("startPoint", numbers(g.startPoint.x, g.startPoint.y))) }
        if g.endPoint != d.endPoint { m.append(("endPoint", numbers(g.endPoint.x, g.endPoint.y))) }
        return m
    }

    func transform(_ t: TransformSpec) -> [(String, JSONOutput)] {
        var m: [(String, JSONOutput)] = []
        if t.translate != .zero { m.append(("translate", numbers(t.translate.x, t.translate.y))) }
        if t.scale != Size(width: 1, height: 1) {
            m.append(("scale", t.scale.width == t.scale.height ? .number(t.scale.width) : numbers(t.scale.width, t.scale.height)))
        }
        if t.rotate != 0 { m.append(("rotate", .number(t.rotate))) }
        if t.rotateX != 0 { m.append(("rotateX", .number(t.rotateX))) }
        if t.rotateY != 0 { m.append(("rotateY", .number(t.rotateY))) }
        if t.translateZ != 0 { m.append(("translateZ", .number(t.translateZ))) }
        if let p = t.perspective { m.append(("perspective", .number(p))) }
        // Any count: one other than 16 (possible only in Swift) reads back as an error at its place.
        if let values = t.matrix3D { m.append(("matrix3D", .array(values.map { .number($0) }))) }
        return m
    }

    /// `{}` for the default blur, so that the key still says there is one.
    func blur(_ b: BlurSpec) -> [(String, JSONOutput)] {
        let d = BlurSpec()
        var m: [(String, JSONOutput)] = []
        if b.style != d.style { m.append(("style", .string(b.style.rawValue))) }
        if b.radius != d.radius { m.append(("radius", .number(b.radius))) }
        return m
    }

    func shift(_ s: ShiftOptions, _ place: ScenePlace) throws(SceneJSON.WriteError) -> [(String, JSONOutput)] {
        let d = ShiftOptions()
        var m: [(String, JSONOutput)] = []
        if let id = s.id { m.append(("id", .string(id))) }
        if s.contentAnimation != d.contentAnimation { m.append(("contentAnimation", .string(s.contentAnimation.rawValue))) }
        if s.contentSizing != d.contentSizing { m.append(("contentSizing", .string(s.contentSizing.rawValue))) }
        if s.superview != d.superview { m.append(("superview", .string(s.superview.rawValue))) }
        if s.position != d.position { m.append(("position", .string(s.position.rawValue))) }
        if s.isHidden != d.isHidden { m.append(("isHidden", .bool(s.isHidden))) }
        if !s.animations.isEmpty { m.append(("animations", .array(s.animations.map(animation)))) }
        m += try timing(s.timing, place)
        return m
    }

    /// Only the keys set. Arc 1 is written `true`, as Hero's `arc()` says it;
    /// a cascade always as an object with all three keys, so it reads at a glance.
    func timing(_ t: TimingOptions, _ place: ScenePlace) throws(SceneJSON.WriteError) -> [(String, JSONOutput)] {
        var m: [(String, JSONOutput)] = []
        if let duration = t.duration { m.append(("duration", .number(duration))) }
        if let delay = t.delay { m.append(("delay", .number(delay))) }
        if let c = t.curve { m.append(("curve", curve(c))) }
        if let c = t.cascade {
            m.append(
                (
                    "cascade",
                    .object([
                        ("delta", .number(c.delta)), ("direction", .string(c.direction.rawValue)),
                        ("delayMatchedViews", .bool(c.delayMatchedViews)),
                    ])
                ))
        }
        if let arc = t.arc { m.append(("arc", arc == 1 ? .bool(true) : .number(arc))) }
        if !t.keyframes.isEmpty { m.append(("keyframes", try keyframes(t.keyframes, place.key("keyframes")))) }
        return m
    }

    /// Every key of the spring's spelling, defaults included, so the spelling shows.
    func curve(_ c: CurveSpec) -> JSONOutput {
        switch c {
        case .named(let name): return .string(name.rawValue)
        case .cubicBezier(let b): return .object([("cubicBezier", numbers(b.x1, b.y1, b.x2, b.y2))])
        case .spring(let spec):
            let keys: [(String, JSONOutput)]
            switch spec {
            case .response(let r, let f): keys = [("response", .number(r)), ("dampingFraction", .number(f))]
            case .durationBounce(let d, let b): keys = [("duration", .number(d)), ("bounce", .number(b))]
            case .physical(let k, let c, let m, let v):
                keys = [("stiffness", .number(k)), ("damping", .number(c)), ("mass", .number(m)), ("initialVelocity", .number(v))]
            case .dampingRatio(let z): keys = [("dampingRatio", .number(z))]
            }
            return .object([("spring", .object(keys))])
        }
    }

    /// JSON names each property once and gives each its form, so a track
    /// twice or a value of another kind (possible only in Swift) has no spelling.
    func keyframes(_ tracks: [KeyframeTrack], _ place: ScenePlace) throws(SceneJSON.WriteError) -> JSONOutput {
        var m: [(String, JSONOutput)] = []
        for track in tracks {
            let name = track.property.rawValue
            guard !m.contains(where: { $0.0 == name }) else {
                throw SceneJSON.WriteError(place: place.key(name), reason: "\(name) has keyframes twice; JSON names each property once")
            }
            var stops: [JSONOutput] = []
            for (i, stop) in track.stopsAsPlayed.enumerated() {
                let value: JSONOutput
                switch (track.property.kind, stop.value) {
                case (.number, .number(let v)): value = .number(v)
                case (.color, .color(let c)): value = color(c)
                case (.pair, .pair(let x, let y)): value = track.property == .scale && x == y ? .number(x) : numbers(x, y)
                case (.pair, .number(let k)) where track.property == .scale: value = .number(k)
                default:
                    let kinds: [KeyframeProperty.Kind: String] = [.number: "a number", .pair: "a pair", .color: "a colour"]
                    let given: KeyframeProperty.Kind
                    switch stop.value {
                    case .number: given = .number
                    case .pair: given = .pair
                    case .color: given = .color
                    }
                    throw SceneJSON.WriteError(
                        place: place.key(name).index(i).index(1),
                        reason: "\(name) keyframes take \(kinds[track.property.kind]!), not \(kinds[given]!); JSON has no spelling for it")
                }
                stops.append(.array([.number(stop.at), value]))
            }
            m.append((name, .array(stops)))
        }
        return .object(m)
    }

    func animation(_ a: AdditionalAnimation) -> JSONOutput {
        if case .fade = a.change, a.condition == nil { return .string("fade") }
        var m: [(String, JSONOutput)] = [(a.change.name, change(a.change))]
        if let when = a.condition { m.append(("when", .string(when.rawValue))) }
        return .object(m)
    }

    func change(_ change: PropertyChange) -> JSONOutput {
        switch change {
        case .fade: return .bool(true)
        case .move(let dx, let dy): return move(dx: dx, dy: dy)
        case .bounds(let r):
            return r.origin == .zero ? numbers(r.width, r.height) : numbers(r.minX, r.minY, r.width, r.height)
        case .scale(let v), .alpha(let v), .opacity(let v), .cornerRadius(let v), .zPosition(let v), .borderWidth(let v),
            .shadowRadius(let v), .shadowOpacity(let v), .rotate(let v):
            return .number(v)
        case .anchorPoint(let p): return numbers(p.x, p.y)
        case .masksToBounds(let b): return .bool(b)
        case .borderColor(let c), .shadowColor(let c), .backgroundColor(let c): return color(c)
        case .shadowOffset(let s): return numbers(s.width, s.height)
        case .transform(let t): return .object(transform(t))
        }
    }

    /// Shift's spelling where one direction says it: `up` adds to y, `left` to x.
    func move(dx: Double, dy: Double) -> JSONOutput {
        switch (dx, dy) {
        case (0, let y) where y > 0: return .object([("up", .number(y))])
        case (0, let y) where y < 0: return .object([("down", .number(-y))])
        case (let x, 0) where x > 0: return .object([("left", .number(x))])
        case (let x, 0) where x < 0: return .object([("right", .number(-x))])
        default: return .object([("x", .number(dx)), ("y", .number(dy))])
        }
    }
}
