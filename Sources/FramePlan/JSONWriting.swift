public import Primitives

/// Writes frame plans as JSON (`docs/frame-plan.md`), byte for byte the same
/// for the same plan: keys in a fixed order, numbers in Swift's shortest
/// round-trip form (integers without a fraction).
public enum FramePlanJSON {
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public static func array(_ values: [Double]) -> String { "[" + values.map(number).joined(separator: ", ") + "]" }

    public static func color(_ c: RGBAColor) -> String { array([c.red, c.green, c.blue, c.alpha]) }

    public static func transform(_ t: AffineTransform2D) -> String { array([t.a, t.b, t.c, t.d, t.tx, t.ty]) }

    public static func shape(_ s: RoundedRect) -> String {
        "{\"rect\": \(array([s.rect.minX, s.rect.minY, s.rect.width, s.rect.height])), \"cornerRadius\": \(number(s.cornerRadius))}"
    }

    /// A paint's JSON is written beside its case (`Paint.json`), so a new paint is decided in one place.
    public static func paint(_ p: Paint) -> String { p.json }

    /// `, "projection": [9 numbers]` when there is one, else nothing (2-D plans keep their bytes).
    public static func projection(_ h: Homography?) -> String {
        h.map { ", \"projection\": " + array($0.values) } ?? ""
    }

    public static func item(_ item: DrawItem) -> String {
        let clips = item.clips.map {
            "{\"transform\": \(transform($0.transform)), \"shape\": \(shape($0.shape))\(projection($0.projection))}"
        }
        return "{\"label\": \(string(item.label)), \"transform\": \(transform(item.transform)), "
            + "\"shape\": \(shape(item.shape)), \"paint\": \(paint(item.paint)), "
            + "\"opacity\": \(number(item.opacity)), \"clips\": [\(clips.joined(separator: ", "))]"
            + projection(item.projection) + "}"
    }

    /// A display list as a JSON array, one item per line (indented by `indent`).
    public static func displayList(_ list: DisplayList, indent: String = "") -> String {
        guard !list.items.isEmpty else { return "[]" }
        return "[\n" + list.items.map { indent + "  " + item($0) }.joined(separator: ",\n") + "\n" + indent + "]"
    }

    public static func canvas(_ c: Canvas) -> String {
        "{\"width\": \(c.pixelWidth), \"height\": \(c.pixelHeight), \"background\": \(color(c.background)), "
            + "\"framesPerSecond\": \(number(c.framesPerSecond))}"
    }
}
