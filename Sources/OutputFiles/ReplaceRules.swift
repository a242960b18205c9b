#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for what is already at a path an output writes, single
/// file or member of a set: nothing there is fine; a regular file is
/// replaced only when overwriting is allowed, and never when it is
/// read-only or an input of the run; anything else is in the way.
struct ReplaceRules {
    /// The target as the caller gave it, for errors.
    let display: String
    let overwrite: Bool
    let inputs: InputFiles

    /// Throws when the file at `path` (shown in messages as `shown`) may not
    /// be replaced for any reason but overwriting not being allowed. Returns
    /// true when something is there.
    func check(_ path: String, shown: String) throws(OutputError) -> Bool {
        guard let entry = FileStatus.entry(path) else { return false }
        if let resolved = FileStatus.resolved(path) {
            if resolved.isDirectory {
                throw OutputError(
                    .notWritable, path: display,
                    reason: shown == display
                        ? "it is a directory; name a file to write"
                        : "'\(shown)' is a directory, where a file of this output goes")
            }
            guard resolved.isRegularFile else {
                throw OutputError(.notWritable, path: display, reason: FileProblem.wrongType(shown, type: resolved.type))
            }
        } else if !entry.isSymbolicLink {
            return true
        }
        if inputs.contains(path) {
            throw OutputError(
                .isInput, path: display,
                reason: "'\(shown)' is an input of this render; refusing to write over it")
        }
        if overwrite, let problem = readOnlyProblem(path, shown: shown) {
            throw OutputError(.readOnly, path: display, reason: problem)
        }
        return true
    }

    /// The refusal of an existing single file when overwriting is not allowed.
    func fileExists() -> OutputError {
        OutputError(
            .targetExists, path: display,
            reason: "it already exists; allow overwriting (--overwrite) to replace it, or choose another name")
    }

    /// The refusal of existing members of `set` when overwriting is not allowed.
    func membersExist(_ members: [String], of set: FileSet) -> OutputError {
        OutputError(
            .targetExists, path: display,
            reason:
                "the folder already holds \(members.count) of the \(set.noun)s this output writes (\(FileSet.span(members))); "
                + "allow overwriting (--overwrite) to replace \(members.count == 1 ? "it" : "them"), or choose another folder")
    }

    private func readOnlyProblem(_ path: String, shown: String) -> String? {
        if FileStatus.resolved(path)?.hasNoWriteBits == true {
            return "'\(shown)' is read-only"
        }
        guard access(path, W_OK) != 0 else { return nil }
        switch errno {
        case EROFS: return "'\(shown)' is on a read-only file system"
        case EACCES, EPERM: return "'\(shown)' is read-only for you (\(FileProblem.describe(errno: EACCES)))"
        default: return nil
        }
    }
}
