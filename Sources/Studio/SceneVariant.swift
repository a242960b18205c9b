import ShiftRender

/// Which way the studio plays the scene: the `direction` and `reverse` query
/// parameters of /frame, /progress, /info.json and /export, as the command
/// line's `--direction` and `--reverse` would set them.
///
/// No direction means "as the scene file says", so that a page that never asks
/// for one follows the file's own `transition.direction` across saves.
public struct SceneVariant: Sendable, Hashable {
    public var direction: TransitionDirection?
    public var reversed: Bool

    public init(direction: TransitionDirection? = nil, reversed: Bool = false) {
        self.direction = direction
        self.reversed = reversed
    }

    /// The scene as written.
    public static let asWritten = SceneVariant()

    /// Reads `direction=present|dismiss|roundtrip` and `reverse=1|true|0|false`
    /// (absent: the scene's own); anything else is a message for a 400 answer.
    static func parse(query: [String: String]) -> Result<SceneVariant, StudioRequestError> {
        var variant = SceneVariant()
        if let text = query["direction"], !text.isEmpty {
            guard let direction = TransitionDirection(rawValue: text) else {
                let names = TransitionDirection.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(.badRequest("direction must be one of \(names) (got '\(text.prefix(40))')"))
            }
            variant.direction = direction
        }
        switch query["reverse"] {
        case nil, "", "0", "false": break
        case "1", "true": variant.reversed = true
        case let other?: return .failure(.badRequest("reverse must be 1 or 0 (got '\((other).prefix(40))')"))
        }
        return .success(variant)
    }
}
