/// A request the studio refuses, with the status and the one-line message the
/// answer carries as plain text. Handlers return these instead of throwing, so
/// every refusal says why.
enum StudioRequestError: Error, Sendable, Equatable {
    /// 400: a parameter that is not one of the documented values.
    case badRequest(String)
    /// 403: a request that changes something without the page's origin and session token (`ExportPermission`).
    case forbidden(String)
    /// 404: no such resource or frame (the message says which).
    case notFound(String)
    /// 405: a known path asked with another method.
    case methodNotAllowed(allowed: String)
    /// 409: an export is already running, or its output is an input of the scene.
    case conflict(String)
    /// 409 with `{"exists": path, "message": ...}`: the export's output is there and
    /// the studio did not write it; the page asks, and asks again with `replace=1`.
    case outputExists(path: String)
    /// 421: the Host header is not the address served (DNS rebinding).
    case misdirected(String)
    /// 500: rendering failed (over the memory budget, say); the library's message.
    case failed(String)
    /// 503: the scene has never been valid since the studio started, so there is nothing to show.
    case unavailable(String)
}
