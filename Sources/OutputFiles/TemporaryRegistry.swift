#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The temporaries this process has open: what an emergency exit removes,
/// and what the sweep leaves alone without even trying its lock (on NFS,
/// where `flock` is emulated with per-process POSIX locks, trying our own
/// file's lock would succeed, and closing that descriptor would drop it).
///
/// The lock is held only to add, remove or copy entries, never around I/O,
/// and the emergency path only ever tries it (`withLockIfAvailable`): a
/// watchdog about to `_exit` must not hang on a lock a stuck thread holds.
enum TemporaryRegistry {
    private static let entries = Mutex<[String: FileIdentity]>([:])

    static func register(_ path: String, identity: FileIdentity) {
        entries.withLock { $0[path] = identity }
    }

    static func unregister(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }

    /// True when the file or folder with `identity` is one of ours.
    static func contains(_ identity: FileIdentity) -> Bool {
        entries.withLock { $0.values.contains(identity) }
    }

    /// Removes every registered temporary. Tries the lock for up to about
    /// `patience` milliseconds and returns nil if it never got it; else the
    /// number of temporaries removed. Allocates (path strings, `opendir`),
    /// so a thread stuck inside `malloc` could still stall it: Swift offers
    /// no allocation-free way to walk a folder.
    static func removeAll(patience milliseconds: Int = 200) -> Int? {
        for attempt in 0 ... milliseconds {
            let taken = entries.withLockIfAvailable { entries -> [String] in
                let paths = Array(entries.keys)
                entries.removeAll()
                return paths
            }
            if let paths = taken {
                for path in paths { FileSystem.removeTree(path) }
                return paths.count
            }
            if attempt < milliseconds { usleep(1000) }
        }
        return nil
    }

    /// Runs `body` with the registry's lock held (tests: the emergency path
    /// must not wait for it).
    static func withLockHeld<T>(_ body: () -> T) -> T {
        entries.withLock { _ in body() }
    }
}
