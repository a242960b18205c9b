import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection's descriptor, read and written with blocking
/// calls on the connection's own thread: reads wait with `poll` until a
/// deadline, writes give up after the send timeout (`SO_SNDTIMEO`), and no
/// write raises SIGPIPE. Only the owning thread closes it; `shutdown` (from
/// `LoopbackHTTPServer.stop`) may come from any thread.
struct ClientSocket: Sendable {
    let descriptor: Int32

    enum Received {
        case bytes(Int)
        case closed
        case timedOut
    }

    /// Sets the send timeout and turns off Nagle's delay (answers are one write of a head and one of a body).
    func configure(sendTimeout: Duration) {
        let seconds = sendTimeout.components.seconds
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(sendTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Appends what has arrived (up to 64 KB) to `buffer`, waiting until `deadline` at most.
    func receive(into buffer: inout [UInt8], until deadline: ContinuousClock.Instant) -> Received {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if ready == 0 { continue }
            let chunk = 64 * 1024
            let before = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + before, chunk, 0) }
            buffer.removeLast(chunk - max(count, 0))
            if count > 0 { return .bytes(count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .closed
        }
    }

    /// Writes all of `bytes`; false when the client is gone or stopped reading for the send timeout.
    @discardableResult
    func send(_ bytes: some Collection<UInt8>) -> Bool {
        var bytes = Array(bytes)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// Ends the connection after a refusal without losing the answer: a close
    /// with unread bytes waiting makes the kernel reset the connection, and a
    /// reset can overtake the answer. So: no more writes, then up to 1 MB or
    /// half a second of the client's bytes read and dropped, then close.
    func closeAfterRefusal() {
        shutdown(descriptor, Int32(SHUT_WR))
        var drained: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(500)
        var total = 0
        while total < 1 << 20, case .bytes(let count) = receive(into: &drained, until: deadline) {
            total += count
            drained.removeAll(keepingCapacity: true)
        }
        close(descriptor)
    }
}
