import Primitives

/// What one output format does with frames, behind `StreamingEncoder`,
/// which owns the threads, the temporary output and the lifecycle.
///
/// `consume` runs on pipeline worker threads (with several workers,
/// concurrently for different frames); `complete` and `abandon` run on the
/// caller's thread after every worker has stopped, so a sink needs no locks
/// of its own unless its frames share state. `interrupt` is the exception:
/// it comes from any thread, at any moment.
protocol FrameSink: AnyObject, Sendable {
    /// Encodes frame `index` (0, 1, 2... in submission order) into the
    /// temporary output. Throws `EncoderError`.
    func consume(_ frame: Bitmap, index: Int) throws

    /// Makes the temporary output complete (flush, trailer, a second pass)
    /// after all `frameCount` frames were consumed. Long loops poll
    /// `isCancelled` and throw when it turns true.
    func complete(frameCount: Int, isCancelled: () -> Bool) throws

    /// Closes whatever is open after a failure or cancel; the temporary
    /// output is removed afterwards by its `AtomicOutput`.
    func abandon()

    /// Makes a `consume` or `complete` in progress on another thread, and any
    /// later one, throw soon (within a packet, an I/O buffer or a frame), so
    /// that a cancel is not held up by a codec's flush or a second pass.
    /// Called from any thread, possibly more than once.
    func interrupt()
}

extension FrameSink {
    /// For sinks whose every step is short (a PNG frame), `isCancelled` suffices.
    func interrupt() {}
}
