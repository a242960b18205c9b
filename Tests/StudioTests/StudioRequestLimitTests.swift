import Foundation
import Testing

@testable import Studio

#if canImport(Glibc)
import Glibc
#endif

/// Requests over the server's caps are refused as soon as a cap is passed
/// (414 for the request line, 431 for header lines), and cost the other
/// clients nothing: the server this replaced rescanned a line at every byte,
/// so two 160 KB lines held every answer for about a minute and a 10 MB one
/// hung the studio for good. A client that sends its head too slowly is cut
/// off (408), and one that says nothing is closed.
@Suite struct StudioRequestLimitTests {
    /// Sends `bytes` on a new connection (the server may close before all of them are taken) and reads the answer,
    /// for at most `timeout` seconds; the status is 0 when none came.
    static func send(_ bytes: [UInt8], port: Int, timeout: Double = 10) async throws -> (status: Int, seconds: Double) {
        try await RawHTTP.offPool {
            let start = Date()
            let socket = try Socket(port: port)
            defer { socket.close() }
            // Bounded even against a server that reads slowly or not at all.
            var sendTimeout = timeval(tv_sec: Int(timeout), tv_usec: 0)
            setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            var raw: [UInt8] = []
            let deadline = Date(timeIntervalSinceNow: timeout)
            while let more = try? socket.receive(until: deadline) { raw += more }
            return (RawHTTP.splitHead(raw)?.0.status ?? 0, Date().timeIntervalSince(start))
        }
    }

    static func head(_ port: Int, requestLine: String = "GET /info.json HTTP/1.1", headers: [String] = []) -> String {
        ([requestLine, "Host: 127.0.0.1:\(port)"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }

    @Test func longLinesAreRefusedAtOnceAndHoldNoOneUp() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let port = studio.port
        let line = String(repeating: "a", count: 160_000)
        // Two 160 KB header lines never finished, and a 10 MB request line, all at once.
        async let first = Self.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: \(line)".utf8), port: port)
        async let second = Self.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: \(line)".utf8), port: port)
        async let huge = Self.send(Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000), port: port)
        let ordinary = try await RawHTTP.request("GET", "/studio.css", port: port, timeout: 10)
        #expect(ordinary.status == 200)
        let answers = try await [first, second, huge]
        #expect(answers.map(\.status) == [431, 431, 414], "\(answers)")
        #expect(answers.allSatisfy { $0.seconds < 5 }, "\(answers)")
        #expect(try await studio.get("/info.json").status == 200)
    }

    /// A thread per connection: 200 event streams open at once, then 200 requests at once, all answered.
    @Test func twoHundredClientsAtOnceAreAllServed() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let port = studio.port
        let (streams, answers) = try await RawHTTP.offPool { () -> (Int, [Int]) in
            let listeners = try (0 ..< 200).map { _ in try Socket(port: port) }
            defer { listeners.forEach { $0.close() } }
            for socket in listeners { try socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n") }
            var reloaded = 0
            for socket in listeners {
                var raw: [UInt8] = []
                let deadline = Date(timeIntervalSinceNow: 30)
                while !String(decoding: raw, as: UTF8.self).contains("event: reload"), let more = try socket.receive(until: deadline) {
                    raw += more
                }
                if String(decoding: raw, as: UTF8.self).contains("event: reload") { reloaded += 1 }
            }
            let askers = try (0 ..< 200).map { _ in try Socket(port: port) }
            defer { askers.forEach { $0.close() } }
            for socket in askers { try socket.send(Self.head(port, requestLine: "GET /studio.css HTTP/1.1")) }
            let statuses = try askers.map { socket -> Int in
                var raw: [UInt8] = []
                let deadline = Date(timeIntervalSinceNow: 30)
                while let more = try socket.receive(until: deadline) { raw += more }
                return RawHTTP.splitHead(raw)?.0.status ?? 0
            }
            return (reloaded, statuses)
        }
        #expect(streams == 200)
        #expect(answers == Array(repeating: 200, count: 200))
        #expect(try await studio.get("/frame/0.png").status == 200)
    }

