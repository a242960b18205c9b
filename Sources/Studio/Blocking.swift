import Dispatch
import Synchronization

/// Runs async work from a plain thread (a connection's, or the command
/// line's main thread), blocking that thread until it ends. Never call it on
/// the concurrency pool: the studio's handlers run there, and a blocked pool
/// thread is one fewer for them.
public enum Blocking {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        // The task stored its value before signalling.
        return result.withLock { $0 }!
    }
}
