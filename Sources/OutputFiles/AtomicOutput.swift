#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that appears at its target all at once, or not at all.
///
/// The caller writes to `temporaryPath`, then calls `commit()`:
/// - a file: `.out.mp4.partial-k3x9...` beside `out.mp4`, renamed over it;
/// - a file set (`Kind.fileSet`) in a new folder: a folder
///   `.frames.partial-k3x9...` beside `frames`, renamed to it;
/// - a file set in an existing folder: a folder `.new-files.partial-...`
///   inside it, whose files are moved out one by one, each over its
///   namesake (see `FileSet`).
///
/// Opening checks the target by `ReplaceRules`, sweeps the temporaries of
/// dead writers to the same target, and reserves and locks the temporary
/// (see `OutputFiles`). `commit()` checks again, as the target may have
/// changed meanwhile. `discard()`, any failure, and releasing an uncommitted
/// output remove the temporary and leave the target as it was.
///
/// Not thread-safe: one owner calls `commit` or `discard`. Only the
/// process-wide `removeAllTemporaries()` may run on another thread.
public final class AtomicOutput {
    public enum Kind: Sendable {
        case file
        case fileSet(FileSet)
    }

    /// The target as the caller gave it (used in messages).
    public let displayPath: String
    /// The target without a trailing slash.
    public let target: String
    /// Where to write until `commit()`: a file, or a folder for a file set.
    public var temporaryPath: String { held.path }
    /// The folder the target is in ("" for the current one): where helpers
    /// of the writer (a spool) stay on the target's file system.
    public var targetFolder: String { FileSystem.split(target).0 }
    /// Things to tell the user that are not errors, known after `commit()`
    /// (a file set's folder still holding files of an earlier output).
    public internal(set) var warnings: [String] = []

    let kind: Kind
    let rules: ReplaceRules
    let held: HeldTemporary
    /// True when a file set's temporary folder is inside the existing target.
    let isInsideTarget: Bool
    private var state = State.open

    private enum State: String { case open, committed, discarded }

    /// Opens an output to `path`. `overwrite` allows replacing what is there
    /// (ffmpeg's `-y`); `inputs` are files it must never write over (by
    /// default the process's `InputFiles.declared`). Nothing is left behind
    /// when this throws.
    public init(
        path: String, kind: Kind = .file, overwrite: Bool, inputs: InputFiles = .declared
    )
        throws(OutputError)
    {
        displayPath = path
        target = FileSystem.trimmed(path)
        self.kind = kind
        rules = ReplaceRules(display: path, overwrite: overwrite, inputs: inputs)
        switch kind {
        case .file:
            held = try Self.openFile(target, rules: rules)
            isInsideTarget = false
        case .fileSet(let set):
            (held, isInsideTarget) = try Self.openFileSet(target, set: set, rules: rules)
        }
    }

    deinit {
        discard()
    }

    /// Puts the finished output in place. On failure the temporary output is
    /// removed and the target is as it was, except that a file set moving
    /// into an existing folder keeps the files it already replaced (each is
    /// complete; the folder never holds fewer files than before). After
    /// `stopCommits()` it throws `.stopped` and leaves the target as it was.
    public func commit() throws(OutputError) {
        guard state == .open else {
            throw OutputError(.misuse, path: displayPath, reason: "the output was already \(state.rawValue)")
        }
        do throws(OutputError) {
            guard FileStatus.entry(held.path)?.identity == held.identity else {
                throw OutputError(
                    .writeFailed, path: displayPath,
                    reason: "the temporary output '\(held.path)' is gone; was its folder removed?")
            }
            try CommitGate.commit(displayPath) { () throws(OutputError) in
                switch kind {
                case .file: try commitFile()
                case .fileSet(let set): try commitFileSet(set)
                }
            }
        } catch {
            discard()
            throw error
        }
        state = .committed
        held.release()
    }

    /// Removes the temporary output, if any. Does nothing after `commit()`.
    public func discard() {
        guard state == .open else { return }
        state = .discarded
        FileSystem.removeTree(held.path)
        held.release()
    }

    /// Why writes to the temporary output fail, when the file system is at
    /// fault (full, read-only): for callers whose writer reports only "write
    /// error". Ask before `discard()`, which frees the space.
    public func fileSystemProblem() -> String? {
        FileProblem.fileSystemProblem(at: held.path)
    }

