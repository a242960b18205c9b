import Foundation

/// What the server sends back: a status, header fields and either bytes
/// (sent with a Content-Length) or a stream of server-sent-event text (sent
/// chunked, the connection closed at its end).
struct HTTPAnswer: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case events(EventStreamBody)
    }

    var status: Int
    var headers: [(name: String, value: String)]
    var body: Body

    init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A refusal in plain text (the message and a newline), as every refusal of the studio is.
    static func text(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPAnswer {
        HTTPAnswer(
            status: status, headers: headers + [("Content-Type", "text/plain; charset=utf-8")],
            body: .bytes(Array((message + "\n").utf8)))
    }

    /// Replaces or adds the header `name`.
    mutating func set(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 202: return "Accepted"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 421: return "Misdirected Request"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
