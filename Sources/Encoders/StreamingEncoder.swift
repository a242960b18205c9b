import Primitives
import Synchronization

/// The part every encoder shares: frames go through a `FramePipeline` to a
/// `FrameSink` writing a temporary output (`AtomicOutput`), which `finish()`
/// completes and renames into place and anything else removes.
///
/// Thread safety: `append`, `exchange` and `finish` come from one thread (the
/// render loop); `cancel` may come from any thread at any time, including
/// while that thread is blocked in `append` or busy in `finish`. The
/// `lifecycle` lock makes "complete and commit" and "abandon and discard"
/// exclusive. So that `cancel` does not wait for a whole drain (x264's
/// look-ahead flush at a slow preset runs for many seconds), it first raises
/// `cancelled` and interrupts the sink: the encoder thread's frame and the
/// finishing thread's flush, trailer or second pass stop at their next
/// packet, I/O buffer or frame, and only then does `cancel` wait for them.
final class StreamingEncoder: @unchecked Sendable {
    let path: String
    let width: Int
    let height: Int
    /// "video", "GIF", "sequence": what messages call the output.
    private let noun: String
    private let sink: any FrameSink
    private let pipeline: FramePipeline
    private let lifecycle = ConditionLock()
    // Guarded by `lifecycle`.
    private var output: AtomicOutput?
    private var failure: String?
    private let cancelled = Atomic<Bool>(false)
    /// Frames accepted; touched only by the appending thread.
    private(set) var frameCount = 0

    init(
        path: String, width: Int, height: Int, noun: String, output: AtomicOutput, sink: any FrameSink,
        workers: Int, buffers: Int, threadName: String, workerNiceness: Int32 = 0
    ) {
        self.path = path
        self.width = width
        self.height = height
        self.noun = noun
        self.output = output
        self.sink = sink
        pipeline = FramePipeline(
            width: width, height: height, workers: workers, buffers: buffers,
            name: threadName, workerNiceness: workerNiceness
        ) { frame, index in
            try sink.consume(frame, index: index)
        }
    }

    deinit {
        cancel()
    }

    func append(_ frame: Bitmap) throws {
        try checkFrame(frame)
        do {
            try pipeline.submit(copying: frame)
        } catch {
            throw failed(error)
        }
        frameCount += 1
    }

    func exchange(_ frame: Bitmap) throws -> Bitmap {
        try checkFrame(frame)
        let recycled: Bitmap
        do {
            recycled = try pipeline.submit(exchanging: frame)
        } catch {
            throw failed(error)
        }
        frameCount += 1
        return recycled
    }

    func finish() throws {
        try checkOpen()
        guard frameCount > 0 else {
            throw fail(.misuse, "no frames were appended; a \(noun) needs at least one")
        }
        do {
            try pipeline.drain()
        } catch {
            throw failed(error)
        }
        lifecycle.lock()
        defer { lifecycle.unlock() }
        if isCancelled {
            discardLocked(reason: nil)
            throw EncoderError.cancelled(path: path)
        }
        guard let output else {
            throw EncoderError.noMoreFrames(path: path, earlierFailure: failure)
        }
        do {
            try sink.complete(frameCount: frameCount, isCancelled: { isCancelled })
            if isCancelled { throw EncoderError.cancelled(path: path) }
        } catch {
            // An interrupted flush fails with the shim's "interrupted": say why.
            let cancelled = isCancelled
            discardLocked(reason: cancelled ? nil : (error as? EncoderError)?.reason ?? "\(error)")
            throw cancelled ? EncoderError.cancelled(path: path) : error
        }
        do {
            try output.commit()
        } catch {
            // commit() removed the temporary output itself.
            self.output = nil
            failure = (error as? EncoderError)?.reason ?? "\(error)"
            throw error
        }
        self.output = nil
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        sink.interrupt()
        pipeline.cancel()
        lifecycle.withLock { discardLocked(reason: nil) }
    }

    // MARK: Internals

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    private func checkOpen() throws {
        if isCancelled { throw EncoderError.cancelled(path: path) }
        try lifecycle.withLock {
            if output == nil {
                throw EncoderError.noMoreFrames(path: path, earlierFailure: failure)
            }
        }
    }

    private func checkFrame(_ frame: Bitmap) throws {
        try checkOpen()
        guard frame.width == width, frame.height == height, frame.pixels.count == width * height * 4 else {
            throw fail(
                .frameMismatch,
                "frame \(frameCount) is \(frame.width)x\(frame.height) "
                    + "(\(frame.pixels.count) bytes); this \(noun) is \(width)x\(height)")
        }
    }

    /// Stops everything, removes the temporary output and returns the error to throw.
    private func fail(_ kind: EncoderError.Kind, _ reason: String) -> EncoderError {
        pipeline.cancel()
        lifecycle.withLock { discardLocked(reason: reason) }
        return EncoderError(kind, path: path, reason: reason)
    }

    /// The error to throw for a pipeline failure: "cancelled" when `cancel`
    /// stopped it (a worker's error is then only the interrupt's echo), else
    /// a worker's `EncoderError`, or "no more frames" after an earlier failure.
    private func failed(_ error: any Error) -> any Error {
        if isCancelled {
            pipeline.cancel()
            lifecycle.withLock { discardLocked(reason: nil) }
            return EncoderError.cancelled(path: path)
        }
        if let encoderError = error as? EncoderError {
            pipeline.cancel()
            lifecycle.withLock { discardLocked(reason: encoderError.reason) }
            return encoderError
        }
        if error is FramePipeline.Stopped {
            pipeline.cancel()
            lifecycle.withLock { discardLocked(reason: nil) }
            return lifecycle.withLock { EncoderError.noMoreFrames(path: path, earlierFailure: failure) }
        }
        return fail(.writeFailed, "\(error)")
    }

    /// With `lifecycle` held and the workers stopped: closes the sink and
    /// removes the temporary output, once.
    private func discardLocked(reason: String?) {
        guard let output else { return }
        sink.abandon()
        output.discard()
        self.output = nil
        if failure == nil { failure = reason }
    }
}

/// An encoder whose frames flow through a `StreamingEncoder`: the frame-passing
/// calls are the core's, so each format writes only its setup and its sink.
protocol StreamingFrameEncoder: FrameEncoder {
    var core: StreamingEncoder { get }
}

extension StreamingFrameEncoder {
    public func append(_ frame: Bitmap) throws { try core.append(frame) }
    public func exchange(_ frame: Bitmap) throws -> Bitmap { try core.exchange(frame) }
    public func finish() throws { try core.finish() }
    public func cancel() { core.cancel() }
}
