import OutputFiles

/// An `OutputFiles.AtomicOutput` as the encoders hold it: the same output,
/// its failures turned into the `EncoderError`s every encoder promises,
/// naming the path the caller gave the encoder.
///
/// It keeps the name this module always knew it by, so the encoders' shared
/// parts (`StreamingEncoder`, `GIFSpool`) use it without importing OutputFiles.
final class AtomicOutput {
    private let output: OutputFiles.AtomicOutput
    private let path: String
    private let isFileSet: Bool

    /// `path` is the target; `reportedPath` what errors name (a pattern
    /// whose folder is the target), by default `path`; `inputs` the files it
    /// must never replace (see `OutputFiles.AtomicOutput`).
    init(
        path: String, kind: OutputFiles.AtomicOutput.Kind, overwrite: Bool, reportedPath: String? = nil,
        inputs: InputFiles = .declared
    )
        throws(EncoderError)
    {
        self.path = reportedPath ?? path
        if case .fileSet = kind { isFileSet = true } else { isFileSet = false }
        do throws(OutputError) {
            output = try OutputFiles.AtomicOutput(path: path, kind: kind, overwrite: overwrite, inputs: inputs)
        } catch {
            throw Self.encoderError(error, path: reportedPath ?? path, isFileSet: isFileSet)
        }
    }

    var target: String { output.target }
    var temporaryPath: String { output.temporaryPath }
    var targetFolder: String { output.targetFolder }
    /// See `OutputFiles.AtomicOutput.warnings`; known after `commit()`.
    var warnings: [String] { output.warnings }

    /// Throws `EncoderError` (untyped, as the callers treat every failure alike).
    func commit() throws {
        do throws(OutputError) {
            try output.commit()
        } catch {
            throw Self.encoderError(error, path: path, isFileSet: isFileSet)
        }
    }

    func discard() {
        output.discard()
    }

    /// See `OutputFiles.AtomicOutput.fileSystemProblem()`.
    func fileSystemProblem() -> String? {
        output.fileSystemProblem()
    }

    static func describe(errno error: Int32) -> String {
        FileProblem.describe(errno: error)
    }

    static func directoryProblem(_ directory: String, errno error: Int32) -> String {
        FileProblem.directoryProblem(directory, errno: error)
    }

    private static func encoderError(_ error: OutputError, path: String, isFileSet: Bool) -> EncoderError {
        let kind: EncoderError.Kind
        switch error.kind {
        case .targetExists: kind = .targetNotEmpty
        case .notWritable, .readOnly, .isInput: kind = .targetNotWritable
        case .writeFailed: kind = .writeFailed
        case .misuse: kind = .misuse
        case .stopped: return EncoderError.cancelled(path: path)
        }
        return EncoderError(kind, path: path, reason: error.reason)
    }
}
