import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `shiftrender studio` as a person runs it: it prints its URL, INT, TERM and
/// HUP stop it within a second with exit 0, a taken port is a usage error
/// naming the port, and another host than loopback is warned about.
/// (StudioTests cover the endpoints in-process.)
@Suite(.serialized) struct StudioEndToEndTests {
    static let scene = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/scenes/example-card.json").path

    /// A running studio and what it has printed so far.
    final class RunningStudio: Sendable {
        let process: Process
        private let out = Mutex(Data())
        private let err = Mutex(Data())

        init(_ arguments: [String]) throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: CommandRunner.shiftrender)
            process.arguments = ["studio"] + arguments
            let outPipe = Pipe()
            let errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            outPipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                out.withLock { $0.append(data) }
            }
            errPipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                err.withLock { $0.append(data) }
            }
            try process.run()
        }

        var stdout: String { out.withLock { String(decoding: $0, as: UTF8.self) } }
        var stderr: String { err.withLock { String(decoding: $0, as: UTF8.self) } }

        /// The port from the `studio: http://127.0.0.1:PORT/` line, waiting up to a minute for it.
        func port() -> Int? {
            let end = Date(timeIntervalSinceNow: 60)
            while Date() < end && process.isRunning {
                if let range = stdout.range(of: #"http://[^ ]*:([0-9]+)/"#, options: .regularExpression) {
                    let url = stdout[range]
                    return Int(url.split(separator: ":").last?.dropLast() ?? "")
                }
                usleep(10_000)
            }
            return nil
        }

        /// Sends `signal` and returns the seconds until the process ended.
        func stop(with signal: Int32) -> Double {
            let sent = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let seconds = Date().timeIntervalSince(sent)
            usleep(100_000)  // the readability handlers' last bytes
            return seconds
        }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func printsItsURLAndStopsWithinASecond(signal: Int32) throws {
        let studio = try RunningStudio([Self.scene, "--port", "0"])
        let port = try #require(studio.port(), "no URL printed; stderr: \(studio.stderr)")
        #expect(studio.stdout.hasPrefix("studio: http://127.0.0.1:\(port)/"))
        let seconds = studio.stop(with: signal)
        #expect(seconds < 1, "took \(seconds) s")
        #expect(studio.process.terminationStatus == 0)
        #expect(studio.stderr == "studio: stopped\n")
    }

    @Test func aTakenPortIsAUsageErrorNamingIt() throws {
        let first = try RunningStudio([Self.scene, "--port", "0"])
        let port = try #require(first.port())
        defer { _ = first.stop(with: SIGINT) }
        let second = try CommandRunner.shiftrender("studio", Self.scene, "--port", String(port))
        #expect(second.status == 2)
        #expect(second.stderr.contains("shiftrender: error: port \(port) is taken"), "\(second.stderr)")
        #expect(second.stdoutText.isEmpty)
    }

    @Test func anotherHostIsWarnedAbout() throws {
        let studio = try RunningStudio([Self.scene, "--port", "0", "--host", "0.0.0.0"])
        _ = try #require(studio.port())
        _ = studio.stop(with: SIGINT)
        #expect(studio.stderr.contains("shiftrender: warning: listening on 0.0.0.0: the studio is reachable from the network"))
    }

    @Test func aHostThatIsNotAnAddressIsAUsageError() throws {
        let result = try CommandRunner.shiftrender("studio", Self.scene, "--host", "example.com")
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot listen on 'example.com'"))
    }
}
