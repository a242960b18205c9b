/// The one thread that calls a `VideoWriter`, so that the threads that want
/// its work done can stop waiting for it.
///
/// Why: a codec call cannot be cut short. At x264's slow presets one call
/// (a frame, or the look-ahead's analysis of a batch) runs for about a second
/// on a quiet machine and for several on a busy one, and the interrupt flag is
/// only seen between packets. A cancel that waited for the call in hand (as
/// the encoders did when they called the writer on their own threads) took
/// as long as that call; here `interrupt` wakes every waiting caller at once,
/// the call in hand finishes on this thread, nobody waiting for it, and the
/// writer is closed after it. The price is one hand-over per call, two thread
/// wake-ups per frame, which is nothing beside a frame's encoding.
///
/// The writer is alive from `hold` until this thread closes it, so
/// `interrupt` from any thread always reaches a live writer (or none yet, and
/// then the writer is interrupted as it arrives: a GIF's is made late).
final class WriterThread: @unchecked Sendable {
    typealias Call = @Sendable (VideoWriter) throws(VideoWriterError) -> Void

    private let name: String
    private let condition = ConditionLock()
    // Guarded by `condition`.
    private var writer: VideoWriter?
    private var interrupted = false
    private var ending = false
    private var pending: Call?
    /// Calls started and calls ended, so a caller knows when its own is done.
    private var started = 0
    private var ended = 0
    private var lastFailure: VideoWriterError?

    init(name: String) {
        self.name = name
    }

    /// Takes `writer` and starts the thread that calls it; interrupts it at
    /// once if `interrupt` came first. One writer: after `end`, or with one
    /// already held, `writer` is closed at once instead.
    func hold(_ writer: VideoWriter) {
        let accepted = condition.withLock {
            guard self.writer == nil, !ending else { return false }
            self.writer = writer
            if interrupted { writer.interrupt() }
            return true
        }
        guard accepted else { return writer.close() }
        WorkerThread.detach(name: name) { self.serve() }
    }

    /// Runs `call` on this thread and waits for it. Throws what it threw, or
    /// "interrupted" as soon as `interrupt` comes (the call goes on, unwatched).
    func perform(_ call: @escaping Call) throws(VideoWriterError) {
        condition.lock()
        defer { condition.unlock() }
        guard writer != nil, !ending else { throw VideoWriterError(message: "the video writer is closed") }
        if interrupted { throw Self.interruption }
        pending = call
        started += 1
        let mine = started
        condition.broadcast()
        while ended < mine && !interrupted {
            condition.wait()
        }
        if ended < mine { throw Self.interruption }
        if let failure = lastFailure {
            lastFailure = nil
            throw failure
        }
    }

    /// Makes a `perform` in progress, and every later one, throw at once, and
    /// the writer's call in hand stop at its next packet or I/O buffer. From
    /// any thread, at any moment, more than once.
    func interrupt() {
        condition.withLock {
            interrupted = true
            writer?.interrupt()
            condition.broadcast()
        }
    }

    /// Closes the writer once the call in hand (if any) returns, on this
    /// thread, and ends it; waits for nothing. A writer already finished
    /// closes at once; an unfinished one is closed without a trailer.
    func end() {
        condition.withLock {
            ending = true
            condition.broadcast()
        }
    }

    // MARK: Internals

    private static let interruption = VideoWriterError(message: "interrupted")

    private static func failure(of call: Call, on writer: VideoWriter) -> VideoWriterError? {
        do throws(VideoWriterError) {
            try call(writer)
            return nil
        } catch {
            return error
        }
    }

    private func serve() {
        condition.lock()
        while true {
            while pending == nil && !ending {
                condition.wait()
            }
            // A call its caller stopped waiting for is not started.
            if interrupted { pending = nil }
            // `call`, and what it captured (a frame's pixels), is let go at the
            // end of this pass, before `wait` gives up the lock and its caller
            // returns that buffer to be written in place.
            guard let call = pending.take(), let writer else {
                if ending { break } else { continue }
            }
            condition.unlock()
            let failure = Self.failure(of: call, on: writer)
            condition.lock()
            ended += 1
            // Nobody waits for an interrupted call's failure: it is the interrupt's echo.
            lastFailure = interrupted ? nil : failure
            condition.broadcast()
        }
        let closing = writer
        writer = nil
        condition.unlock()
        closing?.close()
    }
}
