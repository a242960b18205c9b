import Dispatch
import FlyingFox
import Foundation
import ShiftRender
import Synchronization

/// Answers every request: checks the Host header, matches the route
/// (`StudioRoute`), and serves the page's files, /info.json, frames, stills
/// at a progress, the event stream and exports.
///
/// Every answer carries `Cache-Control: no-store` (a frame's URL shows a
/// different picture after a save) and refusals are plain text saying why,
/// so that a person reading a failed request in the browser learns the fix.
final class StudioHandler: HTTPHandler, Sendable {
    let session: SceneSession
    let cache: FrameCache
    let events: StudioEvents
    let export: StudioExport
    let resources: StudioResources
    /// Set once the socket listens (the port is not known before with --port 0).
    let hostCheck = Mutex<HostCheck?>(nil)

    init(session: SceneSession, cache: FrameCache, events: StudioEvents, export: StudioExport, resources: StudioResources) {
        self.session = session
        self.cache = cache
        self.events = events
        self.export = export
        self.resources = resources
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response: HTTPResponse
        switch await answer(request) {
        case .success(let answer): response = answer
        case .failure(let refusal): response = Self.response(for: refusal)
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private func answer(_ request: HTTPRequest) async -> Result<HTTPResponse, StudioRequestError> {
        let host = request.headers[.host]
        let refusal = hostCheck.withLock { check -> String? in
            guard let check else { return "the studio is starting" }
            return check.refusal(for: host)
        }
        if let refusal {
            return .failure(.misdirected(refusal))
        }
        let route: StudioRoute
        switch StudioRoute.match(
            method: request.method.rawValue, rawPath: request.target.path(percentEncoded: true), resolvedPath: request.path)
        {
        case .success(let matched): route = matched
        case .failure(let refusal): return .failure(refusal)
        }
        var query: [String: String] = [:]
        for item in request.query where query[item.name] == nil { query[item.name] = item.value }
        switch route {
        case .resource(let name):
            guard let file = resources.files[name] else { return .failure(.notFound("no such page")) }
            return .success(HTTPResponse(statusCode: .ok, headers: [.contentType: file.contentType], body: Data(file.bytes)))
        case .events:
            let stream = events.subscribe { session.currentEvents() }
            return .success(
                HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "text/event-stream"],
                    body: HTTPBodySequence(from: EventStreamBody(messages: stream))))
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
            guard let format = StudioExport.Format(rawValue: query["format"] ?? "") else {
                return .failure(.badRequest("format must be mp4, gif or png"))
            }
            return await withRenderer(query) { renderer, _, _ in
                let events = self.events
                return export.start(format: format, renderer: renderer, scenePath: session.path) { events.broadcast($0) }
                    .map { path in
                        HTTPResponse(
                            statusCode: .accepted, headers: [.contentType: "application/json"],
                            body: Data(#"{"path":"\#(Self.jsonEscaped(path))"}"#.utf8))
                    }
            }
        }
    }

    /// Runs `body` with the renderer of the variant the query asks for.
    private func withRenderer(
        _ query: [String: String], _ body: (Renderer, Int, SceneVariant) async -> Result<HTTPResponse, StudioRequestError>
    ) async -> Result<HTTPResponse, StudioRequestError> {
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
    private func info(_ renderer: Renderer, version: Int) -> Result<HTTPResponse, StudioRequestError> {
        json(renderer.summary, version: version)
    }

    /// `value` as `info --json` writes JSON (pretty, sorted keys, a final newline), with the version it describes.
    private func json(_ value: some Encodable, version: Int) -> Result<HTTPResponse, StudioRequestError> {
        guard let json = try? ReportJSON.data(value) else { return .failure(.failed("cannot encode the answer as JSON")) }
        return .success(
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "application/json", HTTPHeader("X-Scene-Version"): String(version)],
                body: json))
    }

    private func still(
        _ still: FrameCache.Still, renderer: Renderer, version: Int, variant: SceneVariant
    ) async -> Result<HTTPResponse, StudioRequestError> {
        let key = FrameCache.Key(version: version, variant: variant, still: still)
        switch await cache.png(key, renderer: renderer) {
        case .success(let png):
            let session = self.session
            cache.prefetchNeighbours(of: key, renderer: renderer) { session.version == $0 }
            return .success(
                HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "image/png", HTTPHeader("X-Scene-Version"): String(version)],
                    body: Data(png)))
        case .failure(let error):
            return .failure(.failed(error.message))
        }
    }

    static func response(for refusal: StudioRequestError) -> HTTPResponse {
        let (status, message, extra): (HTTPStatusCode, String, HTTPHeaders) = {
            switch refusal {
            case .badRequest(let text): return (.badRequest, text, [:])
            case .notFound(let text): return (.notFound, text, [:])
            case .methodNotAllowed(let allowed):
                return (.methodNotAllowed, "this page answers \(allowed) only", [HTTPHeader("Allow"): allowed])
            case .conflict(let text): return (.conflict, text, [:])
            case .misdirected(let text): return (.misdirectedRequest, text, [:])
            case .failed(let text): return (.internalServerError, text, [:])
            case .unavailable(let text): return (.serviceUnavailable, text, [:])
            }
        }()
        var headers = extra
        headers[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, body: Data((message + "\n").utf8))
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
