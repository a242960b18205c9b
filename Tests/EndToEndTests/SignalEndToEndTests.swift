import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// INT, TERM, HUP, PIPE and QUIT stop a render promptly at any stage, with
/// exit 128 + N, leaving nothing and an existing target as it was.
@Suite(.serialized) struct SignalEndToEndTests {
    /// A 1080p clip that keeps x264 at veryslow busy for far longer than the test waits.
    static let slowScene = """
        {"version": 1, "canvas": {"width": 1920, "height": 1080}, "fps": 60,
         "transition": {"defaultAnimation": "none", "baselineDuration": 2, "hold": {"after": 20}},
         "from": {"backgroundColor": "#FFFFFF", "subviews": [
           {"frame": [10, 10, 400, 300], "backgroundColor": "#E53935", "cornerRadius": 40, "shift": {"id": "card"},
            "shadow": {"opacity": 0.5, "radius": 30}}]},
         "to": {"backgroundColor": "#202020", "subviews": [
           {"frame": [900, 500, 900, 500], "backgroundColor": "#1E88E5", "cornerRadius": 60, "shift": {"id": "card"}}]}}
        """

    struct Outcome {
        var status: Int32
        /// Seconds from the signal to the process's exit.
        var seconds: Double
        var stderr: String
    }

    /// Starts shiftrender with `arguments`, sends `signal` after `delay` seconds, waits for it to end.
    /// With `when`, the signal goes as soon as that is true instead (polled every millisecond, for at
    /// most a minute, while the process runs).
    static func interrupt(
        _ arguments: [String], with signal: Int32, after delay: Double = 0, when ready: (() -> Bool)? = nil,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.shiftrender)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        // The delay counts from when the handlers are in place: on a loaded machine a debug binary can take
        // longer than the early case's delay to start, and a signal before that is the default action's.
        // (For SIGKILL, which cannot be caught, TERM's handler says the same.)
        waitUntilCaught(signal == SIGKILL ? SIGTERM : signal, by: process.processIdentifier)
        usleep(useconds_t(delay * 1e6))
        if let ready {
            let end = Date(timeIntervalSinceNow: 60)
            while process.isRunning && !ready() && Date() < end { usleep(1000) }
        }
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(sent)
        while !reader.isFinished { usleep(1000) }
        return Outcome(status: process.terminationStatus, seconds: seconds, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Waits (at most 20 s) until `/proc/PID/status` shows a handler for `signal` (its SigCgt mask).
    static func waitUntilCaught(_ signal: Int32, by pid: Int32) {
        for _ in 0 ..< 2000 {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & (1 << UInt64(signal - 1)) != 0
            {
                return
            }
            usleep(10_000)
        }
    }

    @Test(
        "Each signal during a video render: exit 128 + N within a moment, nothing left, the earlier file untouched",
        arguments: [(SIGTERM, 2.0), (SIGINT, 2.0), (SIGHUP, 2.0), (SIGQUIT, 2.0), (SIGPIPE, 2.0), (SIGTERM, 0.3)])
    func videoRender(signal: Int32, delay: Double) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try Self.slowScene.write(to: scene, atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("out.mp4")
        try Data("an earlier render".utf8).write(to: target)
        let outcome = try Self.interrupt([scene.path, "-o", target.path, "-y", "--preset", "veryslow"], with: signal, after: delay)
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(outcome.stderr.contains("interrupted (signal \(signal)); nothing was written"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Backtrac") && !outcome.stderr.contains("crash"), "\(outcome.stderr)")
        #expect(CommandRunner.contents(dir) == ["out.mp4", "scene.json"])
        #expect(try Data(contentsOf: target) == Data("an earlier render".utf8))
    }

    @Test("A signal while a contact sheet is drawn stops it too", arguments: [SIGTERM, SIGHUP])
    func contactSheet(signal: Int32) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // At 4x the sheet's frames are 7680 x 4320: each takes long enough to be caught.
        let scene = try Self.scene(in: dir, scale: 4)
        let outcome = try Self.interrupt(
            [scene.path, "--sheet", dir.appendingPathComponent("sheet.png").path],
            with: signal, after: 1.5)
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(CommandRunner.contents(dir) == ["scene.json"])
    }

    /// The slow scene at `scale` (4: 7680 x 4320 pixels), in `dir`.
    static func scene(in dir: URL, scale: Int) throws -> URL {
        let scene = dir.appendingPathComponent("scene.json")
        try slowScene.replacingOccurrences(of: "\"height\": 1080}", with: "\"height\": 1080, \"scale\": \(scale)}")
            .write(to: scene, atomically: true, encoding: .utf8)
        return scene
    }

    @Test(
        "The watchdog's grace counts from the signal: a frame x264 is busy with does not hold up the exit",
        arguments: [1.5, 2.0, 2.5, 3.0, 3.5, 4.0])
    func busyEncoder(delay: Double) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Photographs keep x264 at veryslow busy for a second or more per call (the look-ahead's
        // analysis, a frame), and cancelling waits for the call in hand: the exit must not.
        let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/bench-transition-1080p.json")
        let target = dir.appendingPathComponent("out.mp4")
        try Data("an earlier render".utf8).write(to: target)
        let outcome = try Self.interrupt(
            [scene.path, "-o", target.path, "-y", "--preset", "veryslow"], with: SIGTERM, after: delay)
        #expect(outcome.status == 128 + SIGTERM, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(outcome.stderr.contains("interrupted (signal 15); nothing was written"), "\(outcome.stderr)")
        #expect(CommandRunner.contents(dir) == ["out.mp4"])
        #expect(try Data(contentsOf: target) == Data("an earlier render".utf8))
    }

    @Test("A signal while a still is encoded and written: no rename comes after it", arguments: [SIGTERM, SIGHUP])
    func stillBeingWritten(signal: Int32) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try Self.scene(in: dir, scale: 4)
        let target = dir.appendingPathComponent("out.png")
        try Data("an earlier still".utf8).write(to: target)
        // The temporary file appears when the picture is drawn: the signal comes while the PNG is
        // encoded and written, right before the commit.
        let outcome = try Self.interrupt(
            [scene.path, "-o", target.path, "-y", "--at", "0.3"], with: signal,
            when: { CommandRunner.contents(dir).contains { $0.hasPrefix(".out.png.partial-") } })
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(outcome.stderr.contains("interrupted (signal \(signal)); nothing was written"), "\(outcome.stderr)")
        #expect(CommandRunner.contents(dir) == ["out.png", "scene.json"])
        #expect(try Data(contentsOf: target) == Data("an earlier still".utf8))
    }

    @Test("A signal after one output was written and before the next: the message names what was written")
    func oneOfTwoOutputs() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try Self.scene(in: dir, scale: 4)
        let still = dir.appendingPathComponent("still.png")
        try Data("an earlier still".utf8).write(to: still)
        // The still is put in place first; the sheet then draws frames of 7680 x 4320 for seconds.
        let outcome = try Self.interrupt(
            [scene.path, "-o", still.path, "-y", "--at", "0", "--sheet", dir.appendingPathComponent("sheet.png").path],
            with: SIGTERM, when: { (try? Data(contentsOf: still)) != Data("an earlier still".utf8) })
        #expect(outcome.status == 128 + SIGTERM, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(
            outcome.stderr.contains("interrupted (signal 15) after '\(still.path)' was written; nothing else was"),
            "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("nothing was written"), "\(outcome.stderr)")
        #expect(CommandRunner.contents(dir) == ["scene.json", "still.png"])
        #expect(try Data(contentsOf: still).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("A partial file left by a killed render is swept by the next render to the same target")
    func stalePartialsAreSwept() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try Self.slowScene.write(to: scene, atomically: true, encoding: .utf8)
        let target = dir.appendingPathComponent("out.mp4")
        let killed = try Self.interrupt([scene.path, "-o", target.path, "--preset", "veryslow"], with: SIGKILL, after: 1.5)
        #expect(killed.status == SIGKILL)
        #expect(CommandRunner.contents(dir).contains { $0.hasPrefix(".out.mp4.partial-") }, "kill -9 leaves its partial")
        let next = try Self.interrupt([scene.path, "-o", target.path, "--preset", "veryslow"], with: SIGTERM, after: 1.5)
        #expect(next.status == 128 + SIGTERM)
        #expect(CommandRunner.contents(dir) == ["scene.json"], "the dead run's partial was swept, the new one removed")
    }

