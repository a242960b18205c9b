/// Why an output could not be opened or put in place, as one line naming the
/// path: `cannot write 'out.mp4': it already exists; allow overwriting ...`.
public struct OutputError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The folder is missing or not writable, something of the wrong
        /// kind is in the way, or a name is too long.
        case notWritable
        /// Files the output writes exist and overwriting was not allowed.
        case targetExists
        /// An existing file the output would replace is read-only.
        case readOnly
        /// The output would write over an input of the run.
        case isInput
        /// Writing or moving into place failed.
        case writeFailed
        /// The output was used after it was committed or discarded.
        case misuse
        /// The process is stopping (`AtomicOutput.stopCommits()`, on a
        /// signal): the output was not put in place, its target is as it was.
        case stopped
    }

    public let kind: Kind
    /// The target as the caller gave it.
    public let path: String
    public let reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write '\(path)': \(reason)" }
}
