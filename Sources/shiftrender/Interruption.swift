import Foundation
import OutputFiles
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns INT, TERM, HUP (a closing terminal), PIPE and QUIT into a cancel of
/// the running work, whatever stage it is in: the library polls the
/// cancellation between frames, and the encoder's flush and second pass give
/// way within a codec call. Should the work not have wound up a moment later
/// (a codec call that does not return), a watchdog removes every temporary
/// output and exits with 128 + N itself, so a signal is never ignored.
///
/// The handler only writes the signal's number to a pipe (all a handler may
/// safely do); a thread reading the pipe does the rest. Dispatch signal
/// sources, tried first, never saw a SIGPIPE the parent had set to be
/// ignored, and the Swift runtime's own handler turned SIGQUIT into a crash
/// report and carried on.
final class Interruption {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT]
    /// How long cooperative cancelling may take before the watchdog exits.
    static let grace = 0.8

    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    let cancellation = RenderCancellation()
    private let received = Received()

    /// Installs the handlers (once per process). `cleanup` runs on the
    /// watchdog's path, right before it exits; it must not wait on locks the
    /// stuck work may hold (the default removes every temporary output,
    /// trying its lock only briefly).
    init(cleanup: @escaping @Sendable () -> Void = { AtomicOutput.removeAllTemporaries() }) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipe = ends[1]
        // A process started by another may inherit these signals blocked (a
        // test runner's children do): unblock them, or they would wait forever.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        let received = self.received
        let cancellation = self.cancellation
        let readEnd = ends[0]
        let watcher = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let signal = Int32(byte)
                guard received.signal.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged
                else { continue }
                cancellation.cancel()
                Thread.sleep(forTimeInterval: Self.grace)
                cleanup()
                FileHandleStderr.write("shiftrender: error: interrupted (signal \(signal)); nothing was written\n")
                _exit(128 + signal)
            }
        }
        watcher.start()
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.signal.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }
}

/// The pipe's write end, for the signal handler (a C function pointer cannot capture).
nonisolated(unsafe) private var signalPipe: Int32 = -1
