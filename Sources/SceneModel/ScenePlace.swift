/// A place in a scene: a path of property names and list indices from the
/// top, printed as `to.subviews[2].frame` or `canvas.width`. Property names
/// are the scene format's keys, so the same place names the same thing in a
/// file and in Swift code; the empty place is the scene as a whole.
public struct ScenePlace: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// The scene as a whole.
    public static let scene = ScenePlace()

    /// A top-level property, e.g. `.key("canvas")`.
    public static func key(_ name: String) -> ScenePlace { ScenePlace([.key(name)]) }

    /// This place's property `name`.
    public func key(_ name: String) -> ScenePlace { ScenePlace(components + [.key(name)]) }

    /// This list's element `index`.
    public func index(_ index: Int) -> ScenePlace { ScenePlace(components + [.index(index)]) }

    /// The place that contains this one (the scene for a top-level key).
    public var parent: ScenePlace? {
        components.isEmpty ? nil : ScenePlace(Array(components.dropLast()))
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let name): text += text.isEmpty ? name : "." + name
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }
}
