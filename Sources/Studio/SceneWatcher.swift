import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Watches the scene file and the files its last good version read (images,
/// fonts) by polling their size, modification time and inode every 100 ms,
/// and reloads the session when any of them changes.
///
/// Polling rather than inotify: no extra dependency, it sees a file replaced
/// by rename (how most editors save) as well as one rewritten in place, and a
/// few stat calls ten times a second cost nothing. The inode is part of the
/// stamp because a rename-save can keep the size and land within the same
/// clock tick. It runs on a thread of its own, since a reload plans the whole
/// scene, which would hold up a server task for as long.
final class SceneWatcher: Sendable {
    /// What a stat says about one file; zero fields for a missing one.
    struct Stamp: Equatable, Sendable {
        var exists: Bool
        var size: Int64 = 0
        var modifiedSeconds: Int = 0
        var modifiedNanoseconds: Int = 0
        var inode: UInt64 = 0

        init(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                exists = false
                return
            }
            exists = true
            size = Int64(info.st_size)
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
        }
    }

    static let interval = 0.1

    private let session: SceneSession
    private let onChange: @Sendable (StudioEvent) -> Void
    private let stopped = Atomic<Bool>(false)

    /// `onChange` gets the reload or error event of each change, on the watcher's thread.
    init(session: SceneSession, onChange: @escaping @Sendable (StudioEvent) -> Void) {
        self.session = session
        self.onChange = onChange
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "studio scene watcher"
        thread.start()
    }

    /// Ends the polling within one interval.
    func stop() { stopped.store(true, ordering: .releasing) }

    private func run() {
        while !stopped.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: Self.interval)
            // Compared with the files as they were before the session last read them
            // (not after), so a save landing during a reload is seen on the next poll.
            guard Self.stamps(of: session.watchedFiles) != session.stampsAtRead else { continue }
            let event = session.reload()
            if !stopped.load(ordering: .acquiring) { onChange(event) }
        }
    }

    static func stamps(of paths: [String]) -> [String: Stamp] {
        Dictionary(uniqueKeysWithValues: paths.map { ($0, Stamp(path: $0)) })
    }
}
