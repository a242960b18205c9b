#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that appears at its target all at once, or not at all.
///
/// Writing goes to a temporary sibling of the target (`.out.mp4.partial-k3x9`
/// beside `out.mp4`, or a directory `.frames.partial-k3x9` beside `frames/`;
/// for files named by a pattern in an existing directory, a temporary
/// directory inside it, whose files are moved out one by one).
/// Being in the same directory keeps it on the same file system, so `commit()`
/// is a single `rename(2)`: readers see either the old target or the complete
/// new one, never a truncated file. `discard()` removes the temporary output;
/// an object released without committing discards too.
///
/// Why: a render can fail or be interrupted at any frame. A half-written MP4
/// has no index and will not play, a half-filled frame directory looks
/// complete, and either could silently replace a good earlier output.
final class AtomicOutput {
    enum Kind {
        case file
        /// A directory of files. `replacing` allows replacing a directory that
        /// holds only files `isReplaceable` accepts.
        case directory(replacing: Bool, isReplaceable: (String) -> Bool)
        /// Files in an existing directory that `isMember` picks out (a
        /// pattern's frames), among others that stay. `replacing` allows
        /// replacing members already there; all of them go, so no frame of a
        /// longer earlier sequence stays behind. `path` names the directory
        /// and `memberDescription` the files, for messages.
        case files(replacing: Bool, isMember: (String) -> Bool, memberDescription: String)
    }

    private enum State { case open, committed, discarded }

    /// The target as the caller named it (used in messages).
    let displayPath: String
    /// The target without a trailing slash.
    let target: String
    /// Where the output is written until `commit()`.
    let temporaryPath: String
    private let kind: Kind
    private var state = State.open

    /// Reserves a temporary file or directory beside `path`. Throws a
    /// `.targetNotWritable` error naming the directory when it is missing or
    /// not writable, and `.targetNotEmpty` for a directory target that holds
    /// files it may not replace.
    init(path: String, kind: Kind) throws {
        displayPath = path
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        target = trimmed
        self.kind = kind
        let (parent, name) = Self.split(trimmed)
        let isFileSet: Bool
        if case .files = kind { isFileSet = true } else { isFileSet = false }
        guard isFileSet || (!name.isEmpty && name != "." && name != ".." && trimmed != "/") else {
            throw EncoderError(.targetNotWritable, path: path, reason: "name a file or directory to write")
        }
        let prefix = parent.isEmpty ? "" : (parent.hasSuffix("/") ? parent : parent + "/")
        var base = "\(prefix).\(name).partial-"

        switch kind {
        case .file:
            if let existing = Self.fileType(trimmed), existing == S_IFDIR {
                throw EncoderError(.targetNotWritable, path: path,
                                   reason: "it is a directory; name a file to write")
            }
        case .directory(let replacing, let isReplaceable):
            try Self.checkDirectoryTarget(trimmed, displayPath: path, replacing: replacing,
                                          isReplaceable: isReplaceable)
        case .files(let replacing, let isMember, let members):
            guard Self.fileType(trimmed) == S_IFDIR else {
                throw EncoderError(.targetNotWritable, path: path, reason: "'\(trimmed)' is not a directory")
            }
            try Self.checkMembers(trimmed, displayPath: path, replacing: replacing, isMember: isMember,
                                  memberDescription: members)
            base = "\(trimmed)/.\(members).partial-"
        }

        // Reserve a fresh name; O_EXCL / mkdir fail rather than reuse one.
        for attempt in 0..<16 {
            let candidate = base + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let result: Int32
            switch kind {
            case .file:
                let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if descriptor >= 0 { close(descriptor) }
                result = descriptor
            case .directory, .files:
                result = mkdir(candidate, 0o777)
            }
            if result >= 0 {
                temporaryPath = candidate
                return
            }
            let error = errno
            if error == EEXIST, attempt < 15 { continue }
            let directory: String
            if case .files = kind { directory = trimmed } else { directory = parent.isEmpty ? "." : parent }
            throw EncoderError(.targetNotWritable, path: path,
                               reason: Self.directoryProblem(directory, errno: error))
        }
        throw EncoderError(.targetNotWritable, path: path, reason: "cannot find a free temporary name")
    }

    deinit {
        discard()
    }

    /// Moves the finished output into place. On failure the temporary output
    /// is removed and the target is left as it was.
    func commit() throws {
        guard state == .open else {
            throw EncoderError(.misuse, path: displayPath, reason: "the output was already \(state)")
        }
        do {
            switch kind {
            case .file:
                try renameOrThrow(temporaryPath, target)
            case .directory(let replacing, let isReplaceable):
                try commitDirectory(replacing: replacing, isReplaceable: isReplaceable)
            case .files(let replacing, let isMember, let members):
                try commitFiles(replacing: replacing, isMember: isMember, memberDescription: members)
            }
        } catch {
            discard()
            throw error
        }
        state = .committed
    }

    /// Removes the temporary output, if any. Does nothing after `commit()`.
    func discard() {
        guard state == .open else { return }
        state = .discarded
        Self.removeTree(temporaryPath)
    }

    // MARK: Directory targets

