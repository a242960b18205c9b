import Synchronization

/// Stops a render from another thread (a signal handler's, a UI's, a task's).
///
/// `cancel()` sets a flag every stage polls (snapshots, each frame, the
/// encoder's flush, a GIF's second pass, a plan's frames) and calls the
/// handlers the running stage registered (the encoder's `cancel`), so a
/// stage blocked inside a codec returns promptly too. A cancelled render
/// throws `RenderError` of kind `.cancelled` and leaves nothing behind.
///
/// `cancel()` returns once the handlers have: the encoder's waits for its
/// workers to finish the frame in hand, which at a slow preset takes
/// seconds. A caller with a deadline (a signal's watchdog) starts its clock
/// before calling it. To stop outputs from being put in place at once, call
/// `AtomicOutput.stopCommits()` (OutputFiles) first.
public final class RenderCancellation: Sendable {
    private struct State {
        var cancelled = false
        var nextToken = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels whatever uses this object now or later. Safe from any thread, more than once.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler() }
    }

    /// Runs `body` with `handler` registered: called at most once, on the
    /// cancelling thread, if `cancel()` comes while `body` runs (or came before).
    /// For work of your own that can be stopped from another thread.
    public func whileRunning<T>(onCancel handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        let token = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        guard let token else {
            handler()
            return try body()
        }
        defer { _ = state.withLock { $0.handlers.removeValue(forKey: token) } }
        return try body()
    }

    /// Throws `RenderError` `.cancelled` once cancelled.
    public func check() throws(RenderError) {
        if isCancelled { throw RenderError.cancelled }
    }
}

/// How far a render has come, for a progress bar.
public struct RenderProgress: Sendable, Equatable {
    public enum Stage: String, Sendable {
        /// Drawing the static content of transient views once.
        case preparing
        /// Compositing and encoding frames.
        case frames
        /// The encoder's flush, trailer or second pass (a GIF's palette mapping).
        case finishing
    }

    public var stage: Stage
    public var framesDone: Int
    public var frameCount: Int
}
