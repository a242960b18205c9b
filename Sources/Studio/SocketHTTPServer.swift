import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The studio's HTTP/1.1 server over the C library's sockets: one listening
/// socket, one thread accepting, one thread per connection reading requests
/// with `RequestReader` (every line capped, every request timed) and writing
/// answers; the handler runs on the concurrency pool.
///
/// Why a server of its own (docs/studio.md has the measurements): FlyingFox,
/// used before, read a line by rescanning its buffer at every byte, had no
/// cap on a line, a header count or the time a head may take, and offered no
/// way to add them from outside; the studio needs a handful of GET routes, one
/// POST without a body and one chunked event stream, which is this much code.
///
/// A thread per connection keeps a slow or hostile client's cost on its own
/// thread: it can hold that thread for one `requestTimeout` at most (or for
/// `idleTimeout` saying nothing), and at most `maxConnections` are open.
final class SocketHTTPServer: Sendable {
    typealias Handler = @Sendable (HTTPRequestHead) async -> HTTPAnswer

    private let limits: HTTPLimits
    private let handler: Handler

    private struct State {
        var listener: Int32?
        var connections: Set<Int32> = []
        var stopped = false
    }

    private let state = Mutex(State())

    init(limits: HTTPLimits, handler: @escaping Handler) {
        self.limits = limits
        self.handler = handler
    }

    struct ListenFailure: Error {
        var code: Int32
        var step: String
    }

    /// Listens on `host` (an IPv4 or IPv6 literal) and `port` (0: any free one) and starts accepting; returns the port.
    func listen(host: String, port: Int) throws(ListenFailure) -> Int {
        let isIPv6 = host.contains(":")
        let listener = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ListenFailure(code: errno, step: "socket") }
        var on: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                close(listener)
                throw ListenFailure(code: EINVAL, step: "address")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(listener)
                throw ListenFailure(code: EINVAL, step: "address")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0, Glibc.listen(listener, 512) == 0 else {
            let code = errno
            close(listener)
            throw ListenFailure(code: code, step: "bind")
        }
        let chosen = Self.localPort(listener) ?? port
        state.withLock { $0.listener = listener }
        let thread = Thread { [self] in acceptConnections(on: listener) }
        thread.name = "studio accept"
        thread.start()
        return chosen
    }

    /// Stops accepting and wakes every connection's thread: reads end, answers
    /// being written finish, event streams end when the studio's events do.
    func stop() {
        state.withLock { state in
            state.stopped = true
            // The accepting thread closes it once woken.
            if let listener = state.listener { shutdown(listener, Int32(SHUT_RDWR)) }
            state.listener = nil
            for connection in state.connections { shutdown(connection, Int32(SHUT_RD)) }
        }
    }

    private static func localPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard found == 0 else { return nil }
        let isIPv6 = storage.ss_family == sa_family_t(AF_INET6)
        return withUnsafePointer(to: &storage) { pointer -> Int in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    private func acceptConnections(on listener: Int32) {
        defer { close(listener) }
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if state.withLock({ $0.stopped }) { return }
                switch errno {
                case EINTR, ECONNABORTED: continue
                // Out of descriptors: wait for some to close rather than spin.
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000); continue
                default: return
                }
            }
            // Not inherited by a child the studio starts (xdg-open).
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let socket = ClientSocket(descriptor: descriptor)
            socket.configure(sendTimeout: limits.sendTimeout)
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped, state.connections.count < limits.maxConnections else { return false }
                state.connections.insert(descriptor)
                return true
            }
            guard admitted else {
                let busy = HTTPAnswer.text(503, "the studio has \(limits.maxConnections) connections open; try again")
                socket.send(Self.encode(busy, keepAlive: false))
                socket.closeAfterRefusal()
                continue
            }
            let thread = Thread { [self] in serve(socket) }
            thread.name = "studio connection"
            thread.stackSize = 512 << 10
            thread.start()
        }
    }

    private func serve(_ socket: ClientSocket) {
        var reader = RequestReader(socket: socket, limits: limits)
        var refused = false
        loop: while true {
            switch reader.next() {
            case .closed:
                break loop
            case .refused(var answer):
                answer.set("Cache-Control", "no-store")
                socket.send(Self.encode(answer, keepAlive: false))
                refused = true
                break loop
            case .request(let head):
                let handler = self.handler
                let answer = Blocking.run { await handler(head) }
                let keepAlive = head.keepsAlive && !state.withLock({ $0.stopped })
                guard send(answer, on: socket, keepAlive: keepAlive), keepAlive else { break loop }
            }
        }
        state.withLock { _ = $0.connections.remove(socket.descriptor) }
        if refused { socket.closeAfterRefusal() } else { close(socket.descriptor) }
    }

    /// Sends `answer`; false when the connection must end (it failed, or an event stream ended).
    private func send(_ answer: HTTPAnswer, on socket: ClientSocket, keepAlive: Bool) -> Bool {
        guard case .events(let body) = answer.body else { return socket.send(Self.encode(answer, keepAlive: keepAlive)) }
        defer { body.end() }
        guard socket.send(Self.encode(answer, keepAlive: false)) else { return false }
        while let message = body.next() {
            let bytes = Array(message.utf8)
            guard !bytes.isEmpty else { continue }
            guard socket.send(Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10]) else { return false }
        }
        socket.send(Array("0\r\n\r\n".utf8))
        return false
    }

    /// The status line, the headers and, for bytes, the body: one write. An event stream's head says chunked.
    static func encode(_ answer: HTTPAnswer, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(answer.status) \(HTTPAnswer.reason(answer.status))\r\n"
        for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
        switch answer.body {
        case .bytes(let bytes):
            head += "Content-Length: \(bytes.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
            return Array(head.utf8) + bytes
        case .events:
            head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            return Array(head.utf8)
        }
    }
}