    @Test(
        "verify stops on each signal as render does: 128 + N, its message, nothing half-written in the golden folder",
        arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func verifyRecording(signal: Int32) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 7680 x 4320 frames: each takes seconds to draw and to encode as PNG.
        let scene = try Self.scene(in: dir, scale: 4)
        let goldens = dir.appendingPathComponent("goldens")
        let outcome = try Self.interrupt(["verify", scene.path, "--golden", goldens.path, "--record"], with: signal, after: 1.5)
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(outcome.seconds < 1, "took \(outcome.seconds) s after the signal")
        #expect(outcome.stderr.contains("interrupted (signal \(signal))"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Backtrac") && !outcome.stderr.contains("crash"), "\(outcome.stderr)")
        #expect(!CommandRunner.contents(goldens).contains { $0.contains(".partial-") }, "\(CommandRunner.contents(goldens))")
        #expect(CommandRunner.contents(dir).allSatisfy { $0 == "scene.json" || $0 == "goldens" })
    }

    @Test("verify comparing: a signal ends it with 128 + N and leaves no empty failure folder behind")
    func verifyComparing() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let scene = try Self.scene(in: dir, scale: 4)
        let outcome = try Self.interrupt(
            ["verify", scene.path, "--golden", dir.appendingPathComponent("goldens").path], with: SIGTERM, after: 1.5,
            environment: ["TMPDIR": tmp.path])
        #expect(outcome.status == 128 + SIGTERM, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted (signal 15); nothing was written"), "\(outcome.stderr)")
        #expect(CommandRunner.contents(tmp).isEmpty, "\(CommandRunner.contents(tmp))")
    }
}
