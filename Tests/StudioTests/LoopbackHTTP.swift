import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange with a server on 127.0.0.1, over a plain socket.
///
/// Why not URLSession: chromedriver writes its headers as `Content-Length:249`
/// (no space after the colon, which RFC 9110 allows), and the URLSession of
/// Swift 6.3's FoundationNetworking rejects every such response with "Failed
/// writing header" (fixed upstream in swift-corelibs-foundation PR 5527, not
/// yet in a release). The exchange is small enough to do by hand.
enum LoopbackHTTP {
    struct Response {
        var status: Int
        var body: Data
    }

    /// Sends the request with `Connection: close` and reads the answer.
    /// The blocking socket calls run on a Dispatch thread, never on the Swift
    /// concurrency pool, which an in-process server under test may need.
    static func exchange(port: Int, method: String, path: String, body: Data? = nil, timeout: Int = 60) async throws
        -> Response
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try blockingExchange(port: port, method: method, path: path, body: body, timeout: timeout) })
            }
        }
    }

    private static func blockingExchange(port: Int, method: String, path: String, body: Data?, timeout: Int) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WebDriverError("socket() failed") }
        defer { close(fd) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw WebDriverError("cannot connect to 127.0.0.1:\(port) (errno \(errno))") }

        let payload = body ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { head += "Content-Type: application/json; charset=utf-8\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"
        try sendAll(fd, Data(head.utf8) + payload)

        // chromedriver keeps the connection open despite `Connection: close`,
        // so the end of the answer is its Content-Length, not the end of the stream.
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !isComplete(received) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 { throw WebDriverError("reading from 127.0.0.1:\(port) failed (errno \(errno))") }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try parse(received)
    }

    /// Whether the header and as many body bytes as Content-Length says have arrived.
    private static func isComplete(_ data: Data) -> Bool {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length",
                let length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            {
                return data.count - split.upperBound >= length
            }
        }
        return false  // no length: read to the end of the stream
    }

    private static func sendAll(_ fd: Int32, _ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { send(fd, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw WebDriverError("writing to the socket failed (errno \(errno))") }
            offset += sent
        }
    }

    /// The status from the status line and the body after the blank line.
    private static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw WebDriverError("no complete HTTP response: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw WebDriverError("bad status line: \(statusLine)") }
        return Response(status: status, body: Data(data[split.upperBound...]))
    }
}
