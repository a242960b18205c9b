public import SceneModel

/// A scene read from JSON: the scene, what the file got wrong that only a
/// file can (unknown keys, wrong types, unknown names), and where each place
/// stands in the text.
public struct SceneDocument: Sendable {
    public var scene: Scene
    /// The file as the caller named it, for messages.
    public var file: String
    /// Problems of the file itself, each with its line and column. Values of
    /// the wrong type were replaced by their defaults in `scene`.
    public var problems: [SceneProblem]
    public var locations: SourceLocations

    public init(scene: Scene, file: String, problems: [SceneProblem] = [], locations: SourceLocations = SourceLocations()) {
        self.scene = scene
        self.file = file
        self.problems = problems
        self.locations = locations
    }
}

/// Where each place of a scene starts in its file, and where a place of the
/// model stands in the file when the two differ (an animation entry the
/// decoder left out, like `{"fade": false}`, shifts the indices after it).
public struct SourceLocations: Sendable {
    private var byPlace: [ScenePlace: SourceLocation] = [:]
    private var filePlaceOf: [ScenePlace: ScenePlace] = [:]

    public init() {}

    mutating func record(_ place: ScenePlace, _ location: SourceLocation) {
        if byPlace[place] == nil { byPlace[place] = location }
    }

    mutating func record(modelPlace: ScenePlace, filePlace: ScenePlace) {
        if modelPlace != filePlace { filePlaceOf[modelPlace] = filePlace }
    }

    /// The place in the file of a place in the model.
    public func filePlace(of place: ScenePlace) -> ScenePlace {
        guard !filePlaceOf.isEmpty else { return place }
        var prefix = place.components.count
        while prefix > 0 {
            if let mapped = filePlaceOf[ScenePlace(Array(place.components.prefix(prefix)))] {
                return ScenePlace(mapped.components + place.components.dropFirst(prefix))
            }
            prefix -= 1
        }
        return place
    }

    /// The location of `place` (a file place), or of the nearest place within
    /// the scene containing it that the file wrote.
    public func location(of place: ScenePlace) -> SourceLocation? {
        var current: ScenePlace? = place
        while let p = current, p != .scene {
            if let found = byPlace[p] { return found }
            current = p.parent
        }
        return nil
    }

    /// A problem found on the model, with its place as the file has it and that place's location.
    public func locating(_ problem: SceneProblem) -> SceneProblem {
        var located = problem
        located.place = filePlace(of: problem.place)
        if located.location == nil { located.location = location(of: located.place) }
        return located
    }
}

/// Why a scene file could not be read at all, or what is wrong with it.
public struct SceneFileError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file cannot be read (missing, a directory, a FIFO, too large...).
        case unreadable
        /// Not JSON.
        case syntax
        /// JSON, but not a valid scene.
        case invalid
    }

    public var file: String
    public var kind: Kind
    public var problems: [SceneProblem]

    public init(file: String, kind: Kind, problems: [SceneProblem]) {
        self.file = file
        self.kind = kind
        self.problems = problems
    }

    /// One line per problem, each starting with the file name.
    public var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
