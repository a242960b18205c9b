import Primitives
import SceneModel

// The timing keys of a view's `shift` and of `transition`: what a file can
// get wrong in them (types, unknown names, a spring's keys from two
// spellings). Their ranges, and whether a spring settles, are
// `SceneValidator`'s, so that Swift-built scenes meet the same rules. A
// value reported here is left unset (or, inside a keyframe track, replaced
// by a value no rule refuses), so that one problem is reported once.
extension SceneDecoder {
    mutating func decodeTiming(_ m: [String: JSONNode], _ place: ScenePlace) -> TimingOptions {
        var timing = TimingOptions()
        timing.duration = optionalNumber(m["duration"], place.key("duration"))
        timing.delay = optionalNumber(m["delay"], place.key("delay"))
        if let node = m["curve"] { timing.curve = decodeCurve(node, place.key("curve")) }
        if let node = m["cascade"] { timing.cascade = decodeCascade(node, place.key("cascade")) }
        if let node = m["arc"] { timing.arc = decodeArc(node, place.key("arc")) }
        if let node = m["keyframes"] { timing.keyframes = decodeKeyframes(node, place.key("keyframes")) }
        return timing
    }

    /// A number, or nil when absent or not a number (reported).
    mutating func optionalNumber(_ node: JSONNode?, _ place: ScenePlace) -> Double? {
        guard let node else { return nil }
        let before = problems.count
        let value = number(node, place, default: 0)
        return problems.count == before ? value : nil
    }

    static let curveForms = "a curve name, {\"cubicBezier\": [x1, y1, x2, y2]} or {\"spring\": {...}}"

    /// Where a spring goes, for a spring written one level too high: `"spring"` beside
    /// `curve` (renaming it `curve` would not do: a curve holds the spring), or a
    /// spring's key (`dampingRatio`, or UIKit's `usingSpringWithDamping`) beside
    /// `curve` or inside it, or `"spring"` on a view. Nil for any other key, which the usual hint serves.
    static func springHint(_ key: String, known: [String]) -> String? {
        let foreign = KeySuggestion.foreignSpellings[key].flatMap { SceneKeys.spring.contains($0) ? $0 : nil }
        let springKey = SceneKeys.spring.contains(key) ? key : foreign
        if known.contains("curve") {
            if key == "spring" { return "a spring is a curve: write \"curve\": {\"spring\": {...}}" }
            if let springKey { return "a spring's key: write \"curve\": {\"spring\": {\"\(springKey)\": ...}}" }
        }
        if known.contains("shift"), key == "spring" {
            return "a spring is a view's curve: write \"shift\": {\"curve\": {\"spring\": {...}}}"
        }
        if known == SceneKeys.curveFunction, let springKey {
            return "a spring's key: write {\"spring\": {\"\(springKey)\": ...}}"
        }
        return nil
    }

