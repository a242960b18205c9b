import ArgumentParser
import Foundation
import OutputFiles
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns INT, TERM, HUP (a closing terminal), PIPE and QUIT into a stop of
/// the running work, whatever stage it is in, within a second:
///
/// 1. No output is put in place from the signal on (`AtomicOutput.stopCommits()`):
///    a rename under way finishes, none starts. What was written before is
///    then known for certain, and the message says so.
/// 2. A watchdog is started at once: `grace` seconds after the signal it
///    removes every temporary output and exits with 128 + N itself, whatever
///    the work is doing (a codec call that does not return).
/// 3. The work is cancelled: the library polls the cancellation between
///    frames, and the encoder's flush and second pass give way within a
///    codec call. Cancelling waits for the encoder's workers to finish the
///    frame in hand, which is why it comes after the watchdog has started.
///    A render that winds up first reports and exits the same way.
///
/// The handler only writes the signal's number to a pipe (all a handler may
/// safely do); a thread reading the pipe does the rest. Dispatch signal
/// sources, tried first, never saw a SIGPIPE the parent had set to be
/// ignored, and the Swift runtime's own handler turned SIGQUIT into a crash
/// report and carried on.
final class Interruption {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT]
    /// How long after the signal cooperative cancelling may take before the
    /// watchdog exits; the rest of the second is for its cleanup and exit on
    /// a loaded machine.
    static let grace = 0.4

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
                AtomicOutput.stopCommits()
                let deadline = Date(timeIntervalSinceNow: Self.grace)
                let watchdog = Thread {
                    Thread.sleep(until: deadline)
                    // Asked before the cleanup; a commit that is still under way
                    // after the grace (a file set of many files) is not waited for.
                    let written = AtomicOutput.committedOutputs(patience: 50)
                    cleanup()
                    FileHandleStderr.write("shiftrender: error: \(Self.message(signal: signal, written: written))\n")
                    _exit(128 + signal)
                }
                watchdog.start()
                cancellation.cancel()
            }
        }
        watcher.start()
    }

    /// What to say when stopped by `signal`, given the outputs written
    /// before it (nil: one was being put in place when the process gave up).
    static func message(signal: Int32, written: [String]?) -> String {
        guard let written else {
            return "interrupted (signal \(signal)) while an output was being put in place; it may be there"
        }
        guard !written.isEmpty else { return "interrupted (signal \(signal)); nothing was written" }
        let names = written.map { "'\($0)'" }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return "interrupted (signal \(signal)) after \(list) \(names.count == 1 ? "was" : "were") written; nothing else was"
    }

    /// Prints why the work stopped and returns the exit code, 128 + N, when a
    /// signal has come; nil when none has. For the end of a command that did
    /// its work: a signal that came after the last output was put in place
    /// still ends the process as interrupted, naming what was written.
    func report() -> ExitCode? {
        guard let signal else { return nil }
        printError(Self.message(signal: signal, written: AtomicOutput.committedOutputs()))
        return ExitCode(128 + signal)
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.signal.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }
}

/// The pipe's write end, for the signal handler (a C function pointer cannot capture).
nonisolated(unsafe) private var signalPipe: Int32 = -1
