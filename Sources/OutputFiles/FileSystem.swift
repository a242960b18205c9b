#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file as the kernel knows it: the same pair for every name of it (hard
/// links, symbolic links followed, `./x` and `x`).
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// What `lstat` or `stat` says about a path.
struct FileStatus {
    let info: stat

    /// The entry itself (a symbolic link is not followed); nil when there is none.
    static func entry(_ path: String) -> FileStatus? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStatus(info: info) : nil
    }

    /// What the path leads to (symbolic links followed); nil when nothing.
    static func resolved(_ path: String) -> FileStatus? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStatus(info: info) : nil
    }

    var type: mode_t { info.st_mode & S_IFMT }
    var isDirectory: Bool { type == S_IFDIR }
    var isRegularFile: Bool { type == S_IFREG }
    var isSymbolicLink: Bool { type == S_IFLNK }
    var identity: FileIdentity { FileIdentity(info) }
    /// No write permission bit at all. Checked on the mode rather than with
    /// access(2), which says yes to root for any file.
    var hasNoWriteBits: Bool { info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 }
}

enum FileSystem {
    /// (folder, last component) of a path without a trailing slash; the
    /// folder is "" for a bare name.
    static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    /// `directory` joined with `name` ("" meaning the current folder).
    static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The path without trailing slashes ("/" stays).
    static func trimmed(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// Names in `path`, without "." and ".."; nil with errno set when it cannot be read.
    static func list(_ path: String) -> [String]? {
        guard let handle = opendir(path.isEmpty ? "." : path) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            // Read up to the terminating NUL in place: `d_name` is declared 256 bytes, but the
            // kernel fills only the name and its NUL, so copying the whole field reads unset bytes.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Paths, relative to `root`, of everything under it that is not a
    /// folder, sorted.
    static func filesBelow(_ root: String) -> [String] {
        var found: [String] = []
        func visit(_ relative: String) {
            for name in list(relative.isEmpty ? root : root + "/" + relative) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                if FileStatus.entry(root + "/" + child)?.isDirectory == true {
                    visit(child)
                } else {
                    found.append(child)
                }
            }
        }
        visit("")
        return found.sorted()
    }

    /// Removes a file, or a folder and everything in it, never following a
    /// symbolic link. Best effort.
    static func removeTree(_ path: String) {
        guard let status = FileStatus.entry(path) else { return }
        if status.isDirectory {
            for name in list(path) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Creates `relative`'s folders under `root`, like `mkdir -p`. Returns
    /// the ones it created, outermost first.
    static func makeFolders(_ relative: String, under root: String) -> (created: [String], errno: Int32?) {
        var created: [String] = []
        var path = root
        for component in relative.split(separator: "/") {
            path += "/" + component
            if FileStatus.resolved(path)?.isDirectory == true { continue }
            guard mkdir(path, 0o777) == 0 else { return (created, errno) }
            created.append(path)
        }
        return (created, nil)
    }
}
