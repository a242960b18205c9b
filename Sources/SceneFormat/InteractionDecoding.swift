import SceneModel

// `transition.interaction`: what a file can get wrong in it (a gesture that is
// not a list of [time, translation] pairs, an unknown axis or rule). Order,
// ranges and finiteness are `SceneValidator`'s, so a Swift-built interaction
// meets the same rules. A gesture point that cannot be read is reported once
// and stands in as NaN: the points after it keep their places, and the rules
// skip what the file already reported. The interaction stays, so the other
// keys are still checked.
extension SceneDecoder {
    static let ruleForms = "\"easyTransitions\", \"navigationTransitions\", \"liquid\" or {\"threshold\": p, \"velocity\": seconds}"

    mutating func decodeInteraction(_ node: JSONNode, _ place: ScenePlace) -> InteractionSpec? {
        guard let m = members(node, place, known: SceneKeys.interaction) else { return nil }
        var spec = InteractionSpec(gesture: [])
        spec.axis = choice(m["axis"], place.key("axis"), default: InteractionSpec.Axis.x)
        if let gesture = m["gesture"] {
            let gesturePlace = place.key("gesture")
            for (i, element) in (array(gesture, gesturePlace, meaning: "a list of [time, translation] points") ?? []).enumerated() {
                spec.gesture.append(decodeGesturePoint(element, gesturePlace.index(i)))
            }
        } else {
            report(
                place.key("gesture"), "missing: give the finger's [time s, translation pt] points, e.g. [[0, 0], [0.3, 120]]", at: node)
        }
        if let velocity = m["releaseVelocity"] { spec.releaseVelocity = number(velocity, place.key("releaseVelocity"), default: 0) }
        if let rule = m["rule"] { spec.rule = decodeRule(rule, place.key("rule")) }
        return spec
    }

    /// `[time, translation]`; what cannot be read is NaN (reported here, at or under `place`).
    mutating func decodeGesturePoint(_ node: JSONNode, _ place: ScenePlace) -> InteractionSpec.GesturePoint {
        let unread = InteractionSpec.GesturePoint(time: .nan, translation: .nan)
        let meaning = "[time s, translation pt]"
        guard let elements = array(node, place, meaning: meaning) else { return unread }
        guard elements.count == 2 else {
            report(place, "expected \(meaning), got \(elements.count) number\(elements.count == 1 ? "" : "s")", at: node)
            return unread
        }
        return InteractionSpec.GesturePoint(
            time: number(elements[0], place.index(0), default: .nan), translation: number(elements[1], place.index(1), default: .nan))
    }

    mutating func decodeRule(_ node: JSONNode, _ place: ScenePlace) -> InteractionRule {
        remember(place, node)
        switch node.value {
        case .string(let name):
            if let rule = InteractionRule(name: name) { return rule }
            var message = "unknown rule \"\(name)\"; the rules are \(Self.ruleForms)"
            if let hint = KeySuggestion.closest(to: name, among: InteractionRule.names + ["threshold"]) {
                message = "unknown rule \"\(name)\"; did you mean \"\(hint)\"? The rules are \(Self.ruleForms)"
            }
            report(place, message, at: node)
        case .object:
            guard let m = members(node, place, known: SceneKeys.thresholdRule) else { break }
            guard let threshold = m["threshold"] else {
                report(
                    place.key("threshold"), "missing: a threshold rule finishes when p + velocity x v / extent > threshold", at: node)
                break
            }
            return .threshold(
                number(threshold, place.key("threshold"), default: 0.5),
                velocity: number(m["velocity"], place.key("velocity"), default: 1))
        default:
            report(place, "expected \(Self.ruleForms), got \(node.value.kindName)", at: node)
        }
        return .easyTransitions
    }
}
