import Primitives
import SceneModel

// A view's `text` (UILabel) and its `font`, read with every place remembered.
// A font is a text style's name (`"headline"`), `{family, size, weight, italic}`
// or `{file, size}`: the three ways UIFont is made in code.
extension SceneDecoder {
    mutating func decodeText(_ node: JSONNode, _ place: ScenePlace) -> TextSpec {
        // A bare string is the common case: `"text": "Now Playing"`.
        if case .string(let s) = node.value {
            remember(place, node)
            return TextSpec(s)
        }
        var text = TextSpec("")
        guard let m = members(node, place, known: SceneKeys.text) else { return text }
        if let s = m["string"] {
            text.string = string(s, place.key("string")) ?? ""
        } else {
            report(place.key("string"), "missing: the text to draw")
        }
        if let f = m["font"] { text.font = decodeFont(f, place.key("font")) }
        text.color = color(m["color"], place.key("color")) ?? .black
        text.alignment = choice(m["alignment"], place.key("alignment"), default: .natural)
        text.numberOfLines = wholeNumber(m["numberOfLines"], place.key("numberOfLines"), default: 1)
        text.lineBreakMode = choice(m["lineBreakMode"], place.key("lineBreakMode"), default: .byTruncatingTail)
        text.lineHeightMultiple = number(m["lineHeightMultiple"], place.key("lineHeightMultiple"), default: 1)
        text.letterSpacing = number(m["letterSpacing"], place.key("letterSpacing"), default: 0)
        return text
    }

    mutating func decodeFont(_ node: JSONNode, _ place: ScenePlace) -> FontSpec {
        if case .string = node.value {
            return FontSpec(textStyle: choice(node, place, default: TextStyle.body))
        }
        var font = FontSpec()
        guard let m = members(node, place, known: SceneKeys.font) else { return font }
        let size = number(m["size"], place.key("size"), default: 17)
        if let file = m["file"] {
            if m["family"] != nil { report(place.key("family"), "give a family or a file, not both", at: m["family"]) }
            for key in ["weight", "italic"] where m[key] != nil {
                report(place.key(key), "a font file is one face: \(key) applies to a family only", at: m[key])
            }
            font = FontSpec(file: string(file, place.key("file")) ?? "", size: size)
        } else {
            font = FontSpec(
                family: string(m["family"], place.key("family")) ?? FontSpec.defaultFamily, size: size,
                weight: choice(m["weight"], place.key("weight"), default: .regular),
                italic: bool(m["italic"], place.key("italic"), default: false))
        }
        return font
    }

    /// A number that must be whole (a count); reported and replaced by `value` otherwise.
    mutating func wholeNumber(_ node: JSONNode?, _ place: ScenePlace, default value: Int) -> Int {
        guard let node else { return value }
        let n = number(node, place, default: Double(value))
        guard n == n.rounded(), abs(n) < 1e9 else {
            report(place, "expected a whole number, got \(n)", at: node)
            return value
        }
        return Int(n)
    }
}
