import ArgumentParser
import Foundation
import OutputFiles
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns INT, TERM, HUP (a closing terminal), PIPE and QUIT into a stop of
/// the running work, whatever stage it is in, within a second, with exit
/// 128 + N and a message saying what was written.
///
/// The handlers are installed first thing in `main` (`install()`), before the
/// arguments are parsed: no signal finds the process without them. What a
/// signal does:
///
/// 1. The handler itself records the signal and closes the commit gate
///    (`AtomicOutput.stopCommits()`, an atomic store). The rule: an output
///    whose commit had not begun when the signal came is never put in place
///    (its temporary is removed); one committed before still is, and the
///    message names it. No output is ever in place unexplained.
/// 2. A thread woken through a pipe starts a watchdog at once: `grace`
///    seconds after the signal it removes every temporary output and exits
///    with 128 + N itself, whatever the work is doing (a codec call that
///    does not return).
/// 3. That thread then cancels the work: the library polls the cancellation
///    between frames, and the encoder's flush and second pass give way within
///    a codec call. A command that winds up first reports and exits the same way.
///
/// The exit itself (`exit(_:)`) decides atomically against the handler: a
/// signal recorded before the process settled its exit code turns that code
/// into 128 + N with the message, even when it came after the last output was
/// written; the handler ignores one that comes after (the process is then in
/// its last instruction). So a signal is never lost at the edges.
///
/// Dispatch signal sources, tried first, never saw a SIGPIPE the parent had
/// set to be ignored, and the Swift runtime's own handler turned SIGQUIT into
/// a crash report and carried on.
///
/// A value of this type is a handle on the process's one state: every
/// `Interruption()` sees the same signal and the same cancellation.
struct Interruption {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT]
    /// How long after the signal cooperative cancelling may take before the
    /// watchdog exits; the rest of the second is for its cleanup and exit on
    /// a loaded machine.
    static let grace = 0.4

    /// The cancellation every stage of the running command polls.
    var cancellation: RenderCancellation { InterruptionState.shared.cancellation }

    /// Installs the handlers (the first call; later ones do nothing). Call it
    /// before anything else the process does.
    static func install() {
        _ = InterruptionState.shared
    }

    /// Runs `action` if the watchdog ends the process (before its message),
    /// e.g. removing an empty folder the command made. It must not wait on
    /// locks stuck work may hold.
    func onEmergencyExit(_ action: @escaping @Sendable () -> Void) {
        InterruptionState.shared.emergencyActions.withLock { $0.append(action) }
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

    /// Prints why the work stopped (once per process) and returns the exit
    /// code, 128 + N, when a signal has come; nil when none has. For the end
    /// of a command that did its work: a signal that came after the last
    /// output was put in place still ends the process as interrupted, naming
    /// what was written.
    func report() -> ExitCode? {
        guard let signal else { return nil }
        if InterruptionState.shared.claimMessage() {
            printError(Self.message(signal: signal, written: AtomicOutput.committedOutputs()))
        }
        return ExitCode(128 + signal)
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = handlerState.load(ordering: .sequentiallyConsistent)
        return value > 0 ? value : nil
    }

    /// Ends the process with `code`, or with 128 + N and the message when a
    /// signal came before the exit code was settled. `signalEndsNormally`: a
    /// command that runs until stopped (the studio) takes the signal as its
    /// normal end, and its own code stands.
    static func exit(_ code: ExitCode, signalEndsNormally: Bool = false) -> Never {
        fflush(nil)
        let state = InterruptionState.shared
        // The watchdog is already ending the process; let it.
        guard state.claimExit() else { while true { pause() } }
        let settled = handlerState.compareExchange(
            expected: 0, desired: settledExitCode, ordering: .sequentiallyConsistent)
        if !settled.exchanged, !signalEndsNormally, let exit = Interruption().report() {
            fflush(nil)
            _exit(exit.rawValue)
        }
        _exit(code.rawValue)
    }
}

/// The process-wide part: the cancellation, the pipe to the watcher thread,
/// who prints the message and who exits.
private final class InterruptionState: Sendable {
    static let shared = InterruptionState()

    let cancellation = RenderCancellation()
    let emergencyActions = Mutex<[@Sendable () -> Void]>([])
    private let messageClaimed = Atomic<Bool>(false)
    private let exitClaimed = Atomic<Bool>(false)

    /// True for the one caller that prints the signal's message.
    func claimMessage() -> Bool {
        messageClaimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    /// True for the one caller (the main thread or the watchdog) that ends the process.
    func claimExit() -> Bool {
        exitClaimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    private init() {
        // Touched here, not first in a handler: a global's lazy initialisation is not for signal handlers.
        _ = handlerState.load(ordering: .relaxed)
        _ = AtomicOutput.commitsStopped
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipe = ends[1]
        Self.startWatcher(readEnd: ends[0], state: self)
        for signal in Interruption.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Async-signal-safe only: an atomic exchange, an atomic store, write(2).
                let saved = errno
                defer { errno = saved }
                guard handlerState.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged
                else { return }  // a later signal, or one after the exit code was settled
                AtomicOutput.stopCommits()
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // A process started by another may inherit these signals blocked (a
        // test runner's children do): unblock them, or they would wait forever.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Interruption.signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The thread that acts on the first signal: the watchdog, then the cancellation.
    private static func startWatcher(readEnd: Int32, state: InterruptionState) {
        let watcher = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {
                guard errno == EINTR else { return }
            }
            let signal = Int32(byte)
            let deadline = Date(timeIntervalSinceNow: Interruption.grace)
            let watchdog = Thread { state.emergencyExit(signal: signal, at: deadline) }
            watchdog.start()
            state.cancellation.cancel()
        }
        watcher.start()
    }

    /// The watchdog: at `deadline`, unless the main thread is already exiting,
    /// removes every temporary output, says why and exits with 128 + `signal`.
    private func emergencyExit(signal: Int32, at deadline: Date) {
        Thread.sleep(until: deadline)
        guard claimExit() else { return }
        // Asked before the cleanup; a commit that is still under way after the
        // grace (a file set of many files) is not waited for.
        let written = AtomicOutput.committedOutputs(patience: 50)
        AtomicOutput.removeAllTemporaries()
        let actions = emergencyActions.withLockIfAvailable { $0 } ?? []
        for action in actions { action() }
        if claimMessage() {
            FileHandleStderr.write("shiftrender: error: \(Interruption.message(signal: signal, written: written))\n")
        } else {
            usleep(50_000)  // the command is printing it
        }
        _exit(128 + signal)
    }
}

/// 0 until a signal comes, then its number; `settledExitCode` once the main
/// thread has settled the exit code with no signal. Written by the handler.
private let handlerState = Atomic<Int32>(0)
private let settledExitCode: Int32 = -1

/// The pipe's write end, for the signal handler (a C function pointer cannot capture).
nonisolated(unsafe) private var signalPipe: Int32 = -1
