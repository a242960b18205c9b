import Foundation

/// Who may start an export (the one request that writes a file): the
/// studio's own page, which proves it twice.
///
/// - Its Origin, when the request has one, is the studio's own: `http://`
///   and the Host the request was sent to (which `HostCheck` has already
///   found to be this studio's address). A browser sends Origin on every
///   POST, `no-cors` ones included, so another site's page is refused here.
/// - It carries this session's token in `X-Studio-Token`. The token is
///   random, made at start, and written into the page (`/`), which only a
///   page of the studio's origin can read: the browser keeps another origin
///   from reading the answer, and `HostCheck` keeps a rebound name from
///   asking. A page of another origin cannot add the header without a CORS
///   preflight, which the studio never grants (OPTIONS is 405).
///
/// A request without Origin does not come from a web page (or from a very
/// old browser); with the token it is allowed, since whoever sends it could
/// read the page anyway (a program on this machine). Without the token
/// nothing is allowed, so no form post, image or `no-cors` fetch can export.
struct ExportPermission: Sendable {
    static let tokenHeader = "x-studio-token"

    let token: String

    /// A new session's token: 32 random bytes in hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< 32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Nil when `request` may export; otherwise why not, for the 403 answer.
    func refusal(for request: HTTPRequestHead) -> String? {
        if let origin = request.value("origin") {
            let own = "http://" + (request.value("host") ?? "").lowercased()
            guard origin.lowercased() == own else {
                return "exports start only from the studio's own page (\(own)), not from '\(origin.prefix(100))'"
            }
        }
        guard let sent = request.value(Self.tokenHeader), Self.sameBytes(sent, token) else {
            return "an export needs the session token the studio's page sends (the X-Studio-Token header); reload the page"
        }
        return nil
    }

    /// Compared in time that does not depend on where they differ.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
