#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sentences that give the real cause of a file-system failure. A bare
/// strerror ("Permission denied") says neither which path nor what to do;
/// these name the cause a person can act on.
public enum FileProblem {
    /// `errno` as a short phrase, with the consequence spelled out where
    /// strerror leaves it implicit ("no space left on device (the disk is full)").
    public static func describe(errno error: Int32) -> String {
        switch error {
        case ENOSPC: return "no space left on device (the disk is full)"
        case EDQUOT: return "disk quota exceeded (your share of this file system is used up)"
        case EROFS: return "read-only file system"
        case EACCES: return "permission denied"
        case EPERM: return "operation not permitted"
        case ENOENT: return "no such file or directory"
        case ENOTDIR: return "a part of the path is not a directory"
        case EISDIR: return "it is a directory"
        case ENAMETOOLONG: return "file name too long (at most \(nameMax) bytes a name, \(PATH_MAX - 1) a path)"
        case EMFILE, ENFILE: return "too many open files"
        case EXDEV: return "the paths are on different file systems"
        case EIO: return "input/output error (a failing disk or a lost connection)"
        case ELOOP: return "too many levels of symbolic links"
        default:
            let text = String(cString: strerror(error))
            guard let first = text.first else { return "error \(error)" }
            return first.lowercased() + text.dropFirst()
        }
    }

    /// Why nothing can be created in `directory`, given the errno of the
    /// failed attempt.
    public static func directoryProblem(_ directory: String, errno error: Int32) -> String {
        let shown = directory.isEmpty ? "." : directory
        switch error {
        case ENOENT:
            return "the directory '\(shown)' does not exist"
        case ENOTDIR:
            return "'\(firstNonDirectory(in: shown) ?? shown)' is not a directory"
        case EACCES, EPERM:
            return "the directory '\(shown)' is not writable (\(describe(errno: error)))"
        case EROFS:
            return "the directory '\(shown)' is on a read-only file system"
        default:
            return "cannot create a file in '\(shown)': \(describe(errno: error))"
        }
    }

    /// "'x' is a FIFO, not a regular file": `path` has file type `type`
    /// where `expected` ("a regular file", "a directory") is needed.
    static func wrongType(_ path: String, type: mode_t, expected: String = "a regular file") -> String {
        let names: [mode_t: String] = [
            S_IFIFO: "a FIFO", S_IFSOCK: "a socket", S_IFCHR: "a character device", S_IFBLK: "a block device",
            S_IFDIR: "a directory", S_IFLNK: "a symbolic link", S_IFREG: "a regular file",
        ]
        guard let what = names[type] else { return "'\(path)' is not \(expected)" }
        return "'\(path)' is \(what), not \(expected)"
    }

    /// Why writes to the file system holding `path` fail, if it looks like
    /// the file system's fault: full, out of inodes, or read-only. Libraries
    /// that write files (libpng, FFmpeg) often report these as a generic
    /// write error; this recovers the cause.
    public static func fileSystemProblem(at path: String) -> String? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        if info.f_flag & UInt(ST_RDONLY) != 0 { return describe(errno: EROFS) }
        // Root may use the blocks reserved for it, others may not.
        let freeBlocks = geteuid() == 0 ? info.f_bfree : info.f_bavail
        if freeBlocks == 0 { return describe(errno: ENOSPC) }
        if info.f_files > 0 && info.f_favail == 0 { return "no free inodes left on device (the disk is full)" }
        return nil
    }

    /// The longest file name most file systems accept, in bytes.
    public static let nameMax = 255

    /// The first component of `path` that exists and is not a directory
    /// (ENOTDIR names none).
    private static func firstNonDirectory(in path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix = FileSystem.join(prefix, String(component))
            guard let status = FileStatus.resolved(prefix) else { return nil }
            if !status.isDirectory { return prefix }
        }
        return nil
    }
}
