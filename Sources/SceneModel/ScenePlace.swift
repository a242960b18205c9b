/// A place in a scene: a path of property names and list indices from the
/// top, printed as `to.subviews[2].frame` or `canvas.width`. Property names
/// are the scene format's keys, so the same place names the same thing in a
/// file and in Swift code; the empty place is the scene as a whole.
///
/// A place may also carry the `name` of each named view along it
/// (`Scene.naming(_:)`), printed after the view: `from.subviews[3] "heroImage" .subviews[0].image`.
/// Names are for people only: two places are equal when their components are.
public struct ScenePlace: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]
    /// The names of views along the place, by the number of components that
    /// reach the view (1 for a screen's root, 3 for `from.subviews[3]`).
    public var viewNames: [Int: String] = [:]

    public init(_ components: [Component] = []) { self.components = components }

    /// The scene as a whole.
    public static let scene = ScenePlace()

    /// A top-level property, e.g. `.key("canvas")`.
    public static func key(_ name: String) -> ScenePlace { ScenePlace([.key(name)]) }

    /// This place's property `name`.
    public func key(_ name: String) -> ScenePlace { appending(.key(name)) }

    /// This list's element `index`.
    public func index(_ index: Int) -> ScenePlace { appending(.index(index)) }

    private func appending(_ component: Component) -> ScenePlace {
        var place = self
        place.components.append(component)
        return place
    }

    /// The place that contains this one (the scene for a top-level key).
    public var parent: ScenePlace? {
        guard !components.isEmpty else { return nil }
        var place = ScenePlace(Array(components.dropLast()))
        place.viewNames = viewNames.filter { $0.key <= place.components.count }
        return place
    }

    public static func == (lhs: ScenePlace, rhs: ScenePlace) -> Bool { lhs.components == rhs.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public var description: String {
        var text = ""
        var afterName = false
        for (count, component) in zip(1..., components) {
            switch component {
            case .key(let name): text += text.isEmpty ? name : (afterName ? " ." : ".") + name
            case .index(let i): text += "[\(i)]"
            }
            afterName = false
            if let name = viewNames[count] {
                text += " " + Self.quoted(name)
                afterName = true
            }
        }
        return text
    }

    /// A name as a JSON string would write it, so that a quote in it cannot end it early.
    static func quoted(_ name: String) -> String {
        var text = "\""
        for character in name {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "\""
    }
}
