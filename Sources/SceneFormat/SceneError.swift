/// One problem in a scene, at a place in it.
public struct SceneIssue: Sendable, Equatable, CustomStringConvertible {
    /// Where in the scene, e.g. `to.subviews[2].frame`; empty for the file as a whole.
    public var path: String
    public var message: String
    public var line: Int?
    public var column: Int?

    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = path.isEmpty ? message : "\(path): \(message)"
        if let line, let column { text += " (line \(line), column \(column))" }
        return text
    }
}

/// Why a scene could not be loaded: the file, and every problem found in it.
public struct SceneError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case unreadable, syntax, invalid }
    public var file: String
    public var kind: Kind
    public var issues: [SceneIssue]

    public init(file: String, kind: Kind, issues: [SceneIssue]) {
        self.file = file
        self.kind = kind
        self.issues = issues
    }

    /// One line per problem, each starting with the file name.
    public var description: String {
        issues.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
