import Primitives

/// Decodes one entry of `shift.animations`: either a bare name (`"fade"`) or an
/// object with exactly one animation key and an optional `"when"`.
enum AnimationDecoding {
    static let names = SceneKeys.animationNames

    static func decode(_ node: JSONNode, _ path: String, _ d: inout SceneDecoder) -> AdditionalAnimation? {
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
            d.report(path, message, at: node)
            return nil
        case .object(let pairs):
            guard let m = d.members(node, path, known: SceneKeys.animation) else { return nil }
            let condition: AdditionalAnimation.Condition? = m["when"].map {
                d.choice($0, d.join(path, "when"), default: AdditionalAnimation.Condition.onAppear)
            }
            let kinds = pairs.map(\.key).filter { $0 != "when" && names.contains($0) }
            guard kinds.count == 1, let key = kinds.first, let value = m[key] else {
                if kinds.count > 1 {
                    d.report(path, "one animation per entry; found \(kinds.joined(separator: ", ")): split them into separate entries", at: node)
                } else if pairs.allSatisfy({ $0.key == "when" }) {
                    d.report(path, "no animation named; expected one of: \(names.joined(separator: ", "))", at: node)
                }
                return nil
            }
            guard let change = decodeChange(key, value, d.join(path, key), &d) else { return nil }
            return AdditionalAnimation(change, when: condition)
        default:
            d.report(path, "expected an animation (\"fade\" or {\"move\": {...}}), got \(node.value.kindName)", at: node)
            return nil
        }
    }

    static func decodeChange(_ key: String, _ node: JSONNode, _ path: String, _ d: inout SceneDecoder) -> PropertyChange? {
        let coordinate = -SceneLimits.maximumCoordinate...SceneLimits.maximumCoordinate
        let before = d.issues.count
        let change: PropertyChange?
        switch key {
        case "fade":
            change = d.bool(node, path, default: true) ? .fade : nil
        case "scale":
            change = .scale(d.number(node, path, default: 1, in: -1000...1000))
        case "move":
            change = decodeMove(node, path, &d)
        case "bounds":
            if case .array(let a) = node.value, a.count == 2 {
                let s = d.size(node, path, default: .zero)
                change = .bounds(Rect(origin: .zero, size: s))
            } else {
                change = d.rect(node, path).map { .bounds($0) }
            }
        case "alpha": change = .alpha(d.number(node, path, default: 1, in: 0...1))
        case "opacity": change = .opacity(d.number(node, path, default: 1, in: 0...1))
        case "cornerRadius": change = .cornerRadius(d.number(node, path, default: 0, in: 0...SceneLimits.maximumCoordinate))
        case "anchorPoint": change = .anchorPoint(d.point(node, path, default: Point(x: 0.5, y: 0.5), in: -100...100))
        case "zPosition": change = .zPosition(d.number(node, path, default: 0, in: coordinate))
        case "masksToBounds": change = .masksToBounds(d.bool(node, path, default: false))
        case "borderColor": change = d.color(node, path).map { .borderColor($0) }
        case "borderWidth": change = .borderWidth(d.number(node, path, default: 0, in: 0...SceneLimits.maximumCoordinate))
        case "shadowColor": change = d.color(node, path).map { .shadowColor($0) }
        case "shadowOffset": change = .shadowOffset(d.size(node, path, default: .zero))
        case "shadowRadius": change = .shadowRadius(d.number(node, path, default: 0, in: 0...1000))
        case "shadowOpacity": change = .shadowOpacity(d.number(node, path, default: 0, in: 0...1))
        case "transform": change = .transform(d.decodeTransform(node, path))
        case "backgroundColor": change = d.color(node, path).map { .backgroundColor($0) }
        case "rotate": change = .rotate(d.number(node, path, default: 0, in: -36000...36000))
        default: change = nil
        }
        return d.issues.count == before ? change : nil
    }

    /// `{"up"|"down"|"left"|"right": n}` or `{"x": dx, "y": dy}`, as Shift's `move`:
    /// the view comes FROM the opposite side (right 150 means position.x - 150).
    static func decodeMove(_ node: JSONNode, _ path: String, _ d: inout SceneDecoder) -> PropertyChange? {
        guard let m = d.members(node, path, known: SceneKeys.move) else { return nil }
        let range = -SceneLimits.maximumCoordinate...SceneLimits.maximumCoordinate
        var dx = 0.0, dy = 0.0
        if let n = m["up"] { dy += d.number(n, d.join(path, "up"), default: 0, in: range) }
        if let n = m["down"] { dy -= d.number(n, d.join(path, "down"), default: 0, in: range) }
        if let n = m["left"] { dx += d.number(n, d.join(path, "left"), default: 0, in: range) }
        if let n = m["right"] { dx -= d.number(n, d.join(path, "right"), default: 0, in: range) }
        if let n = m["x"] { dx += d.number(n, d.join(path, "x"), default: 0, in: range) }
        if let n = m["y"] { dy += d.number(n, d.join(path, "y"), default: 0, in: range) }
        if m.isEmpty {
            d.report(path, "expected {\"up\"|\"down\"|\"left\"|\"right\": n} or {\"x\": dx, \"y\": dy}", at: node)
            return nil
        }
        return .move(dx: dx, dy: dy)
    }
}
