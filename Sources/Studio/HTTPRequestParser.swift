/// The request line and header lines of one request, checked and split:
/// `METHOD SP /target SP HTTP/1.x`, then `name: value` lines. Anything
/// else is refused here rather than guessed at: a header line folded onto
/// the next, whitespace before a colon, control characters, bytes that are
/// not ASCII in the request line, and a second Host header (two Hosts make
/// the one the studio checks ambiguous: RFC 9112 3.2 says 400).
enum HTTPRequestParser {
    static func parse(requestLine: ArraySlice<UInt8>, headerLines: [ArraySlice<UInt8>]) -> RequestReader.Outcome {
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            return .refused(.text(400, "the request line is not METHOD /path HTTP/1.1"))
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ (0x21 ... 0x7E).contains($0) }) else {
            return .refused(.text(400, "the request target must be a path starting with / in printable ASCII"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .refused(.text(version.hasPrefix("HTTP/") ? 505 : 400, "the studio speaks HTTP/1.1 and HTTP/1.0"))
        }
        var headers: [(name: String, value: String)] = []
        for line in headerLines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte)
            else {
                return .refused(.text(400, "a header line is not name: value"))
            }
            let value = line[(colon + 1)...].drop { $0 == 32 || $0 == 9 }
            guard value.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else {
                return .refused(.text(400, "a header value holds a control character"))
            }
            var trimmed = value
            while let last = trimmed.last, last == 32 || last == 9 { trimmed.removeLast() }
            headers.append((String(decoding: line[..<colon], as: UTF8.self).lowercased(), String(decoding: trimmed, as: UTF8.self)))
        }
        let head = HTTPRequestHead(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: target, as: UTF8.self), version: version,
            headers: headers)
        guard head.count("host") <= 1 else { return .refused(.text(400, "more than one Host header")) }
        return .request(head)
    }

    /// RFC 9110 5.6.2's token characters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
