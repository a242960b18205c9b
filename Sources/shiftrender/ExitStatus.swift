import ArgumentParser
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

/// The documented exit codes.
enum ExitStatus {
    static let invalidScene = ExitCode(1)
    static let usage = ExitCode(2)
    static let inputOutput = ExitCode(3)

    /// The most problems printed for one scene: enough to fix a file in a few
    /// rounds, and a cap on output when a generated file is broken everywhere.
    static let maximumProblemsShown = 100

    /// Prints `error` (every line, problems capped) and returns the exit code for it.
    static func report(_ error: RenderError, interruption: Interruption? = nil) -> ExitCode {
        // After a signal, any failure is its echo (an output that was not put in place).
        if let exit = interruption?.report() { return exit }
        if error.kind == .cancelled {
            printError("interrupted; nothing was written")
            return ExitCode(128 + SIGINT)
        }
        if let diagnostics = error.diagnostics, diagnostics.hasErrors {
            printProblems(SceneDiagnostics(file: diagnostics.file, problems: diagnostics.errors))
        } else {
            printError(error.message)
        }
        switch error.kind {
        case .invalidScene: return invalidScene
        case .usage, .memory: return usage
        case .unreadableInput, .output, .cancelled: return inputOutput
        }
    }

    /// One line per problem, errors as `error:` and warnings as `warning:`, at most `maximumProblemsShown`.
    static func printProblems(_ diagnostics: SceneDiagnostics) {
        let lines = diagnostics.lines
        for (line, problem) in zip(lines, diagnostics.problems).prefix(maximumProblemsShown) {
            FileHandleStderr.write("shiftrender: \(problem.severity == .error ? "error" : "warning"): \(line)\n")
        }
        if lines.count > maximumProblemsShown {
            printError("... and \(lines.count - maximumProblemsShown) more problems (fix these first)")
        }
    }
}

/// Writes one message per line to standard error, prefixed like other Unix tools.
func printError(_ message: String) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandleStderr.write("shiftrender: error: \(line)\n")
    }
}

func printWarning(_ message: String) {
    FileHandleStderr.write("shiftrender: warning: \(message)\n")
}

enum FileHandleStderr {
    /// Writes all of `text`, retrying short writes; gives up quietly when
    /// stderr is gone (a closed pipe must not stop a render).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
