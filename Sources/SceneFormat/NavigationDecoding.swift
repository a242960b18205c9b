import Primitives
import SceneModel

// `transition.navigation` and `transition.presentation`: what a file can get
// wrong in them (unknown names, edges and directions, a navigation
// transition where an atomic one belongs, keys of two forms in one object).
// Ranges, list lengths and the contradictions a Swift-built scene can hold
// too (mirror with an explicit pop, navigation with presentation) are
// `SceneValidator`'s. A navigation whose form cannot be read is left unset;
// an atomic transition that cannot be read stands in as `identity`, so the
// list keeps its indices and one problem is reported once.
extension SceneDecoder {
    static let atomicForms =
        "atomic transitions are {\"move\": edge}, {\"offset\": [x, y]}, \"opacity\", {\"rotate\": degrees}, "
        + "{\"rotate3D\": {...}}, {\"scale\": s}, {\"zPosition\": z}, \"bringToFront\", \"sendToBack\" and \"identity\""
    static let navigationForms =
        "\"default\", \"slide\", \"zoom\", \"zoomOut\", {\"slide\" | \"fade\" | \"push\" | \"pull\" | \"cover\" | \"uncover\" | "
        + "\"zoomSlide\" | \"pageIn\" | \"pageOut\" | \"flip\" | \"cube\": ...}, {\"insertion\": ..., \"removal\": ...} or "
        + "{\"push\": {...}, \"pop\": {...}}"

    /// Every name a navigation transition goes by, strings and object keys alike.
    static var allNavigationNames: [String] {
        var names = SceneKeys.navigationNames
        for name in SceneKeys.navigationBuiltIn where !names.contains(name) { names.append(name) }
        return names
    }

