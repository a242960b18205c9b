import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What this studio has exported, so that exporting again replaces its own
/// output without asking, and anything else at that path (the user's own
/// render, a file put there since) is asked about first (`StudioExport`).
///
/// An output is known by what `lstat` says of it just after it was put in
/// place: device and inode, and for a file also its size and modification
/// time, so a file rewritten in place or replaced since is not the studio's.
/// A PNG folder is known by device and inode (its frames change with each export).
final class ExportedFiles: Sendable {
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    private let written = Mutex<Set<Identity>>([])

    init() {}

    /// Remembers what is at `path` now as the studio's.
    func record(_ path: String) {
        guard let identity = Self.identity(path) else { return }
        written.withLock { _ = $0.insert(identity) }
    }

    /// True when what is at `path` is something this studio wrote and nobody changed.
    func wrote(_ path: String) -> Bool {
        guard let identity = Self.identity(path) else { return false }
        return written.withLock { $0.contains(identity) }
    }

    /// True when an export to `path` would replace something: any entry for a
    /// file (a symbolic link too), and for a frames folder one that holds anything.
    static func isOccupied(_ path: String, folder: Bool) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        guard folder, info.st_mode & S_IFMT == S_IFDIR else { return true }
        return !((try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
    }

    private static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: isFolder ? 0 : Int64(info.st_size),
            modified: isFolder ? 0 : Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