    @Test func requestAndHeaderLinesAreCappedAtTheirLimits() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let port = studio.port
        let limits = HTTPLimits()
        // The request line: at the cap it is read (and is no page: 404); one byte more is 414.
        let atCap = "GET /" + String(repeating: "a", count: limits.maxLineBytes - "GET / HTTP/1.1".count) + " HTTP/1.1"
        #expect(try await RawHTTP.exchange(Self.head(port, requestLine: atCap), port: port).status == 404)
        let overCap = "GET /" + String(repeating: "a", count: limits.maxLineBytes + 1 - "GET / HTTP/1.1".count) + " HTTP/1.1"
        #expect(try await RawHTTP.exchange(Self.head(port, requestLine: overCap), port: port).status == 414)
        // A header line at the cap is read; one byte more is 431.
        let header = { (count: Int) in "X-Pad: " + String(repeating: "b", count: count - "X-Pad: ".count) }
        #expect(try await RawHTTP.exchange(Self.head(port, headers: [header(limits.maxLineBytes)]), port: port).status == 200)
        let long = try await RawHTTP.exchange(Self.head(port, headers: [header(limits.maxLineBytes + 1)]), port: port)
        #expect(long.status == 431)
        #expect(long.text.contains("a header line is over"))
        // Header count: Host and Connection are two of them.
        let many = { (count: Int) in (0 ..< count - 2).map { "X-H\($0): v" } }
        #expect(try await RawHTTP.exchange(Self.head(port, headers: many(limits.maxHeaderCount)), port: port).status == 200)
        let tooMany = try await RawHTTP.exchange(Self.head(port, headers: many(limits.maxHeaderCount + 1)), port: port)
        #expect(tooMany.status == 431)
        #expect(tooMany.text.contains("more than \(limits.maxHeaderCount) header lines"))
    }

    /// In this process, with short timeouts: the refusals come from the connection's thread alone,
    /// so the concurrency pool's load from other suites cannot delay them.
    @Test func aSlowHeadIsCutOffAndASilentConnectionClosed() async throws {
        var limits = HTTPLimits()
        limits.requestTimeout = .seconds(1)
        limits.idleTimeout = .seconds(1)
        let server = try StudioServer(scenePath: Repository.exampleScene, host: "127.0.0.1", port: 0, cacheBytes: 1 << 20, limits: limits)
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (status, seconds) = try await RawHTTP.offPool { () -> (Int, Double) in
            let start = Date()
            let socket = try Socket(port: port)
            defer { socket.close() }
            // One byte every 100 ms, until the server answers: a complete head would take 5 s.
            var raw: [UInt8] = []
            for byte in "GET /info.json HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: abcdefghij".utf8 {
                if Glibc.send(socket.descriptor, [byte], 1, Int32(MSG_NOSIGNAL)) != 1 { break }
                if let answer = try? socket.receive(until: Date(timeIntervalSinceNow: 0.1)) {
                    raw += answer
                    break
                }
            }
            while let more = try? socket.receive(until: Date(timeIntervalSinceNow: 5)) { raw += more }
            return (RawHTTP.splitHead(raw)?.0.status ?? 0, Date().timeIntervalSince(start))
        }
        #expect(status == 408)
        #expect(seconds < 6, "\(seconds)")
        let silent = try await RawHTTP.offPool { () -> (closed: Bool, seconds: Double) in
            let start = Date()
            let socket = try Socket(port: port)
            defer { socket.close() }
            // The end of the stream (nil), not a timeout (a throw) and not an answer.
            let closed = try socket.receive(until: Date(timeIntervalSinceNow: 5)) == nil
            return (closed, Date().timeIntervalSince(start))
        }
        #expect(silent.closed && silent.seconds < 4, "\(silent)")
    }
}
