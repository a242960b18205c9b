import SceneFormat
import SceneModel

/// Everything `validate` says about a scene: its problems, errors and
/// warnings, each with its place (and, for a file, its line and column): for
/// a file in the order of the text, otherwise the file's own problems, then
/// the rules for values, then the images.
public struct SceneDiagnostics: Sendable, CustomStringConvertible {
    /// The scene file, when the scene came from one; messages start with it.
    public var file: String?
    public var problems: [SceneProblem]

    public init(file: String? = nil, problems: [SceneProblem] = []) {
        self.file = file
        self.problems = problems
    }

    public var errors: [SceneProblem] { problems.filter { $0.severity == .error } }
    public var warnings: [SceneProblem] { problems.filter { $0.severity == .warning } }
    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// One line per problem: `file: place: message (line L, column C)`.
    public var lines: [String] {
        problems.map { problem in
            let text = problem.description
            return file.map { "\($0): \(text)" } ?? text
        }
    }

    public var description: String { lines.joined(separator: "\n") }

    /// What `shiftrender validate` reports for `scene`: every problem with its
    /// place, errors and warnings. Give the `document` it was read from, if
    /// any, so that messages name the file and lines. Reads its images and finds its fonts.
    public init(validating scene: Scene, document: SceneDocument? = nil) {
        self = Self.check(scene, document: document, images: SceneImages(scene: scene), labels: SceneLabels(scene: scene, draw: false))
    }

    /// What `shiftrender validate` reports for the scene file at `path`.
    public init(validatingFileAt path: String) {
        do {
            let document = try SceneJSON.read(fileAt: path)
            self.init(validating: document.scene, document: document)
        } catch {
            self.init(file: error.file, problems: error.problems)
        }
    }

    /// The problems of a scene read from a file (`document`) or built in code:
    /// the file's own, then the model's rules (except under a place the file
    /// already reported, where the value was replaced by a default), then the
    /// images' and the labels' (fonts, characters). Locations come from the document; places name the
    /// named views along them (`Scene.naming`).
    static func check(
        _ scene: Scene, document: SceneDocument?, images: SceneImages?, labels: SceneLabels? = nil, reversed: Bool = false
    ) -> SceneDiagnostics {
        let fileProblems = document?.problems ?? []
        let reported = fileProblems.map(\.place)
        let locate = { (problem: SceneProblem) in document?.locations.locating(problem) ?? problem }
        // A value the file got wrong was replaced by its default: what the rules say
        // at or under its place, or of the value holding it (`frame` for a bad
        // `frame[2]`), says the same thing again.
        let rules = SceneValidator.problems(in: scene, reversed: reversed).map(locate).filter { problem in
            !reported.contains { place in
                problem.place.isWithin(place)
                    || place.isWithin(problem.place) && place.components.count == problem.place.components.count + 1
            }
        }
        // The typesetter refuses some values the rules refuse too (a font size of 0): what the images or
        // the labels say at or above a place where the rules found an error is that error again.
        var refusedOrAbove = Set<ScenePlace>()
        for problem in fileProblems + rules where problem.severity == .error {
            var place: ScenePlace? = problem.place
            while let p = place, refusedOrAbove.insert(p).inserted { place = p.parent }
        }
        let inputs = ((images?.problems ?? []) + (labels?.problems ?? [])).map(locate).filter { !refusedOrAbove.contains($0.place) }
        var problems = fileProblems + rules + inputs
        if document != nil {
            // In the file's order, as a reader goes through it; the sort is stable,
            // so problems at one place keep the order they were found in.
            problems = problems.enumerated().sorted { a, b in
                let l = a.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
                let r = b.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
                return l != r ? l < r : a.offset < b.offset
            }.map(\.element)
        }
        return SceneDiagnostics(file: document?.file, problems: problems.map { $0.naming(in: scene) })
    }
}

extension ScenePlace {
    /// True when this place is `other` or inside it.
    func isWithin(_ other: ScenePlace) -> Bool {
        components.count >= other.components.count && Array(components.prefix(other.components.count)) == other.components
    }
}
