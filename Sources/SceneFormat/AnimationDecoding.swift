import Primitives
import SceneModel

/// Decodes one entry of `shift.animations`: either a bare name (`"fade"`) or an
/// object with exactly one animation key and an optional `"when"`.
enum AnimationDecoding {
    static let names = SceneKeys.animationNames

    static func decode(_ node: JSONNode, _ place: ScenePlace, _ d: inout SceneDecoder) -> AdditionalAnimation? {
        d.remember(place, node)
        switch node.value {
        case .string("fade"):
            return AdditionalAnimation(.fade)
        case .string(let name):
            var message = "unknown animation \"\(name)\""
            if names.contains(name) {
                message = "animation \"\(name)\" needs a value: write {\"\(name)\": ...}"
            } else if let hint = KeySuggestion.closest(to: name, among: names) {
                message += "; did you mean \"\(hint)\"?"
            }
            d.report(place, message, at: node)
            return nil
        case .object(let pairs):
            guard let m = d.members(node, place, known: SceneKeys.animation) else { return nil }
            let condition: AdditionalAnimation.Condition? = m["when"].map {
                d.choice($0, place.key("when"), default: AdditionalAnimation.Condition.onAppear)
            }
            let kinds = pairs.map(\.key).filter { $0 != "when" && names.contains($0) }
            guard kinds.count == 1, let key = kinds.first, let value = m[key] else {
                if kinds.count > 1 {
                    d.report(
                        place, "one animation per entry; found \(kinds.joined(separator: ", ")): split them into separate entries", at: node
                    )
                } else if pairs.allSatisfy({ $0.key == "when" }) {
                    d.report(place, "no animation named; expected one of: \(names.joined(separator: ", "))", at: node)
                }
                return nil
            }
            guard let change = decodeChange(key, value, place.key(key), &d) else { return nil }
            return AdditionalAnimation(change, when: condition)
        default:
            d.report(place, "expected an animation (\"fade\" or {\"move\": {...}}), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    static func decodeChange(_ key: String, _ node: JSONNode, _ place: ScenePlace, _ d: inout SceneDecoder) -> PropertyChange? {
        let before = d.problems.count
        let change: PropertyChange?
        switch key {
        case "fade":
            change = d.bool(node, place, default: true) ? .fade : nil
        case "scale": change = .scale(d.number(node, place, default: 1))
        case "move": change = decodeMove(node, place, &d)
        case "bounds":
            if case .array(let a) = node.value, a.count == 2 {
                change = .bounds(Rect(origin: .zero, size: d.size(node, place, default: .zero)))
            } else {
                change = d.rect(node, place).map { .bounds($0) }
            }
        case "alpha": change = .alpha(d.number(node, place, default: 1))
        case "opacity": change = .opacity(d.number(node, place, default: 1))
        case "cornerRadius": change = .cornerRadius(d.number(node, place, default: 0))
        case "anchorPoint": change = .anchorPoint(d.point(node, place, default: Point(x: 0.5, y: 0.5)))
        case "zPosition": change = .zPosition(d.number(node, place, default: 0))
        case "masksToBounds": change = .masksToBounds(d.bool(node, place, default: false))
        case "borderColor": change = d.color(node, place).map { .borderColor($0) }
        case "borderWidth": change = .borderWidth(d.number(node, place, default: 0))
        case "shadowColor": change = d.color(node, place).map { .shadowColor($0) }
        case "shadowOffset": change = .shadowOffset(d.size(node, place, default: .zero))
        case "shadowRadius": change = .shadowRadius(d.number(node, place, default: 0))
        case "shadowOpacity": change = .shadowOpacity(d.number(node, place, default: 0))
        case "transform": change = .transform(d.decodeTransform(node, place))
        case "backgroundColor": change = d.color(node, place).map { .backgroundColor($0) }
        case "rotate": change = .rotate(d.number(node, place, default: 0))
        default: change = nil
        }
        return d.problems.count == before ? change : nil
    }

    /// `{"up"|"down"|"left"|"right": n}` or `{"x": dx, "y": dy}`, as Shift's `move`:
    /// the view comes FROM the opposite side (right 150 means position.x - 150).
    static func decodeMove(_ node: JSONNode, _ place: ScenePlace, _ d: inout SceneDecoder) -> PropertyChange? {
        guard let m = d.members(node, place, known: SceneKeys.move) else { return nil }
        var dx = 0.0
        var dy = 0.0
        if let n = m["up"] { dy += d.number(n, place.key("up"), default: 0) }
        if let n = m["down"] { dy -= d.number(n, place.key("down"), default: 0) }
        if let n = m["left"] { dx += d.number(n, place.key("left"), default: 0) }
        if let n = m["right"] { dx -= d.number(n, place.key("right"), default: 0) }
        if let n = m["x"] { dx += d.number(n, place.key("x"), default: 0) }
        if let n = m["y"] { dy += d.number(n, place.key("y"), default: 0) }
        if m.isEmpty {
            d.report(place, "expected {\"up\"|\"down\"|\"left\"|\"right\": n} or {\"x\": dx, \"y\": dy}", at: node)
            return nil
        }
        return .move(dx: dx, dy: dy)
    }
}
