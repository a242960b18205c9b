#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable OS thread running one closure. Encoding blocks (in x264, zlib,
/// the file system) for milliseconds at a time, so it gets threads of its
/// own rather than borrowing Dispatch's or the concurrency runtime's pool,
/// which expect work that does not block.
final class WorkerThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(_ run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }

    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` at once on a new thread. `name` labels it for debugging.
    /// `niceness` > 0 lowers the thread's scheduling priority by that much
    /// against the process's (`setpriority`; Linux schedules threads one by
    /// one, so this touches no other thread; elsewhere, and where the system
    /// refuses, the thread keeps the process's priority).
    init(name: String, niceness: Int32 = 0, _ body: @escaping @Sendable () -> Void) {
        let run: @Sendable () -> Void = {
            if niceness > 0 { WorkerThread.lowerPriority(by: niceness) }
            body()
        }
        let box = Unmanaged.passRetained(Body(run, name: name)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(result == 0, "cannot start an encoder thread: \(String(cString: strerror(result)))")
    }

    /// Runs `body` on a new thread that nobody waits for: for clean-up that
    /// may block (x264 joining its own threads) after the work was abandoned.
    static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = WorkerThread(name: name, body)
        thread.joined = true
        pthread_detach(thread.thread)
    }

    /// Lowers the calling thread's priority (`WorkerThread.init`).
    static func lowerPriority(by niceness: Int32) {
        #if os(Linux)
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + niceness))
        #endif
    }

    /// Waits for the closure to return. Call once, from another thread.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}
