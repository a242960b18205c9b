import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 client over a POSIX socket, for the studio's tests: it
/// sends the request line exactly as written (URLSession would resolve `..`
/// and re-encode the path before the server saw it), and reads the whole
/// answer, chunked or not. Blocking calls run on a dispatch queue, off the
/// concurrency pool: an in-process server needs its threads.
struct RawResponse {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
}

enum RawHTTP {
    /// `METHOD target` with the given Host (nil: no Host header at all) and `headers`, answer read to the end.
    static func request(
        _ method: String, _ target: String, port: Int, host: String? = "", headers: [(String, String)] = [], timeout: Double = 30
    ) async throws -> RawResponse {
        let hostLine = host.map { "Host: \($0.isEmpty ? "127.0.0.1:\(port)" : $0)\r\n" } ?? ""
        let extra = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        let text = "\(method) \(target) HTTP/1.1\r\n\(hostLine)\(extra)Connection: close\r\nContent-Length: 0\r\n\r\n"
        return try await exchange(text, port: port, timeout: timeout)
    }

    /// Sends `text` exactly as written on a new connection and reads the answer to the end.
    static func exchange(_ text: String, port: Int, timeout: Double = 30) async throws -> RawResponse {
        try await offPool {
            let socket = try Socket(port: port)
            defer { socket.close() }
            try socket.send(text)
            var raw: [UInt8] = []
            let deadline = Date(timeIntervalSinceNow: timeout)
            while let bytes = try socket.receive(until: deadline) { raw += bytes }
            guard let (head, body) = splitHead(raw) else { throw RawHTTPError(description: "no complete answer: \(raw.count) bytes") }
            return RawResponse(status: head.status, headers: head.headers, body: head.chunked ? dechunk(body).bytes : body)
        }
    }

    static func get(_ target: String, port: Int, host: String? = "") async throws -> RawResponse {
        try await request("GET", target, port: port, host: host)
    }

    struct Head {
        var status: Int
        var headers: [String: String]
        var chunked: Bool { headers["transfer-encoding"]?.lowercased() == "chunked" }
    }

    /// The status line and headers, and the bytes after them; nil until the blank line has come.
    static func splitHead(_ raw: [UInt8]) -> (Head, [UInt8])? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0 ..< max(0, raw.count - 3)).first(where: { Array(raw[$0 ..< $0 + 4]) == separator }) else { return nil }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (Head(status: status, headers: headers), Array(raw[(end + 4)...]))
    }

    /// The chunks complete so far joined, and whether the last (empty) chunk came.
    static func dechunk(_ body: [UInt8]) -> (bytes: [UInt8], ended: Bool) {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = (index ..< max(index, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) {
            guard let size = Int(String(decoding: body[index ..< lineEnd], as: UTF8.self), radix: 16) else { break }
            if size == 0 { return (out, true) }
            let start = lineEnd + 2
            guard start + size + 2 <= body.count else { break }
            out += body[start ..< start + size]
            index = start + size + 2
        }
        return (out, false)
    }

    /// Runs blocking socket work on a dispatch queue, off the concurrency pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A connected TCP socket to 127.0.0.1.
final class Socket: @unchecked Sendable {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw RawHTTPError(description: "connect to port \(port): errno \(code)")
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTPError(description: "send: errno \(errno)") }
            sent += n
        }
    }

    /// The next bytes, nil at the end of the stream; throws past `deadline`.
    func receive(until deadline: Date) throws -> [UInt8]? {
        var pollEntry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw RawHTTPError(description: "timed out waiting for the server") }
            let ready = poll(&pollEntry, 1, Int32(min(left, 1) * 1000))
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { throw RawHTTPError(description: "poll: errno \(errno)") }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw RawHTTPError(description: "recv: errno \(errno)") }
        return n == 0 ? nil : Array(buffer[..<n])
    }

    func close() { Glibc.close(descriptor) }
}
