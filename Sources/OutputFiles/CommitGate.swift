#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where every output of the process is put in place, one at a time, and
/// where a stopping process (a signal) closes the door on further commits.
///
/// A commit runs with the gate's lock held: it checks `stopped`, renames,
/// and records its target in `committed`. `stop()` only raises `stopped`
/// (an atomic store: it never waits, so a signal's path can call it first
/// thing). Once `stop()` has been called, the next time anyone gets the
/// lock (`committedTargets`) the list is final: a commit under way then has
/// finished, and any later one throws `.stopped` without touching its
/// target. So the answer to "what was written?" and the decision to exit
/// cannot race the rename.
enum CommitGate {
    private static let stopped = Atomic<Bool>(false)
    private static let committed = Mutex<[String]>([])

    static func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    static var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Runs `body` (the renames of one commit) unless stopped, and records
    /// `path` as written when it succeeds.
    static func commit(_ path: String, _ body: () throws(OutputError) -> Void) throws(OutputError) {
        try committed.withLock { (list: inout [String]) throws(OutputError) in
            if stopped.load(ordering: .sequentiallyConsistent) {
                throw OutputError(.stopped, path: path, reason: "the process is stopping; nothing was put in place")
            }
            try body()
            list.append(path)
        }
    }

    /// The targets committed so far, in order. With `patience` (milliseconds)
    /// the lock is only tried, for about that long, and nil means a commit
    /// was still under way; without, this waits for it.
    static func committedTargets(patience milliseconds: Int?) -> [String]? {
        guard let milliseconds else { return committed.withLock { $0 } }
        for attempt in 0 ... milliseconds {
            if let list = committed.withLockIfAvailable({ $0 }) { return list }
            if attempt < milliseconds { usleep(1000) }
        }
        return nil
    }
}
