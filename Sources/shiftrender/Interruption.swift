import Dispatch
import OutputFiles
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns INT, TERM, HUP (a closing terminal), PIPE and QUIT into a cancel of
/// the running work, whatever stage it is in: the library polls the
/// cancellation between frames, and the encoder's flush and second pass give
/// way within a frame. Should the work not have wound up a moment later (a
/// codec call that does not return), a watchdog removes every temporary
/// output and exits with 128 + N itself, so a signal is never ignored.
final class Interruption {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT]
    /// How long cooperative cancelling may take before the watchdog exits.
    static let grace: DispatchTimeInterval = .milliseconds(800)

    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    let cancellation = RenderCancellation()
    private let received = Received()
    private let sources: [any DispatchSourceSignal]

    /// Installs the handlers. `cleanup` runs on the watchdog's path, right
    /// before it exits; it must not wait on locks the stuck work may hold
    /// (the default removes every temporary output, trying its lock only briefly).
    init(cleanup: @escaping @Sendable () -> Void = { AtomicOutput.removeAllTemporaries() }) {
        let received = self.received, cancellation = self.cancellation
        sources = Self.signals.map { signal in
            // Ignored, so the default action (termination, QUIT's core dump) never
            // runs; the dispatch source still sees every delivery.
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                guard received.signal.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged
                else { return }
                cancellation.cancel()
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) {
                    cleanup()
                    FileHandleStderr.write("shiftrender: error: interrupted (signal \(signal)); nothing was written\n")
                    _exit(128 + signal)
                }
            }
            source.resume()
            return source
        }
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.signal.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }
}
