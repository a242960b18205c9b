import Studio

/// The one seam between the browser tests and the server: a studio on the
/// scene at `scenePath`, on 127.0.0.1 and a free port, in this process.
/// Returns the page's address ("http://127.0.0.1:PORT/") and how to stop it.
func startStudio(scenePath: String) async throws -> (url: String, stop: () async -> Void) {
    let server = try await StudioServer.start(scenePath: scenePath, host: "127.0.0.1", port: 0)
    return (server.url, { await server.stop() })
}
