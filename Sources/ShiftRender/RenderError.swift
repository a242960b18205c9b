import OutputFiles
import SceneModel

/// Why the library could not do what it was asked, with a kind the command
/// line maps to its exit status and a message that names the place or path.
public struct RenderError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The scene has errors (`diagnostics` lists them all).
        case invalidScene
        /// The scene file or an input cannot be read at all.
        case unreadableInput
        /// A request the scene cannot satisfy: a frame past the end, a time
        /// that is not a number, an output the format cannot take.
        case usage
        /// Over the memory budget (the message gives the estimate and the knob).
        case memory
        /// Writing the output failed; nothing was left behind.
        case output
        /// Cancelled (`RenderCancellation`); nothing was left behind.
        case cancelled
    }

    public var kind: Kind
    /// One or more lines, each complete.
    public var message: String
    /// For `.invalidScene` (and an unreadable scene file): every problem found.
    public var diagnostics: SceneDiagnostics?

    public init(_ kind: Kind, _ message: String, diagnostics: SceneDiagnostics? = nil) {
        self.kind = kind
        self.message = message
        self.diagnostics = diagnostics
    }

    public var description: String { message }

    static let cancelled = RenderError(.cancelled, "cancelled; nothing was written")

    /// An output that could not be put in place: `.cancelled` when the
    /// process was stopping (`AtomicOutput.stopCommits()`), else `.output`.
    init(_ error: OutputError) {
        self = error.kind == .stopped ? .cancelled : RenderError(.output, error.description)
    }
}
