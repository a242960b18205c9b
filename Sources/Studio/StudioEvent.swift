import Foundation
import ShiftRender

/// The messages /events sends, each as one server-sent event: `event: NAME`
/// and a one-line JSON `data:` (the endpoint contract in docs and the brief).
///
/// JSON keys are sorted so that the bytes are the same for the same message,
/// which keeps the tests and anyone diffing a capture sane.
public enum StudioEvent: Sendable, Equatable {
    /// A new good version of the scene: the page redraws its frame.
    case reload(Reload)
    /// The saved scene is invalid; frames keep coming from the last good version.
    case error(SceneErrorReport)
    /// An export's progress, its end (`path`) or its failure (`error`).
    case export(ExportProgress)

    public struct Reload: Sendable, Equatable, Codable {
        public var version: Int
        public var frameCount: Int
        public var fps: Double
    }

    public struct ExportProgress: Sendable, Equatable, Codable {
        public var format: String
        public var done: Int
        public var total: Int
        public var path: String?
        public var error: String?
    }

    public var name: String {
        switch self {
        case .reload: return "reload"
        case .error: return "error"
        case .export: return "export"
        }
    }

    /// The event as it goes on the wire, blank line included.
    public var serverSentText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch self {
        case .reload(let body): data = try? encoder.encode(body)
        case .error(let body): data = try? encoder.encode(body)
        case .export(let body): data = try? encoder.encode(body)
        }
        // Encoding these plain structs cannot fail; an empty object keeps the stream well formed if it ever did.
        let json = data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\ndata: \(json)\n\n"
    }

    /// A comment line: keeps proxies and browsers from closing an idle stream.
    static let keepaliveText = ": keepalive\n\n"
}

/// An invalid scene as the page shows it: the whole message, and each problem
/// with its place, line and column (when the file gives them) and severity.
public struct SceneErrorReport: Error, Sendable, Equatable, Codable {
    public struct Problem: Sendable, Equatable, Codable {
        public var place: String
        public var message: String
        public var line: Int?
        public var column: Int?
        public var severity: String
    }

    public var message: String
    public var problems: [Problem]

    public init(message: String, problems: [Problem]) {
        self.message = message
        self.problems = problems
    }

    /// From the library's error: every problem the diagnostics list, errors and warnings.
    init(_ error: RenderError) {
        let problems = error.diagnostics?.problems ?? []
        self.init(
            message: error.message,
            problems: problems.map { problem in
                Problem(
                    place: problem.placeText, message: problem.message, line: problem.location?.line,
                    column: problem.location?.column, severity: problem.severity.rawValue)
            })
    }
}
