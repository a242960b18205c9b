import Dispatch
import Foundation
import ShiftRender
import Synchronization

/// Answers every request: checks the Host header, matches the route
/// (`StudioRoute`), and serves the page's files (the page with this session's
/// token in it), /info.json, frames, stills at a progress, the event stream
/// and exports, which only the page may start (`ExportPermission`).
///
/// Every answer carries `Cache-Control: no-store` (a frame's URL shows a
/// different picture after a save) and forbids framing by other sites;
/// refusals are plain text saying why, so that a person reading a failed
/// request in the browser learns the fix.
final class StudioHandler: Sendable {
    let session: SceneSession
    let cache: FrameCache
    let events: StudioEvents
    let export: StudioExport
    let resources: StudioResources
    let permission: ExportPermission
    /// Set once the socket listens (the port is not known before with --port 0).
    let hostCheck = Mutex<HostCheck?>(nil)

    init(
        session: SceneSession, cache: FrameCache, events: StudioEvents, export: StudioExport, resources: StudioResources,
        permission: ExportPermission
    ) {
        self.session = session
        self.cache = cache
        self.events = events
        self.export = export
        self.resources = resources.withToken(permission.token)
        self.permission = permission
    }

    func handleRequest(_ request: HTTPRequestHead) async -> HTTPAnswer {
        var response: HTTPAnswer
        switch await answer(request) {
        case .success(let answer): response = answer
        case .failure(let refusal): response = Self.response(for: refusal)
        }
        response.set("Cache-Control", "no-store")
        // No other site may show the page in a frame (and trick a click on Export) or sniff a type.
        response.set("X-Frame-Options", "DENY")
        response.set("Content-Security-Policy", "frame-ancestors 'none'")
        response.set("X-Content-Type-Options", "nosniff")
        return response
    }

    private func answer(_ request: HTTPRequestHead) async -> Result<HTTPAnswer, StudioRequestError> {
        let host = request.value("host")
        let refusal = hostCheck.withLock { check -> String? in
            guard let check else { return "the studio is starting" }
            return check.refusal(for: host)
        }
        if let refusal {
            return .failure(.misdirected(refusal))
        }
        let route: StudioRoute
        switch StudioRoute.match(method: request.method, rawPath: request.rawPath, resolvedPath: request.resolvedPath) {
        case .success(let matched): route = matched
        case .failure(let refusal): return .failure(refusal)
        }
        let query = request.query
        switch route {
        case .resource(let name):
            guard let file = resources.files[name] else { return .failure(.notFound("no such page")) }
            return .success(HTTPAnswer(status: 200, headers: [("Content-Type", file.contentType)], body: .bytes(file.bytes)))
        case .events:
            let body = events.subscribe { session.currentEvents() }
            return .success(HTTPAnswer(status: 200, headers: [("Content-Type", "text/event-stream")], body: .events(body)))
        case .info:
            return await withRenderer(query) { renderer, version, _ in info(renderer, version: version) }
        case .frame(let n):
            return await withRenderer(query) { renderer, version, variant in
                guard n < renderer.frameCount else {
                    return .failure(.notFound("frame \(n) is past the end: the clip has frames 0-\(renderer.frameCount - 1)"))
                }
                return await still(.frame(n), renderer: renderer, version: version, variant: variant)
            }
        case .outlines(let n):
            return await withRenderer(query) { renderer, version, _ in
                guard n < renderer.frameCount else {
                    return .failure(.notFound("frame \(n) is past the end: the clip has frames 0-\(renderer.frameCount - 1)"))
                }
                return json(renderer.timeline.outlines(frame: n), version: version)
            }
        case .progress(let p):
            guard (0 ... 1).contains(p) else { return .failure(.notFound("progress \(p) is outside 0...1")) }
            return await withRenderer(query) { renderer, version, variant in
                await still(.progress(p), renderer: renderer, version: version, variant: variant)
            }
        case .export:
            if let refusal = permission.refusal(for: request) { return .failure(.forbidden(refusal)) }
            guard let format = StudioExport.Format(rawValue: query["format"] ?? "") else {
                return .failure(.badRequest("format must be mp4, gif or png"))
            }
            guard let replace = ["": false, "0": false, "1": true][query["replace"] ?? ""] else {
                return .failure(.badRequest("replace must be 1 or 0"))
            }
            return await withRenderer(query) { renderer, _, _ in
                let events = self.events
                return export.start(format: format, renderer: renderer, scenePath: session.path, replace: replace) {
                    events.broadcast($0)
                }
                .map { path in
                    HTTPAnswer(
                        status: 202, headers: [("Content-Type", "application/json")],
                        body: .bytes(Array(#"{"path":"\#(Self.jsonEscaped(path))"}"#.utf8)))
                }
            }
        }
    }

    /// Runs `body` with the renderer of the variant the query asks for.
    private func withRenderer(
        _ query: [String: String], _ body: (Renderer, Int, SceneVariant) async -> Result<HTTPAnswer, StudioRequestError>
    ) async -> Result<HTTPAnswer, StudioRequestError> {
        let variant: SceneVariant
        switch SceneVariant.parse(query: query) {
        case .success(let parsed): variant = parsed
        case .failure(let refusal): return .failure(refusal)
        }
        // Another direction is planned on first use (the whole scene): off the server's threads, like frames.
        let session = self.session
        let made = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: session.renderer(for: variant)) }
        }
        switch made {
        case .success(let (renderer, version)): return await body(renderer, version, variant)
        case .failure(let refusal): return .failure(refusal)
        }
    }

