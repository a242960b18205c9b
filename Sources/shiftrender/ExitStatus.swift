import ArgumentParser

/// The documented exit codes.
enum ExitStatus {
    static let invalidScene = ExitCode(1)
    static let usage = ExitCode(2)
    static let inputOutput = ExitCode(3)
}

/// Writes one message per line to standard error, prefixed like other Unix tools.
func printError(_ message: String) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandleStderr.write("shiftrender: error: \(line)\n")
    }
}

enum FileHandleStderr {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
