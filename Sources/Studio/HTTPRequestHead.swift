import Foundation

/// One request as the studio's server read it: the request line's three
/// parts and the header fields in order (names in lower case), with the
/// questions the handler asks of them. Built only by `RequestReader`, which
/// has already refused anything malformed or over `HTTPLimits`.
struct HTTPRequestHead: Sendable {
    var method: String
    /// The request target as sent (origin form: it starts with `/`).
    var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    var headers: [(name: String, value: String)]

    /// The first value of the header `name` (lower case).
    func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// How many times the header `name` (lower case) appears.
    func count(_ name: String) -> Int { headers.filter { $0.name == name }.count }

    /// The path as sent, still percent-encoded.
    var rawPath: String { String(target.prefix { $0 != "?" }) }

    /// The path percent-decoded and with dot segments resolved: what a
    /// server that maps paths to files would use (`StudioRoute` refuses a
    /// path where this differs from the decoded path).
    var resolvedPath: String {
        let decoded = rawPath.removingPercentEncoding ?? rawPath
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// The query's items, percent-decoded, first of each name kept.
    var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for item in URLComponents(string: "?" + target[target.index(after: mark)...])?.queryItems ?? []
        where items[item.name] == nil {
            items[item.name] = item.value ?? ""
        }
        return items
    }

    /// HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 closes it unless told `keep-alive`.
    var keepsAlive: Bool {
        let tokens = (value("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}
