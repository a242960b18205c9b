/// Reads a connection's requests, one head (and body) at a time, within
/// `HTTPLimits`. Each byte is looked at once: the search for a line's end
/// resumes where the last one stopped, so a line costs time in proportion
/// to its length, and a line over the cap is refused as soon as the cap is
/// passed, whatever the client still means to send. (The server this
/// replaces rescanned its buffer for every byte; docs/studio.md tells.)
///
/// Bytes after one request (a pipelined next one) stay in the buffer for the next call.
struct RequestReader {
    let socket: ClientSocket
    let limits: HTTPLimits
    private var buffer: [UInt8] = []

    init(socket: ClientSocket, limits: HTTPLimits) {
        self.socket = socket
        self.limits = limits
    }

    enum Outcome {
        case request(HTTPRequestHead)
        /// The client closed or stayed silent before a request began: end without an answer.
        case closed
        /// Answer this (400, 408, 413, 414, 431, 501, 505) and close.
        case refused(HTTPAnswer)
    }

    /// The next request's head, its body read and dropped (the studio takes no body).
    mutating func next() -> Outcome {
        let idleDeadline = ContinuousClock.now + limits.idleTimeout
        var requestDeadline: ContinuousClock.Instant? = buffer.isEmpty ? nil : ContinuousClock.now + limits.requestTimeout
        var lineStart = 0
        var scanned = 0
        var requestLine: Range<Int>?
        var headerLines: [Range<Int>] = []
        var blankLinesBefore = 0
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                let line = lineStart ..< (newline > lineStart && buffer[newline - 1] == 13 ? newline - 1 : newline)
                lineStart = newline + 1
                scanned = lineStart
                if let refusal = Self.overLimit(line.count, isRequestLine: requestLine == nil, limits: limits) {
                    return .refused(refusal)
                }
                if requestLine == nil {
                    // RFC 9112 2.2: empty lines before a request line are ignored (a few).
                    if line.isEmpty {
                        blankLinesBefore += 1
                        if blankLinesBefore > 4 { return .refused(.text(400, "empty lines instead of a request")) }
                        continue
                    }
                    requestLine = line
                } else if line.isEmpty {
                    let parsed = HTTPRequestParser.parse(requestLine: buffer[requestLine!], headerLines: headerLines.map { buffer[$0] })
                    buffer.removeFirst(lineStart)
                    guard case .request(let head) = parsed else { return parsed }
                    return readBody(of: head, deadline: requestDeadline ?? ContinuousClock.now + limits.requestTimeout)
                } else {
                    headerLines.append(line)
                    if headerLines.count > limits.maxHeaderCount {
                        return .refused(.text(431, "more than \(limits.maxHeaderCount) header lines"))
                    }
                }
                if lineStart > limits.maxHeadBytes {
                    return .refused(.text(431, "the request's head is over \(limits.maxHeadBytes) bytes"))
                }
                continue
            }
            scanned = buffer.count
            if let refusal = Self.overLimit(buffer.count - lineStart, isRequestLine: requestLine == nil, limits: limits) {
                return .refused(refusal)
            }
            switch socket.receive(into: &buffer, until: requestDeadline ?? idleDeadline) {
            case .bytes:
                if requestDeadline == nil { requestDeadline = ContinuousClock.now + limits.requestTimeout }
            case .closed:
                return .closed
            case .timedOut:
                guard requestDeadline != nil else { return .closed }
                return .refused(.text(408, "the request did not arrive within \(limits.requestTimeout)"))
            }
        }
    }

    private static func overLimit(_ length: Int, isRequestLine: Bool, limits: HTTPLimits) -> HTTPAnswer? {
        guard length > limits.maxLineBytes else { return nil }
        return isRequestLine
            ? .text(414, "the request line is over \(limits.maxLineBytes) bytes")
            : .text(431, "a header line is over \(limits.maxLineBytes) bytes")
    }

    /// Reads and drops a Content-Length body within the limits; refuses a transfer coding.
    private mutating func readBody(of head: HTTPRequestHead, deadline: ContinuousClock.Instant) -> Outcome {
        if head.value("transfer-encoding") != nil {
            return .refused(.text(501, "Transfer-Encoding is not supported; send a Content-Length"))
        }
        let lengths = head.headers.filter { $0.name == "content-length" }.map(\.value)
        guard lengths.count <= 1 else { return .refused(.text(400, "more than one Content-Length header")) }
        guard let text = lengths.first else { return .request(head) }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48 ... 57).contains($0) }), let length = Int(text) else {
            return .refused(.text(400, "Content-Length is not a number"))
        }
        guard length <= limits.maxBodyBytes else {
            return .refused(.text(413, "the body is over \(limits.maxBodyBytes) bytes; the studio takes none"))
        }
        while buffer.count < length {
            switch socket.receive(into: &buffer, until: deadline) {
            case .bytes: continue
            case .closed: return .closed
            case .timedOut: return .refused(.text(408, "the request's body did not arrive within \(limits.requestTimeout)"))
            }
        }
        buffer.removeFirst(length)
        return .request(head)
    }
}