    /// `info --json`'s output for the variant (the same encoder settings), and the version it describes.
    private func info(_ renderer: Renderer, version: Int) -> Result<HTTPAnswer, StudioRequestError> {
        json(renderer.summary, version: version)
    }

    /// `value` as `info --json` writes JSON (pretty, sorted keys, a final newline), with the version it describes.
    private func json(_ value: some Encodable, version: Int) -> Result<HTTPAnswer, StudioRequestError> {
        guard let json = try? ReportJSON.data(value) else { return .failure(.failed("cannot encode the answer as JSON")) }
        return .success(
            HTTPAnswer(
                status: 200, headers: [("Content-Type", "application/json"), ("X-Scene-Version", String(version))],
                body: .bytes(Array(json))))
    }

    private func still(
        _ still: FrameCache.Still, renderer: Renderer, version: Int, variant: SceneVariant
    ) async -> Result<HTTPAnswer, StudioRequestError> {
        let key = FrameCache.Key(version: version, variant: variant, still: still)
        switch await cache.png(key, renderer: renderer) {
        case .success(let png):
            let session = self.session
            cache.prefetchNeighbours(of: key, renderer: renderer) { session.version == $0 }
            return .success(
                HTTPAnswer(
                    status: 200, headers: [("Content-Type", "image/png"), ("X-Scene-Version", String(version))],
                    body: .bytes(Array(png))))
        case .failure(let error):
            return .failure(.failed(error.message))
        }
    }

    static func response(for refusal: StudioRequestError) -> HTTPAnswer {
        switch refusal {
        case .badRequest(let text): return .text(400, text)
        case .forbidden(let text): return .text(403, text)
        case .notFound(let text): return .text(404, text)
        case .methodNotAllowed(let allowed): return .text(405, "this page answers \(allowed) only", headers: [("Allow", allowed)])
        case .conflict(let text): return .text(409, text)
        case .outputExists(let path):
            let message = "'\(path)' is already there and the studio did not write it; ask again with replace=1 to replace it"
            return HTTPAnswer(
                status: 409, headers: [("Content-Type", "application/json")],
                body: .bytes(Array(#"{"exists":"\#(jsonEscaped(path))","message":"\#(jsonEscaped(message))"}"#.utf8)))
        case .misdirected(let text): return .text(421, text)
        case .failed(let text): return .text(500, text)
        case .unavailable(let text): return .text(503, text)
        }
    }

    /// Backslashes and quotes escaped, control characters dropped: enough for a file path in a JSON string.
    static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
