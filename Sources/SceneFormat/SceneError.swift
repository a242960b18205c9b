/// One problem in a scene, at a place in it.
public struct SceneIssue: Sendable, Equatable, CustomStringConvertible {
    /// Where in the scene, e.g. `to.subviews[2].frame`; empty for the file as a whole.
    public var path: String
    public var message: String
    public var line: Int?
    public var column: Int?

    /// Control characters in `path` and `message` (they can come from the
    /// scene: a key or value with an escaped newline) are written as JSON
    /// escapes, so that every issue stays one line and a scene cannot forge
    /// lines in the output or send terminal escape sequences.
    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = Self.escapingControlCharacters(path)
        self.message = Self.escapingControlCharacters(message)
        self.line = line
        self.column = column
    }

    static func escapingControlCharacters(_ text: String) -> String {
        func isControl(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { escaped.append(scalar); continue }
            switch scalar {
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(escaped)
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
