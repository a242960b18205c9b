import ArgumentParser
import Dispatch
import Foundation
import ShiftRender
import Studio

/// `shiftrender studio SCENE`: serves the scene to a browser page and reloads
/// it on every save, until Ctrl-C. A thin shell over `StudioServer`: it turns
/// the server's errors into the tool's messages and exit codes, prints the
/// URL, and stops the server on INT, TERM or HUP through `Interruption`.
///
/// Stopping is a normal end (exit 0), not an interruption: a server runs until
/// stopped. It must beat `Interruption`'s watchdog (0.4 s), which would exit
/// with 128 + N; the server gets a quarter of a second to close and is then
/// left to the process's exit, which closes its sockets anyway.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Serve a live preview of a scene to a browser: scrub, play, see each save redrawn, export.",
        discussion: """
            Serves http://127.0.0.1:7878/ until Ctrl-C. The scene file and its images are watched: a save \
            redraws the page, an invalid save shows its problems and keeps the last good frames.
            Endpoints: GET /frame/N.png, /outlines/N.json, /progress/P.png, /info.json (what `info --json` prints), /events \
            (server-sent events: reload, error, export), POST /export?format=mp4|gif|png (from the page only: it carries \
            the session's token; docs/studio.md).
            """
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(help: "The port to listen on (0: any free port; the URL printed says which).")
    var port: Int = 7878

    @Option(help: "The address to listen on. Anything but loopback makes the page reachable from the network.")
    var host: String = "127.0.0.1"

    @Flag(help: "Open the page in the default browser (xdg-open).")
    var open = false

    func validate() throws {
        guard (0 ... 65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() throws {
        let interruption = Interruption()
        let server: StudioServer
        do {
            server = try StudioServer(scenePath: scene, host: host, port: port)
        } catch {
            throw Self.report(error)
        }
        if let problems = server.session.error {
            printError("\(scene) has errors; the page shows them, and frames come once a save fixes them:")
            for problem in problems.problems where problem.severity == "error" {
                let location = problem.line.map { " (line \($0), column \(problem.column ?? 0))" } ?? ""
                printError("  \(problem.place): \(problem.message)\(location)")
            }
        }
        switch Self.wait({ () async -> Result<Int, StudioError> in
            do throws(StudioError) { return .success(try await server.start()) } catch { return .failure(error) }
        }) {
        case .success: break
        case .failure(let error): throw Self.report(error)
        }
        if server.isExposed {
            printWarning("listening on \(server.host): the studio is reachable from the network, by anyone who can reach this machine")
        }
        let url = server.url ?? ""
        // Written straight to the descriptor: stdout is block-buffered into a pipe, and
        // a script waiting for the URL (or a test) must see it now, not at exit.
        FileHandle.standardOutput.write(Data("studio: \(url)  (Ctrl-C stops it)\n".utf8))
        if open { Self.openInBrowser(url) }

        let stopRequested = DispatchSemaphore(value: 0)
        interruption.cancellation.whileRunning(onCancel: { stopRequested.signal() }) { stopRequested.wait() }
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await server.stop()
            stopped.signal()
        }
        _ = stopped.wait(timeout: .now() + 0.25)
        FileHandleStderr.write("studio: stopped\n")
    }

    /// Prints the error and returns the exit status: a taken port or a bad
    /// address is the caller's to change (usage), the rest is input/output.
    static func report(_ error: StudioError) -> ExitCode {
        printError(error.message)
        switch error {
        case .portTaken, .badHost: return ExitStatus.usage
        case .unreadableScene, .missingResources, .cannotListen: return ExitStatus.inputOutput
        }
    }

    /// Runs `body` on the concurrency pool and blocks this (main) thread until it ends: the CLI's `main` is synchronous.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T { Blocking.run(body) }

    /// `xdg-open URL` when it is on the PATH; a warning otherwise (the URL is printed anyway).
    static func openInBrowser(_ url: String) {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let opener = folders.map({ $0 + "/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            printWarning("--open: xdg-open is not on the PATH; open \(url) yourself")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do {
            try process.run()
        } catch {
            printWarning("--open: cannot run xdg-open (\(error)); open \(url) yourself")
        }
    }
}
