import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Signals at the edges of a run: in its first instant and as it finishes.
///
/// Each case freezes the process at some instant with SIGSTOP, looks at what
/// it is then (exited already, or stopped, with or without handlers), sends
/// SIGTERM and lets it go on. A process stopped before it ended must exit
/// 128 + 15 with the message, and an output that changed must be named by
/// it; only one whose handlers were not in place yet (the dynamic loader's
/// first milliseconds) may die of the signal itself.
@Suite(.serialized) struct SignalEdgeEndToEndTests {
    struct Run {
        /// What the process was when frozen: "exited", "no handlers" or "stopped".
        var stage: String
        var status: Int32
        var killedBySignal: Int32?
        var stderr: String
    }

    /// When to freeze the process.
    enum Moment {
        /// Seconds after it was started.
        case after(Double)
        /// As soon as its SIGTERM handler is seen in place.
        case whenCaught
        /// As soon as the condition holds (polled without pause, for at most 20 s).
        case when(() -> Bool)
    }

    /// Spawns shiftrender (stdout to /dev/null, stderr to a file), freezes it
    /// at `moment`, sends SIGTERM, continues it and waits for its end.
    static func freezeAndSignal(_ arguments: [String], at moment: Moment, stderrFile: String) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([CommandRunner.shiftrender] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Started as a shell starts it: no signal blocked or ignored (a test runner's threads block some).
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
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, CommandRunner.shiftrender, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        let end = Date(timeIntervalSinceNow: 20)
        switch moment {
        case .after(let delay): usleep(useconds_t(delay * 1e6))
        case .whenCaught: while !catchesTerm(pid) && processState(pid) != "Z" && Date() < end {}
        case .when(let ready): while !ready() && processState(pid) != "Z" && Date() < end {}
        }
        kill(pid, SIGSTOP)
        var stage = "exited"
        for _ in 0 ..< 5000 {
            let state = processState(pid)
            if state == "Z" || state == nil { break }
            if state == "T" {
                stage = catchesTerm(pid) ? "stopped" : "no handlers"
                break
            }
            usleep(1000)
        }
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
        let signalled = status & 0x7F
        return Run(
            stage: stage, status: signalled == 0 ? (status >> 8) & 0xFF : -1, killedBySignal: signalled == 0 ? nil : signalled,
            stderr: text)
    }

    /// The state letter of `/proc/PID/stat` (R, S, T, Z...), nil when gone.
    static func processState(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// True when the process has a handler for SIGTERM (`SigCgt` in `/proc/PID/status`).
    static func catchesTerm(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(SIGTERM - 1)) != 0
    }

    /// Checks one run that wrote (or not) `target`, earlier holding `earlier`.
    static func expectExplained(_ run: Run, target: URL, earlier: Data, offset: Double) {
        let current = try? Data(contentsOf: target)
        let changed = current != earlier
        let context = "at \(offset) s, \(run.stage): status \(run.status), signal \(run.killedBySignal ?? 0), \(run.stderr)"
        switch run.stage {
        case "exited":
            // It ended before it was frozen: a normal run.
            #expect(run.status == 0 && changed && !run.stderr.contains("interrupted"), "\(context)")
        case "no handlers":
            #expect(run.killedBySignal == SIGTERM && !changed, "\(context)")
        default:
            #expect(run.status == 128 + SIGTERM, "\(context)")
            if changed {
                #expect(run.stderr.contains("interrupted (signal 15) after '\(target.path)' was written; nothing else was"), "\(context)")
                #expect(current?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "\(context)")
            } else {
                #expect(run.stderr.contains("interrupted (signal 15); nothing was written"), "\(context)")
            }
        }
    }

    @Test("A signal at any instant of a short render, its first and last included: 128 + 15 and the message, every time")
    func signalsAtEveryInstant() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try redToBlueScene.write(to: scene, atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("still.png")
        let earlier = Data("an earlier still".utf8)
        let arguments = [scene.path, "-o", target.path, "-y", "--at", "0.2"]
        // How long a whole run takes here, unsignalled: the offsets span it and a little more.
        let started = Date()
        let plain = try CommandRunner.run(CommandRunner.shiftrender, arguments)
        #expect(plain.status == 0, "\(plain.stderr)")
        let duration = Date().timeIntervalSince(started)
        // Offsets spread over the run, a round of 30 and more until enough runs were caught mid-way (a
        // loaded machine stretches the program's loading, where no handler is in place yet): at most 90 runs.
        let offsetsPerRound = 30
        let wanted = 8
        var stages: [String: Int] = [:]
        for index in 0 ..< 3 * offsetsPerRound where index < offsetsPerRound || (stages["stopped"] ?? 0) < wanted {
            try earlier.write(to: target)
            let offset = duration * 1.3 * Double(index % offsetsPerRound) / Double(offsetsPerRound - 1)
            let run = try Self.freezeAndSignal(
                arguments, at: .after(offset), stderrFile: dir.appendingPathComponent("stderr.txt").path)
            Self.expectExplained(run, target: target, earlier: earlier, offset: offset)
            stages[run.stage, default: 0] += 1
            #expect(!CommandRunner.contents(dir).contains { $0.contains(".partial-") })
        }
        // The loop must have caught the process stopped mid-run, not only before or after it.
        #expect((stages["stopped"] ?? 0) >= wanted, "\(stages)")
    }

    @Test("A signal right after the output was put in place: 128 + 15, and the message names the output")
    func signalRightAfterTheCommit() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try redToBlueScene.write(to: scene, atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("still.png")
        let earlier = Data("an earlier still".utf8)
        var caught = 0
        for _ in 0 ..< 10 {
            try earlier.write(to: target)
            var info = stat()
            stat(target.path, &info)
            let earlierInode = info.st_ino
            // Frozen the moment the finished still is renamed over the earlier one.
            let renamed = { () -> Bool in
                var now = stat()
                return stat(target.path, &now) == 0 && now.st_ino != earlierInode
            }
            let run = try Self.freezeAndSignal(
                [scene.path, "-o", target.path, "-y", "--at", "0.2"], at: .when(renamed),
                stderrFile: dir.appendingPathComponent("stderr.txt").path)
            Self.expectExplained(run, target: target, earlier: earlier, offset: -1)
            if run.stage == "stopped" { caught += 1 }
        }
        #expect(caught >= 5, "caught between its last rename and its exit only \(caught) times of 10")
    }

    @Test(
        "A signal as soon as the handlers are in place ends every command with its message",
        arguments: [["validate"], ["info"], ["verify", "--golden", "goldens"], ["render", "-o", "out.mp4"]])
    func signalInTheFirstInstant(command: [String]) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try redToBlueScene.write(to: scene, atomically: true, encoding: .utf8)
        let arguments = [command[0], scene.path] + command.dropFirst().map { $0 == "goldens" || $0 == "out.mp4" ? dir.path + "/" + $0 : $0 }
        let stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("edge-\(UUID().uuidString).txt").path
        defer { unlink(stderrFile) }
        // A run may end before it is frozen (nothing to check then): a few tries catch one mid-way.
        var caught = 0
        for _ in 0 ..< 5 where caught == 0 {
            let run = try Self.freezeAndSignal(arguments, at: .whenCaught, stderrFile: stderrFile)
            guard run.stage == "stopped" else { continue }
            caught += 1
            #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
            #expect(run.stderr.contains("interrupted (signal 15); nothing was written"), "\(run.stderr)")
            #expect(CommandRunner.contents(dir) == ["scene.json"])
        }
        #expect(caught == 1, "the process was never caught with its handlers in place")
    }
}
