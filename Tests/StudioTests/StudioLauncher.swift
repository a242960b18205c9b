/// The one seam between the browser tests and the server: a studio on the
/// scene at `scenePath`, on 127.0.0.1 and a free port, in a process of its own
/// (`StudioProcess` says why). Returns the page's address
/// ("http://127.0.0.1:PORT/") and how to stop it.
func startStudio(scenePath: String) async throws -> (url: String, stop: () async -> Void) {
    let studio = try await StudioProcess(scene: scenePath)
    return ("http://127.0.0.1:\(studio.port)/", { await studio.stop() })
}
