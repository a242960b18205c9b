/// Which Host headers the studio answers: the address it serves, and
/// `localhost` when that address is loopback. Anything else is refused (421),
/// since a page from another site whose name is made to point at 127.0.0.1
/// (DNS rebinding) sends its own name as Host, and must not read the frames.
///
/// When listening on every address (0.0.0.0 or ::) the served name is not
/// known, so any IP literal with the right port is accepted: rebinding needs a
/// domain name, and an IP literal cannot be one.
struct HostCheck: Sendable {
    let host: String
    let port: Int

    /// Nil when `header` names this server; otherwise why not, for the 421 answer.
    func refusal(for header: String?) -> String? {
        guard let header, !header.isEmpty else { return "a Host header is required" }
        let value = header.lowercased()
        if allowed.contains(value) { return nil }
        if isWildcard, let (name, port) = Self.split(value), port == self.port, Self.isIPLiteral(name) { return nil }
        return "this studio serves \(allowed.sorted().joined(separator: " or ")), not '\(header.prefix(100))'"
    }

    var allowed: Set<String> {
        var names = [Self.bracketed(host)]
        if Self.isLoopback(host) || isWildcard { names.append("localhost") }
        return Set(names.map { "\($0):\(port)" })
    }

    /// What to put in a URL for this host: IPv6 in brackets.
    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    static func isLoopback(_ host: String) -> Bool { host.hasPrefix("127.") || host == "::1" }

    /// `name:port` or `[v6]:port` split in two; nil without a numeric port.
    static func split(_ value: String) -> (String, Int)? {
        guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]) else { return nil }
        var name = String(value[..<colon])
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return (name, port)
    }

    /// Digits and dots (IPv4) or hex digits and colons (IPv6): never a domain name.
    static func isIPLiteral(_ name: String) -> Bool {
        let v4 = name.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return true }
        return name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