    mutating func decodeCurve(_ node: JSONNode, _ place: ScenePlace) -> CurveSpec? {
        remember(place, node)
        switch node.value {
        case .string(let name):
            if let curve = NamedCurve(rawValue: name) { return .named(curve) }
            let names = NamedCurve.allCases.map(\.rawValue)
            if name == "spring" {
                report(
                    place, "unknown curve \"spring\"; a spring is written {\"spring\": {...}}, e.g. {\"spring\": {\"dampingRatio\": 0.8}}",
                    at: node)
            } else if let hint = KeySuggestion.closest(to: name, among: names) {
                report(place, "unknown curve \"\(name)\"; did you mean \"\(hint)\"?", at: node)
            } else {
                report(
                    place,
                    "unknown curve \"\(name)\"; known curves: \(names.joined(separator: ", ")); "
                        + "or {\"cubicBezier\": [...]}, {\"spring\": {...}}",
                    at: node)
            }
            return nil
        case .object(let pairs):
            guard let m = members(node, place, known: SceneKeys.curveFunction) else { return nil }
            let kinds = pairs.map(\.key).filter(SceneKeys.curveFunction.contains)
            guard kinds.count == 1 else {
                if kinds.count > 1 {
                    report(place, "one curve at a time: give cubicBezier or spring, not both", at: node)
                } else if pairs.isEmpty {
                    report(place, "expected {\"cubicBezier\": [x1, y1, x2, y2]} or {\"spring\": {...}}, got an empty object", at: node)
                }
                return nil
            }
            if let bezier = m["cubicBezier"] {
                guard let v = numbers(bezier, place.key("cubicBezier"), count: 4, meaning: "[x1, y1, x2, y2]") else { return nil }
                return .cubicBezier(v[0], v[1], v[2], v[3])
            }
            return m["spring"].flatMap { decodeSpring($0, place.key("spring")) }
        default:
            report(place, "expected \(Self.curveForms), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    /// The spelling is the one whose keys the object uses; a key missing from
    /// it takes the default of the system that spells it so.
    mutating func decodeSpring(_ node: JSONNode, _ place: ScenePlace) -> CurveSpec? {
        guard let m = members(node, place, known: SceneKeys.spring) else { return nil }
        let describe = { (spelling: (system: String, keys: [String])) in
            "\(spelling.system)'s {\(spelling.keys.joined(separator: ", "))}"
        }
        let used = SceneKeys.springSpellings.filter { spelling in spelling.keys.contains { m[$0] != nil } }
        guard used.count == 1 else {
            if used.count > 1 {
                let names = used.map(describe)
                let counted = used.count == 2 ? "two" : "\(used.count)"
                report(
                    place,
                    "mixes \(counted) spring spellings, \(names.dropLast().joined(separator: ", ")) and \(names.last!); "
                        + "use the keys of one",
                    at: node)
            } else if case .object(let pairs) = node.value, pairs.isEmpty {
                let names = SceneKeys.springSpellings.map(describe)
                report(
                    place, "an empty spring; give the keys of one spelling: \(names.dropLast().joined(separator: ", ")) or \(names.last!)",
                    at: node)
            }
            return nil
        }
        let before = problems.count
        func read(_ key: String, _ fallback: Double) -> Double { number(m[key], place.key(key), default: fallback) }
        let spec: SpringSpec
        switch used[0].keys[0] {
        case "response":
            spec = .response(response: read("response", 0.5), dampingFraction: read("dampingFraction", 0.825))
        case "duration":
            spec = .durationBounce(duration: read("duration", 0.5), bounce: read("bounce", 0))
        case "stiffness":
            spec = .physical(
                stiffness: read("stiffness", 100), damping: read("damping", 10), mass: read("mass", 1),
                initialVelocity: read("initialVelocity", 0))
        default:
            spec = .dampingRatio(read("dampingRatio", 1))
        }
        return problems.count == before ? .spring(spec) : nil
    }

    mutating func decodeCascade(_ node: JSONNode, _ place: ScenePlace) -> CascadeSpec? {
        remember(place, node)
        switch node.value {
        case .bool(let on):
            return on ? CascadeSpec() : nil
        case .object:
            let d = CascadeSpec()
            guard let m = members(node, place, known: SceneKeys.cascade) else { return nil }
            return CascadeSpec(
                delta: number(m["delta"], place.key("delta"), default: d.delta),
                direction: choice(m["direction"], place.key("direction"), default: d.direction),
                delayMatchedViews: bool(m["delayMatchedViews"], place.key("delayMatchedViews"), default: d.delayMatchedViews))
        default:
            report(
                place,
                "expected true, false or {\"delta\": 0.02, \"direction\": \"topToBottom\", \"delayMatchedViews\": false}, "
                    + "got \(node.value.kindName)", at: node)
            return nil
        }
    }

    mutating func decodeArc(_ node: JSONNode, _ place: ScenePlace) -> Double? {
        remember(place, node)
        switch node.value {
        case .bool(let on): return on ? 1 : nil
        case .number(let intensity): return intensity
        default:
            report(place, "expected true, false or an intensity in 0...1, got \(node.value.kindName)", at: node)
            return nil
        }
    }

    /// Tracks in the order the file writes them, each an array of
    /// `[stop, value]` pairs whose value takes its property's form.
    mutating func decodeKeyframes(_ node: JSONNode, _ place: ScenePlace) -> [KeyframeTrack] {
        guard let m = members(node, place, known: SceneKeys.keyframes), case .object(let pairs) = node.value else { return [] }
        var tracks: [KeyframeTrack] = []
        for (key, _) in pairs {
            guard let property = KeyframeProperty(rawValue: key), let list = m[key] else { continue }
            let trackPlace = place.key(key)
            guard let elements = array(list, trackPlace, meaning: "an array of [stop, value] pairs") else { continue }
            var stops: [KeyframeStop] = []
            for (i, element) in elements.enumerated() {
                stops.append(decodeStop(element, trackPlace.index(i), property, after: stops.last?.at ?? 0))
            }
            tracks.append(KeyframeTrack(property, stops))
        }
        return tracks
    }

    /// A stop that cannot be read stands in at the previous stop's place with
    /// a neutral value, so the track keeps its indices and no rule reports it again.
    mutating func decodeStop(_ node: JSONNode, _ place: ScenePlace, _ property: KeyframeProperty, after previous: Double) -> KeyframeStop {
        let neutral: KeyframeValue
        switch property.kind {
        case .number: neutral = .number(0)
        case .pair: neutral = property == .scale ? .pair(1, 1) : .pair(0, 0)
        case .color: neutral = .color(.clear)
        }
        guard let pair = array(node, place, meaning: "[stop, value]") else { return KeyframeStop(at: previous, neutral) }
        guard pair.count == 2 else {
            report(place, "expected [stop, value], got \(pair.count) element\(pair.count == 1 ? "" : "s")", at: node)
            return KeyframeStop(at: previous, neutral)
        }
        let at = number(pair[0], place.index(0), default: previous)
        let valuePlace = place.index(1)
        let value = pair[1]
        switch property.kind {
        case .number:
            return KeyframeStop(at: at, .number(number(value, valuePlace, default: 0)))
        case .color:
            return KeyframeStop(at: at, color(value, valuePlace).map { .color($0) } ?? neutral)
        case .pair:
            if property == .scale, case .number(let k) = value.value {
                remember(valuePlace, value)
                return KeyframeStop(at: at, .pair(k, k))
            }
            let meaning: String
            switch property {
            case .scale: meaning = "a factor or [sx, sy]"
            case .size: meaning = "[width, height]"
            case .shadowOffset: meaning = "[dx, dy]"
            default: meaning = "[x, y]"
            }
            guard let v = numbers(value, valuePlace, count: 2, meaning: meaning) else { return KeyframeStop(at: at, neutral) }
            return KeyframeStop(at: at, .pair(v[0], v[1]))
        }
    }
}