    private static func checkDirectoryTarget(
        _ target: String, displayPath: String, replacing: Bool, isReplaceable: (String) -> Bool
    ) throws {
        guard let type = fileType(target) else { return } // will be created
        guard type == S_IFDIR else {
            throw EncoderError(.targetNotWritable, path: displayPath,
                               reason: "it exists and is not a directory")
        }
        let entries = try listDirectory(target, displayPath: displayPath)
        if entries.isEmpty { return }
        if !replacing {
            throw EncoderError(.targetNotEmpty, path: displayPath, reason:
                "the directory already holds \(entries.count) file\(entries.count == 1 ? "" : "s"); "
                + "choose a new or empty directory, or allow overwriting")
        }
        if let stranger = entries.sorted().first(where: { !isReplaceable($0) }) {
            throw EncoderError(.targetNotEmpty, path: displayPath, reason:
                "the directory holds '\(stranger)', which is not a frame of an earlier sequence; "
                + "refusing to replace it")
        }
    }

    private func commitDirectory(replacing: Bool, isReplaceable: (String) -> Bool) throws {
        // Check again: the directory may have changed while frames were written.
        try Self.checkDirectoryTarget(target, displayPath: displayPath, replacing: replacing,
                                      isReplaceable: isReplaceable)
        guard let type = Self.fileType(target),
              type == S_IFDIR,
              try !Self.listDirectory(target, displayPath: displayPath).isEmpty else {
            // New or empty target: rename(2) creates it or replaces the empty directory.
            try renameOrThrow(temporaryPath, target)
            return
        }
        // A directory of earlier frames: move it aside, move the new one in,
        // then delete the old one. Should the second step fail, put it back.
        let aside = temporaryPath + ".replaced"
        try renameOrThrow(target, aside)
        do {
            try renameOrThrow(temporaryPath, target)
        } catch {
            _ = rename(aside, target)
            throw error
        }
        Self.removeTree(aside)
    }

    // MARK: Files in a directory

    private static func checkMembers(
        _ directory: String, displayPath: String, replacing: Bool, isMember: (String) -> Bool,
        memberDescription: String
    ) throws {
        let members = try listDirectory(directory, displayPath: displayPath).filter(isMember)
        if !members.isEmpty, !replacing {
            throw EncoderError(.targetNotEmpty, path: displayPath, reason:
                "'\(directory)' already holds \(members.count) file\(members.count == 1 ? "" : "s") named "
                + "\(memberDescription); choose another name or directory, or allow overwriting")
        }
    }

    /// Moves the new files in, after moving any earlier members aside. Not
    /// one atomic step (that needs the files in a directory of their own),
    /// but every file is complete when it appears, and a failure part way
    /// puts the earlier members back.
    private func commitFiles(replacing: Bool, isMember: (String) -> Bool, memberDescription: String) throws {
        try Self.checkMembers(target, displayPath: displayPath, replacing: replacing, isMember: isMember,
                              memberDescription: memberDescription)
        let temporaryName = Self.split(temporaryPath).1
        let earlier = try Self.listDirectory(target, displayPath: displayPath)
            .filter { isMember($0) && $0 != temporaryName }
        let new = try Self.listDirectory(temporaryPath, displayPath: displayPath).sorted()
        let aside = temporaryPath + ".replaced"
        var movedAside: [String] = []
        var movedIn: [String] = []
        do {
            if !earlier.isEmpty {
                guard mkdir(aside, 0o777) == 0 else {
                    throw EncoderError(.writeFailed, path: displayPath, reason:
                        "cannot make room for the new files: \(Self.describe(errno: errno))")
                }
                for name in earlier {
                    try renameOrThrow(target + "/" + name, aside + "/" + name)
                    movedAside.append(name)
                }
            }
            for name in new {
                try renameOrThrow(temporaryPath + "/" + name, target + "/" + name)
                movedIn.append(name)
            }
        } catch {
            for name in movedIn { _ = rename(target + "/" + name, temporaryPath + "/" + name) }
            for name in movedAside { _ = rename(aside + "/" + name, target + "/" + name) }
            Self.removeTree(aside)
            throw error
        }
        Self.removeTree(aside)
        rmdir(temporaryPath)
    }

    // MARK: File system helpers

    private func renameOrThrow(_ from: String, _ to: String) throws {
        guard rename(from, to) == 0 else {
            let error = errno
            throw EncoderError(.writeFailed, path: displayPath, reason:
                "cannot move the finished output into place: \(Self.describe(errno: error))")
        }
    }

    /// The file type bits (`S_IFDIR`, `S_IFREG`...) of `path`, or nil if nothing is there.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Names in `path`, without "." and "..".
    static func listDirectory(_ path: String, displayPath: String) throws -> [String] {
        guard let handle = opendir(path) else {
            let error = errno
            throw EncoderError(.targetNotWritable, path: displayPath,
                               reason: "cannot list the directory: \(describe(errno: error))")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a file, or a directory and everything in it. Best effort.
    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            if let names = try? listDirectory(path, displayPath: path) {
                for name in names { removeTree(path + "/" + name) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// (directory, last component) of a path without trailing slash.
    static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    static func describe(errno error: Int32) -> String {
        String(cString: strerror(error))
    }

    /// A sentence about why nothing can be created in `directory`.
    static func directoryProblem(_ directory: String, errno error: Int32) -> String {
        switch error {
        case ENOENT:
            return "the directory '\(directory)' does not exist"
        case ENOTDIR:
            return "'\(directory)' is not a directory"
        case EACCES, EPERM, EROFS:
            return "the directory '\(directory)' is not writable (\(describe(errno: error)))"
        default:
            return "cannot create a file in '\(directory)': \(describe(errno: error))"
        }
    }
}