    mutating func decodeNavigation(_ node: JSONNode, _ place: ScenePlace) -> NavigationSpec? {
        remember(place, node)
        switch node.value {
        case .string(let name):
            switch name {
            case "default": return .default
            case "slide": return .slide(.horizontal)
            case "zoom": return .hero(.zoom)
            case "zoomOut": return .hero(.zoomOut)
            case "fade":
                report(place, "\"fade\" needs a style: {\"fade\": \"in\" | \"out\" | \"cross\"}", at: node)
            case _ where SceneKeys.heroDirected.contains(name) || SceneKeys.depthDirected.contains(name):
                report(place, "\"\(name)\" needs a direction: {\"\(name)\": \"left\" | \"right\" | \"up\" | \"down\"}", at: node)
            case _ where SceneKeys.atomicNames.contains(name) || SceneKeys.atomic.contains(name):
                report(
                    place, "\"\(name)\" is an atomic transition, not a navigation one; compose it: {\"insertion\": ..., \"removal\": ...}",
                    at: node)
            default:
                if let hint = KeySuggestion.closest(to: name, among: Self.allNavigationNames) {
                    report(place, "unknown navigation transition \"\(name)\"; did you mean \"\(hint)\"?", at: node)
                } else {
                    report(place, "unknown navigation transition \"\(name)\"; the forms are \(Self.navigationForms)", at: node)
                }
            }
            return nil
        case .object(let pairs):
            guard !pairs.isEmpty else {
                report(place, "expected \(Self.navigationForms), got an empty object", at: node)
                return nil
            }
            guard let m = members(node, place, known: SceneKeys.navigation) else { return nil }
            let written = pairs.map(\.key).filter { m[$0] != nil }
            func isComposedPush(_ key: String) -> Bool {
                guard key == "push", case .object? = m[key]?.value else { return false }
                return true
            }
            let builtIn = written.filter { SceneKeys.navigationBuiltIn.contains($0) && !isComposedPush($0) }
            let composed = written.filter { !builtIn.contains($0) }
            let quoted = { (keys: [String]) in keys.map { "\"\($0)\"" }.joined(separator: ", ") }
            if !builtIn.isEmpty && !composed.isEmpty {
                report(
                    place,
                    "mixes a built-in transition (\(quoted(builtIn))) with composed keys (\(quoted(composed))); "
                        + "give the built-in alone or compose the transition", at: node)
                return nil
            }
            if builtIn.count > 1 {
                report(
                    place, "one built-in transition at a time: give \(quoted(Array(builtIn.dropLast()))) or \"\(builtIn.last!)\", not both",
                    at: node)
                return nil
            }
            if let key = builtIn.first, let value = m[key] { return decodeBuiltIn(key, value, place.key(key)) }
            guard !composed.isEmpty else { return nil }  // only unknown keys, reported
            return decodeComposed(m, place)
        default:
            report(place, "expected \(Self.navigationForms), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    /// An enum value, or nil (reported as `choice` reports it) when absent or unknown.
    mutating func strictChoice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ place: ScenePlace, as: T.Type) -> T?
    where T.RawValue == String {
        guard let text = string(node, place) else { return nil }
        if let found = T(rawValue: text) { return found }
        let names = T.allCases.map(\.rawValue)
        var message = "unknown value \"\(text)\"; expected one of: \(names.joined(separator: ", "))"
        if let hint = KeySuggestion.closest(to: text, among: names) { message += " (did you mean \"\(hint)\"?)" }
        report(place, message, at: node)
        return nil
    }

    mutating func decodeBuiltIn(_ key: String, _ node: JSONNode, _ place: ScenePlace) -> NavigationSpec? {
        switch key {
        case "fade":
            return strictChoice(node, place, as: NavigationSpec.FadeStyle.self).map { .fade($0) }
        case "slide":
            // seed 004's axis or Hero's direction: the value tells which.
            remember(place, node)
            guard case .string(let text) = node.value else {
                report(
                    place, "expected an axis (horizontal, vertical) or a direction (left, right, up, down), got \(node.value.kindName)",
                    at: node)
                return nil
            }
            if let axis = NavigationSpec.SlideAxis(rawValue: text) { return .slide(axis) }
            if let direction = HeroDirection(rawValue: text) { return .hero(.slide(direction)) }
            let names = NavigationSpec.SlideAxis.allCases.map(\.rawValue) + HeroDirection.allCases.map(\.rawValue)
            var message = "unknown value \"\(text)\"; expected one of: \(names.joined(separator: ", "))"
            if let hint = KeySuggestion.closest(to: text, among: names) { message += " (did you mean \"\(hint)\"?)" }
            report(place, message, at: node)
            return nil
        default:
            if key == "push", !(node.value.isString) {
                remember(place, node)
                report(
                    place,
                    "expected a direction (left, right, up, down) or {\"insertion\": ..., \"removal\": ...}, got \(node.value.kindName)",
                    at: node)
                return nil
            }
            guard let direction = strictChoice(node, place, as: HeroDirection.self) else { return nil }
            if key == "flip" { return .flip(direction) }
            if key == "cube" { return .cube(direction) }
            let hero: HeroNavigation
            switch key {
            case "push": hero = .push(direction)
            case "pull": hero = .pull(direction)
            case "cover": hero = .cover(direction)
            case "uncover": hero = .uncover(direction)
            case "zoomSlide": hero = .zoomSlide(direction)
            case "pageIn": hero = .pageIn(direction)
            default: hero = .pageOut(direction)
            }
            return .hero(hero)
        }
    }

    /// `{"insertion", "removal", "mirror"}` or `{"push", "pop"}`; keys of the two forms together are reported.
    mutating func decodeComposed(_ m: [String: JSONNode], _ place: ScenePlace) -> NavigationSpec? {
        guard m["push"] != nil || m["pop"] != nil else {
            let mirror = bool(m["mirror"], place.key("mirror"), default: false)
            let push = RootTransitions(
                insertion: decodeAtomics(m["insertion"], place.key("insertion")), removal: decodeAtomics(m["removal"], place.key("removal"))
            )
            return .composed(ComposedNavigation(push: push, mirror: mirror))
        }
        var sound = true
        for key in SceneKeys.rootTransitions {
            guard let node = m[key] else { continue }
            remember(place.key(key), node)
            report(place.key(key), "\(key) goes inside push and pop when those are given", at: node)
            sound = false
        }
        if let node = m["mirror"] {
            remember(place.key("mirror"), node)
            if m["pop"] != nil {
                report(place.key("mirror"), ComposedNavigation.mirrorWithPop, at: node)
            } else {
                report(
                    place.key("mirror"),
                    "mirror goes with insertion and removal: "
                        + "{\"insertion\": ..., \"removal\": ..., \"mirror\": true} mirrors them on a pop",
                    at: node)
            }
            sound = false
        }
        guard let pushNode = m["push"] else {
            if let pop = m["pop"] {
                remember(place.key("pop"), pop)
                report(place.key("pop"), "a pop without a push: give push too, or insertion and removal for both", at: pop)
            }
            return nil
        }
        let push = decodeRoot(pushNode, place.key("push"))
        var pop: RootTransitions?
        if let node = m["pop"] {
            pop = decodeRoot(node, place.key("pop"))
            if pop == nil { sound = false }
        }
        guard sound, let push else { return nil }
        if m["pop"] == nil, case .object(let pairs) = pushNode.value {
            // The model holds a push without a pop as the symmetric form, whose sides stand at the
            // navigation's own place: point them (and a lone atomic transition's `[0]`) back into `push`.
            for (side, node) in pairs where SceneKeys.rootTransitions.contains(side) {
                remember(modelPlace: place.key(side), filePlace: place.key("push").key(side))
                if case .array = node.value { continue }
                remember(modelPlace: place.key(side).index(0), filePlace: place.key("push").key(side))
            }
        }
        return .composed(ComposedNavigation(push: push, pop: pop))
    }

    mutating func decodeRoot(_ node: JSONNode, _ place: ScenePlace) -> RootTransitions? {
        guard let m = members(node, place, known: SceneKeys.rootTransitions) else { return nil }
        return RootTransitions(
            insertion: decodeAtomics(m["insertion"], place.key("insertion")), removal: decodeAtomics(m["removal"], place.key("removal")))
    }

    /// One atomic transition or a list of them. One alone is the model's list
    /// of one, whose place (`insertion[0]`) is the file's `insertion`.
    mutating func decodeAtomics(_ node: JSONNode?, _ place: ScenePlace) -> [AtomicTransition] {
        guard let node else { return [] }
        remember(place, node)
        guard case .array(let elements) = node.value else {
            remember(modelPlace: place.index(0), filePlace: place)
            return [decodeAtomic(node, place) ?? .identity]
        }
        return elements.enumerated().map { i, element in decodeAtomic(element, place.index(i)) ?? .identity }
    }

    mutating func decodeAtomic(_ node: JSONNode, _ place: ScenePlace) -> AtomicTransition? {
        remember(place, node)
        switch node.value {
        case .string(let name):
            switch name {
            case "opacity": return .opacity
            case "bringToFront": return .bringToFront
            case "sendToBack": return .sendToBack
            case "identity": return .identity
            case _ where SceneKeys.atomic.contains(name):
                report(place, "\"\(name)\" needs a value: \(Self.atomicExample(name))", at: node)
            case _ where Self.allNavigationNames.contains(name):
                report(place, "\"\(name)\" is a navigation transition, not an atomic one; \(Self.atomicForms)", at: node)
            default:
                if let hint = KeySuggestion.closest(to: name, among: SceneKeys.atomicNames + SceneKeys.atomic) {
                    report(place, "unknown atomic transition \"\(name)\"; did you mean \"\(hint)\"?", at: node)
                } else {
                    report(place, "unknown atomic transition \"\(name)\"; \(Self.atomicForms)", at: node)
                }
            }
            return nil
        case .object(let pairs):
            if let navigation = pairs.first(where: { Self.allNavigationNames.contains($0.key) && !SceneKeys.atomic.contains($0.key) }) {
                report(place, "{\"\(navigation.key)\": ...} is a navigation transition, not an atomic one; \(Self.atomicForms)", at: node)
                return nil
            }
            for (key, value) in pairs where SceneKeys.atomicNames.contains(key) {
                remember(place.key(key), value)
                report(place.key(key), "\"\(key)\" takes no value: write \"\(key)\" on its own", at: value)
            }
            let known = SceneKeys.atomic + SceneKeys.atomicNames
            guard let m = members(node, place, known: known) else { return nil }
            let kinds = pairs.map(\.key).filter(SceneKeys.atomic.contains)
            guard kinds.count == 1, let key = kinds.first, let value = m[key] else {
                if kinds.count > 1 {
                    report(
                        place,
                        "one atomic transition per object: give \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last!), not both; "
                            + "a list combines them: [{\"\(kinds[0])\": ...}, {\"\(kinds[1])\": ...}]", at: node)
                } else if pairs.isEmpty {
                    report(place, "expected one atomic transition, got an empty object; \(Self.atomicForms)", at: node)
                }
                return nil
            }
            return decodeAtomicValue(key, value, place.key(key))
        default:
            report(place, "expected an atomic transition, got \(node.value.kindName); \(Self.atomicForms)", at: node)
            return nil
        }
    }

    static func atomicExample(_ name: String) -> String {
        switch name {
        case "move": return "{\"move\": \"leading\" | \"trailing\" | \"top\" | \"bottom\"}"
        case "offset": return "{\"offset\": [x, y]}"
        case "rotate": return "{\"rotate\": degrees}"
        case "rotate3D": return "{\"rotate3D\": {\"angle\": degrees, \"axis\": [x, y, z], \"perspective\": 1}}"
        case "scale": return "{\"scale\": s}"
        default: return "{\"zPosition\": z}"
        }
    }

    mutating func decodeAtomicValue(_ key: String, _ node: JSONNode, _ place: ScenePlace) -> AtomicTransition? {
        switch key {
        case "move":
            return strictChoice(node, place, as: AtomicTransition.Edge.self).map { .move($0) }
        case "offset":
            guard let v = numbers(node, place, count: 2, meaning: "[x, y]") else { return nil }
            return .offset(x: v[0], y: v[1])
        case "rotate3D":
            guard let m = members(node, place, known: SceneKeys.rotate3D) else { return nil }
            // seed 004's Rotate3D(_ angle:axis:perspective: = 1) has no default angle or axis.
            if m["angle"] == nil { report(place.key("angle"), "missing: the angle in degrees", at: node) }
            if m["axis"] == nil { report(place.key("axis"), "missing: the axis [x, y, z] to turn about, e.g. [0, 1, 0]", at: node) }
            let before = problems.count
            let angle = number(m["angle"], place.key("angle"), default: 0)
            let axis = m["axis"].flatMap { numbers($0, place.key("axis"), count: 3, meaning: "[x, y, z]") }
            let perspective = number(m["perspective"], place.key("perspective"), default: 1)
            guard problems.count == before, let axis else { return nil }
            return .rotate3D(angle: angle, axis: AtomicTransition.Axis3D(x: axis[0], y: axis[1], z: axis[2]), perspective: perspective)
        default:
            guard let value = optionalNumber(node, place) else { return nil }
            switch key {
            case "rotate": return .rotate(value)
            case "scale": return .scale(value)
            default: return .zPosition(value)
            }
        }
    }

    mutating func decodePresentation(_ node: JSONNode, _ place: ScenePlace) -> PresentationSpec? {
        guard let m = members(node, place, known: SceneKeys.presentation) else { return nil }
        var spec = PresentationSpec()
        spec.style = choice(m["style"], place.key("style"), default: .overFullScreen)
        if let dimming = m["dimming"] {
            let dimmingPlace = place.key("dimming")
            remember(dimmingPlace, dimming)
            switch dimming.value {
            case .bool(let on):
                spec.dimming = on ? DimmingSpec() : nil
            case .object:
                let d = DimmingSpec()
                if let o = members(dimming, dimmingPlace, known: SceneKeys.dimming) {
                    spec.dimming = DimmingSpec(
                        color: color(o["color"], dimmingPlace.key("color")) ?? d.color,
                        opacity: number(o["opacity"], dimmingPlace.key("opacity"), default: d.opacity))
                }
            default:
                report(
                    dimmingPlace, "expected true, false or {\"color\": \"#000000\", \"opacity\": 0.5}, got \(dimming.value.kindName)",
                    at: dimming)
            }
        }
        return spec
    }
}

extension JSONValue {
    var isString: Bool {
        if case .string = self { return true }
        return false
    }
}
