import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with every signal unblocked and at its default.
///
/// Why not Foundation's `Process`: a child inherits the signal mask of the
/// thread that spawns it, and the test runner's threads block almost every
/// signal (a child of `swift test` showed SigBlk fffffffe3bfbea27). Such a
/// chromedriver ignores SIGTERM, and the Chromium it starts never sees
/// SIGCHLD and hangs. posix_spawn can reset both the mask and the handlers.
final class ChildProcess {
    let pid: pid_t
    private var exited = false

    /// Starts `path` with `arguments`, its errors sent to /dev/null and its output
    /// to `output` (a pipe's write end) or /dev/null.
    init(_ path: String, _ arguments: [String], output: Int32? = nil) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw WebDriverError("cannot start \(path): \(String(cString: strerror(result)))") }
        pid = child
    }

    /// Whether it is still running (reaps it once it has exited).
    var isRunning: Bool {
        if exited { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// SIGTERM, then SIGKILL if it is still there after 2 s; returns once it is gone.
    func stop() async {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<40 where isRunning { try? await Task.sleep(nanoseconds: 50_000_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
        }
    }

    /// `stop()` for a place that cannot wait asynchronously (a deinit): blocks the thread up to 2 s.
    func stopBlocking() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<200 where isRunning { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
        }
    }
}
