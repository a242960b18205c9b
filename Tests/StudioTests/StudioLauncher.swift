import Studio

/// The one seam between the browser tests and the server: a studio on the
/// scene at `scenePath`, on 127.0.0.1 and a free port, in this process.
/// Returns the page's address ("http://127.0.0.1:PORT/") and how to stop it.
func startStudio(scenePath: String) async throws -> (url: String, stop: () async -> Void) {
    let server = try StudioServer(scenePath: scenePath, host: "127.0.0.1", port: 0)
    try await server.start()
    guard let url = server.url else { throw StudioError.cannotListen("the studio started without a port") }
    return (url, { await server.stop() })
}
