import Foundation

/// One /events client: connects, then hands out the server-sent events in
/// order as they arrive (`next(named:)` skips others), for the live tests.
final class EventReader: @unchecked Sendable {
    struct Event {
        var name: String
        var data: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
        }
    }

    private let socket: Socket
    private var raw: [UInt8] = []
    private var handedOut = 0
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]

    init(port: Int) async throws {
        socket = try Socket(port: port)
        try socket.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
    }

    deinit { socket.close() }

    /// The next event called `name` (earlier ones of other names are passed over), waiting up to `timeout` seconds.
    func next(named name: String, timeout: Double = 30) async throws -> Event {
        try await RawHTTP.offPool { try self.nextBlocking(named: name, timeout: timeout) }
    }

    /// The next `error` event with a problem at `place`. A save in place is a truncate and then a write, and
    /// the studio may read the file between them: that read is an error of its own ("the file is empty"), and
    /// the next poll brings the real one. Other errors before it are passed over (at most five).
    func nextError(about place: String, timeout: Double = 30) async throws -> Event {
        var seen: [String] = []
        for _ in 0 ..< 6 {
            let event = try await next(named: "error", timeout: timeout)
            let problems = event.json["problems"] as? [[String: Any]] ?? []
            if problems.contains(where: { $0["place"] as? String == place }) { return event }
            seen.append(event.data)
        }
        throw RawHTTPError(description: "no error event about '\(place)'; errors seen: \(seen)")
    }

    /// True once the server has ended the stream (the last chunk, or the connection closed).
    func ended(timeout: Double = 5) async throws -> Bool {
        try await RawHTTP.offPool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while true {
                if let (_, body) = RawHTTP.splitHead(self.raw), RawHTTP.dechunk(body).ended { return true }
                guard let bytes = try self.socket.receive(until: deadline) else { return true }
                self.raw += bytes
            }
        }
    }

    private func nextBlocking(named name: String, timeout: Double) throws -> Event {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let events = parsed()
            while handedOut < events.count {
                let event = events[handedOut]
                handedOut += 1
                if event.name == name { return event }
            }
            let received: [UInt8]?
            do {
                received = try socket.receive(until: deadline)
            } catch {
                throw RawHTTPError(description: "no '\(name)' event within \(timeout) s (\(error)); events so far: \(parsed().map(\.name))")
            }
            guard let bytes = received else {
                throw RawHTTPError(description: "the event stream ended before a '\(name)' event")
            }
            raw += bytes
        }
    }

    /// Every complete event received so far (comments and `retry:` lines are not events).
    private func parsed() -> [Event] {
        guard let (head, body) = RawHTTP.splitHead(raw) else { return [] }
        status = head.status
        headers = head.headers
        let text = String(decoding: RawHTTP.dechunk(body).bytes, as: UTF8.self)
        var events: [Event] = []
        for block in text.components(separatedBy: "\n\n").dropLast() {
            var name = "message"
            var data: [String] = []
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { events.append(Event(name: name, data: data.joined(separator: "\n"))) }
        }
        return events
    }
}