    /// Writes one file through `write(temporaryPath)` and commits it. Errors
    /// from `write` are rethrown, unless the file system turns out to be full
    /// or read-only: that is the real cause, and is thrown instead.
    public static func writeFile(
        at path: String, overwrite: Bool, inputs: InputFiles = .declared,
        _ write: (_ temporaryPath: String) throws -> Void
    ) throws {
        let output = try AtomicOutput(path: path, overwrite: overwrite, inputs: inputs)
        do {
            try write(output.temporaryPath)
        } catch {
            let problem = output.fileSystemProblem()
            output.discard()
            if let problem { throw OutputError(.writeFailed, path: path, reason: problem) }
            throw error
        }
        try output.commit()
    }

    /// Stops this process's outputs from being put in place: from now on
    /// `commit()` throws `.stopped`, removes its temporary and leaves its
    /// target as it was. A commit already under way on another thread
    /// finishes (a rename; for a file set in an existing folder, one per
    /// file). Never waits: call it first thing when a signal arrives, before
    /// cancelling the work. There is no undoing it.
    public static func stopCommits() {
        CommitGate.stop()
    }

    /// True once `stopCommits()` has been called. (A signal handler that
    /// stops commits reads it once beforehand, so that the gate's lazy
    /// initialisation never happens inside the handler.)
    public static var commitsStopped: Bool { CommitGate.isStopped }

    /// The targets (as their callers gave them) this process has put in
    /// place, in order. After `stopCommits()` the answer is final: nothing
    /// is put in place afterwards. `patience` (milliseconds) bounds the wait
    /// for a commit under way on another thread (nil: wait for it); nil is
    /// returned if it had not finished by then.
    public static func committedOutputs(patience milliseconds: Int? = nil) -> [String]? {
        CommitGate.committedTargets(patience: milliseconds)
    }

    /// Removes every temporary output this process has open, for a watchdog
    /// thread about to `_exit`. Never waits more than a fraction of a second
    /// for the registry's lock; returns nil if it could not get it, else the
    /// number removed. The outputs are unusable afterwards.
    @discardableResult
    public static func removeAllTemporaries() -> Int? {
        TemporaryRegistry.removeAll()
    }

    // MARK: Single files

    private static func openFile(_ target: String, rules: ReplaceRules) throws(OutputError) -> HeldTemporary {
        let (parent, name) = FileSystem.split(target)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw OutputError(.notWritable, path: rules.display, reason: "name a file to write")
        }
        try checkLength(name: name, path: target, rules: rules)
        if try rules.check(target, shown: rules.display), !rules.overwrite {
            throw rules.fileExists()
        }
        let stem = TemporaryName.stem(for: name)
        HeldTemporary.sweep(in: parent, stem: stem)
        switch HeldTemporary.create(in: parent, stem: stem, isFolder: false) {
        case .success(let held): return held
        case .failure(let error):
            throw OutputError(
                .notWritable, path: rules.display,
                reason: FileProblem.directoryProblem(parent, errno: error.code))
        }
    }

    private func commitFile() throws(OutputError) {
        let exists = try rules.check(target, shown: displayPath)
        if exists && !rules.overwrite { throw rules.fileExists() }
        if let error = Self.move(held.path, to: target, replacing: rules.overwrite) {
            if error == EEXIST { throw rules.fileExists() }
            throw OutputError(
                .writeFailed, path: displayPath,
                reason: "cannot move the finished output into place: \(FileProblem.describe(errno: error))")
        }
    }

    /// Renames `from` to `to`; without `replacing`, never over an existing
    /// `to` (EEXIST). Returns the errno of a failure.
    static func move(_ from: String, to: String, replacing: Bool) -> Int32? {
        if replacing { return rename(from, to) == 0 ? nil : errno }
        // link(2) fails atomically when `to` exists, where rename(2) would replace it.
        if link(from, to) == 0 {
            unlink(from)
            return nil
        }
        let error = errno
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(error) else { return error }
        // No hard links on this file system (FAT, some network shares): check, then rename.
        if FileStatus.entry(to) != nil { return EEXIST }
        return rename(from, to) == 0 ? nil : errno
    }

    static func checkLength(name: String, path: String, rules: ReplaceRules) throws(OutputError) {
        if name.utf8.count > FileProblem.nameMax {
            throw OutputError(
                .notWritable, path: rules.display,
                reason:
                    "the name '\(name.prefix(24))...' is \(name.utf8.count) bytes long; file systems take at most \(FileProblem.nameMax)")
        }
        if path.utf8.count >= PATH_MAX {
            throw OutputError(
                .notWritable, path: rules.display,
                reason: "the path is \(path.utf8.count) bytes long; file systems take at most \(PATH_MAX - 1)")
        }
    }
}
