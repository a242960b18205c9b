import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `shiftrender studio SCENE --port 0` in a process of its own, for the tests
/// that talk to the studio only over HTTP.
///
/// Why not a `StudioServer` in this process: the server's tasks run on Swift's
/// cooperative pool, as wide as the machine has cores (two here), and the whole
/// test suite shares it. Synchronous tests hold its threads while they render or
/// wait for a child, and the pool takes jobs first in, first out whatever their
/// priority, so a request could wait behind every test queued before it: CI saw
/// 30 s pass without an answer. A process of its own has a pool of its own, as
/// the studio has when a person runs it.
final class StudioProcess: @unchecked Sendable {
    let port: Int
    private let child: ChildProcess

    init(scene: String) async throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw RawHTTPError(description: "pipe: errno \(errno)") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Not inherited by other children (dup2 gives the studio its own copy as standard output).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        do {
            child = try ChildProcess(Self.shiftrender, ["studio", scene, "--port", "0"], output: writeEnd)
        } catch {
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        do {
            port = try await RawHTTP.offPool { try Self.readPort(from: readEnd) }
        } catch {
            child.stopBlocking()
            throw error
        }
    }

    deinit { child.stopBlocking() }

    /// SIGTERM (the studio stops within a second), SIGKILL after 2 s.
    func stop() async { await child.stop() }

    /// The built `shiftrender`, beside the test bundle in the build folder.
    static var shiftrender: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("shiftrender").path
    }

    /// The port of the `studio: http://127.0.0.1:PORT/` line, waiting up to two minutes for it.
    private static func readPort(from descriptor: Int32) throws -> Int {
        let deadline = Date(timeIntervalSinceNow: 120)
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: printed, as: UTF8.self)
            if let range = text.range(of: #"http://127\.0\.0\.1:([0-9]+)/"#, options: .regularExpression),
                let port = Int(text[range].dropFirst("http://127.0.0.1:".count).dropLast())
            {
                return port
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw RawHTTPError(description: "the studio printed no URL (it printed \(text.debugDescription))")
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 {
                // Only the child holds the write end: an end of file means it exited.
                throw RawHTTPError(description: "the studio exited before printing its URL (it printed \(text.debugDescription))")
            }
            printed += buffer[..<count]
        }
    }
}
