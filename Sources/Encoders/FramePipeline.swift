import Primitives

/// Frames flowing from the caller (the compositor's loop) to encoder threads
/// through a fixed set of frame buffers.
///
/// Why: encoding a 1080p frame takes about as long as compositing one, so
/// the two should overlap; and a render of any length must use the same
/// memory. The caller hands a frame over and goes on compositing the next
/// while a worker encodes; when every buffer is taken the caller waits, so
/// at most `buffers` frames exist here whatever the clip's length, and
/// nothing is allocated per frame.
///
/// With one worker, frames are encoded in order (a video). With several,
/// each frame is encoded independently, in any order (a PNG sequence).
final class FramePipeline: @unchecked Sendable {
    /// Why a submit or drain was refused without a worker failing.
    enum Stopped: Error { case cancelled, closed }

    typealias Work = @Sendable (_ frame: Bitmap, _ index: Int) throws -> Void

    private let condition = ConditionLock()
    // Everything below is guarded by `condition`.
    private var free: [Bitmap]
    private var queue: [(index: Int, frame: Bitmap)] = []
    private var queueHead = 0
    private var busy = 0
    private var failure: (any Error)?
    private var stopped = false
    private var closing = false
    private var nextIndex = 0

    /// Serializes joining, so a second caller of `cancel` or `drain` returns
    /// only once the workers really stopped.
    private let joinLock = ConditionLock()
    private var threads: [WorkerThread] = []

    let width: Int
    let height: Int

    /// Starts `workers` threads running `work` and allocates `buffers` frames
    /// of `width` x `height` (at least workers + 1, so the caller can fill
    /// one while every worker is busy). `workerNiceness`: see `WorkerThread`.
    init(
        width: Int, height: Int, workers: Int, buffers: Int, name: String, workerNiceness: Int32 = 0,
        work: @escaping Work
    ) {
        self.width = width
        self.height = height
        let workerCount = max(1, workers)
        free = (0 ..< max(buffers, workerCount + 1)).map { _ in Bitmap(width: width, height: height) }
        threads = (0 ..< workerCount).map { number in
            WorkerThread(name: workerCount == 1 ? name : "\(name)-\(number)", niceness: workerNiceness) {
                // Strong: the owner cancels or drains, which ends the threads and
                // with them this reference.
                self.runWorker(work)
            }
        }
    }

    deinit {
        cancel()
    }

    /// Copies `frame` into a free buffer (waiting for one) and queues it.
    func submit(copying frame: Bitmap) throws {
        var buffer = try takeFreeBuffer()
        // `buffer` is the only reference to its storage, so this writes in place.
        buffer.pixels.withUnsafeMutableBytes { target in
            frame.pixels.withUnsafeBytes { source in target.copyMemory(from: source) }
        }
        try enqueue(buffer)
    }

    /// Queues `frame` itself and returns a free buffer of the same size for
    /// the caller's next frame (its pixels are an earlier frame's). No copy.
    func submit(exchanging frame: Bitmap) throws -> Bitmap {
        let recycled = try takeFreeBuffer()
        try enqueue(frame)
        return recycled
    }

    /// Waits until every queued frame is encoded and the workers have exited.
    /// Throws the first worker error, or `Stopped` if cancelled.
    func drain() throws {
        condition.lock()
        closing = true
        condition.broadcast()
        while (queueHead < queue.count || busy > 0) && !stopped {
            condition.wait()
        }
        let error = failure
        let cancelled = stopped
        condition.unlock()
        joinWorkers()
        if let error { throw error }
        if cancelled { throw Stopped.cancelled }
    }

    /// Drops queued frames, lets each worker finish the frame in hand and
    /// waits for them to exit. Safe from any thread, more than once.
    func cancel() {
        condition.withLock {
            stopped = true
            queue.removeAll()
            queueHead = 0
            condition.broadcast()
        }
        joinWorkers()
    }

    // MARK: Internals

    private func takeFreeBuffer() throws -> Bitmap {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !stopped && !closing {
            condition.wait()
        }
        if let failure { throw failure }
        if stopped { throw Stopped.cancelled }
        if closing { throw Stopped.closed }
        return free.removeLast()
    }

    private func enqueue(_ frame: Bitmap) throws {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        if stopped { throw Stopped.cancelled }
        if closing { throw Stopped.closed }
        queue.append((nextIndex, frame))
        nextIndex += 1
        condition.broadcast()
    }

    private func runWorker(_ work: Work) {
        condition.lock()
        while true {
            while queueHead == queue.count && !stopped && !closing {
                condition.wait()
            }
            if stopped || queueHead == queue.count { break }
            // Move the frame out of the queue so that, once encoded and put
            // back on the free list, nothing else holds its storage and the
            // caller can write into it without a copy-on-write.
            var item: (index: Int, frame: Bitmap)? = queue[queueHead]
            queue[queueHead].frame = Self.empty
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            busy += 1
            condition.unlock()

            var error: (any Error)?
            do {
                try work(item!.frame, item!.index)
            } catch let caught {
                error = caught
            }

            condition.lock()
            busy -= 1
            if let error, failure == nil {
                failure = error
                stopped = true
                queue.removeAll()
                queueHead = 0
            }
            free.append(item.take()!.frame)
            condition.broadcast()
        }
        condition.unlock()
    }

    private func joinWorkers() {
        joinLock.withLock {
            for thread in threads { thread.join() }
            threads.removeAll()
        }
    }

    private static let empty = Bitmap(width: 0, height: 0)
}
