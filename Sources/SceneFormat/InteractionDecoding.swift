import SceneModel

// `transition.interaction`: what a file can get wrong in it (a gesture that is
// not a list of [time, translation] pairs, an unknown axis or rule). Order,
// ranges and finiteness are `SceneValidator`'s, so a Swift-built interaction
// meets the same rules. A gesture point that cannot be read is left out and
// reported once; the interaction stays, so the other keys are still checked.
extension SceneDecoder {
    static let ruleForms = "\"easyTransitions\", \"navigationTransitions\", \"liquid\" or {\"threshold\": p, \"velocity\": seconds}"

    mutating func decodeInteraction(_ node: JSONNode, _ place: ScenePlace) -> InteractionSpec? {
        guard let m = members(node, place, known: SceneKeys.interaction) else { return nil }
        var spec = InteractionSpec(gesture: [])
        spec.axis = choice(m["axis"], place.key("axis"), default: InteractionSpec.Axis.x)
        if let gesture = m["gesture"] {
            let gesturePlace = place.key("gesture")
            for (i, element) in (array(gesture, gesturePlace, meaning: "a list of [time, translation] points") ?? []).enumerated() {
                if let pair = numbers(element, gesturePlace.index(i), count: 2, meaning: "[time s, translation pt]") {
                    spec.gesture.append(InteractionSpec.GesturePoint(time: pair[0], translation: pair[1]))
                }
            }
        } else {
            report(place.key("gesture"), "missing: give the finger's [time s, translation pt] points, e.g. [[0, 0], [0.3, 120]]")
        }
        if let velocity = m["releaseVelocity"] { spec.releaseVelocity = number(velocity, place.key("releaseVelocity"), default: 0) }
        if let rule = m["rule"] { spec.rule = decodeRule(rule, place.key("rule")) }
        return spec
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
                report(place.key("threshold"), "missing: a threshold rule finishes when p + velocity x v / extent > threshold")
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
