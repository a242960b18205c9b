/// Something wrong with a scene, or worth knowing about it, at a place in it.
public struct SceneProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        /// The scene cannot be rendered until it is fixed.
        case error
        /// The scene renders, but probably not as its author meant.
        case warning
    }

    public var severity: Severity
    public var place: ScenePlace
    /// One line, without the place.
    public var message: String
    /// Where the place starts in the source text, when the scene came from a file.
    public var location: SourceLocation?

    /// Control characters in the message (they can come from the scene: a key
    /// or value with an escaped newline) are written as escapes, so that every
    /// problem stays one line and a scene cannot forge lines in the output or
    /// send terminal escape sequences.
    public init(_ severity: Severity = .error, at place: ScenePlace, _ message: String, location: SourceLocation? = nil) {
        self.severity = severity
        self.place = place
        self.message = Self.escapingControlCharacters(message)
        self.location = location
    }

    /// The place as printed, with control characters escaped.
    public var placeText: String { Self.escapingControlCharacters(place.description) }

    /// `place: message (line L, column C)`, one line.
    public var description: String {
        let placeText = self.placeText
        var text = placeText.isEmpty ? message : "\(placeText): \(message)"
        if let location { text += " (line \(location.line), column \(location.column))" }
        return text
    }

    public static func escapingControlCharacters(_ text: String) -> String {
        func isControl(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || (0x7F ... 0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                escaped.append(scalar)
                continue
            }
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
}

/// A line and column (1-based) in a scene's source text.
public struct SourceLocation: Sendable, Hashable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
