import Foundation
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The studio: serves the page, frames and live events for one scene file on
/// one address (127.0.0.1 unless asked otherwise), and watches the file.
///
/// The HTTP layer is `SocketHTTPServer`, the studio's own (it says why),
/// with the caps and timeouts of `HTTPLimits`.
///
/// Lifecycle: `start()` listens (a taken port is `StudioError.portTaken`),
/// then starts the watcher and the keepalive; `stop()` ends the event streams
/// first (they would otherwise hold their connections open), cancels a running
/// export and closes the socket.
public final class StudioServer: Sendable {
    public let session: SceneSession
    public let host: String
    private let requestedPort: Int
    private let handler: StudioHandler
    private let events = StudioEvents()
    private let export = StudioExport()
    private let cache: FrameCache
    private let limits: HTTPLimits

    private struct Running: Sendable {
        var http: SocketHTTPServer
        var watcher: SceneWatcher
        var port: Int
    }

    private let running = Mutex<Running?>(nil)

    /// Reads the scene (an invalid one is served with its error) and the page's
    /// files; listens only in `start()`. `localhost` means 127.0.0.1.
    public convenience init(
        scenePath: String, host: String = "127.0.0.1", port: Int = 7878, cacheBytes: Int = 256 << 20
    ) throws(StudioError) {
        try self.init(scenePath: scenePath, host: host, port: port, cacheBytes: cacheBytes, limits: HTTPLimits())
    }

    /// As above, with other caps and timeouts for requests (the tests' short ones).
    init(scenePath: String, host: String, port: Int, cacheBytes: Int, limits: HTTPLimits) throws(StudioError) {
        self.limits = limits
        self.host = host == "localhost" ? "127.0.0.1" : host
        guard HostCheck.isIPLiteral(self.host) else { throw StudioError.badHost(host) }
        guard (0 ... 65535).contains(port) else { throw StudioError.cannotListen("port \(port) is not 0...65535") }
        requestedPort = port
        session = try SceneSession(path: scenePath)
        cache = FrameCache(budgetBytes: cacheBytes)
        handler = StudioHandler(
            session: session, cache: cache, events: events, export: export, resources: try StudioResources.load(),
            permission: ExportPermission(token: ExportPermission.makeToken()))
    }

    /// The port listened on (the one chosen with port 0), nil before `start()`.
    public var port: Int? { running.withLock { $0?.port } }

    /// `http://HOST:PORT/`, nil before `start()`.
    public var url: String? { port.map { "http://\(HostCheck.bracketed(host)):\($0)/" } }

    /// True for a host other than loopback: the page is then reachable from the network.
    public var isExposed: Bool { !HostCheck.isLoopback(host) }

    /// Listens and starts watching; returns the port. Throws `StudioError` when the address cannot be listened on.
    @discardableResult
    public func start() async throws(StudioError) -> Int {
        if let port { return port }
        let handler = self.handler
        let http = SocketHTTPServer(limits: limits) { await handler.handleRequest($0) }
        let bound: Int
        do {
            bound = try http.listen(host: host, port: requestedPort)
        } catch {
            throw Self.listenError(error, host: host, port: requestedPort)
        }
        handler.hostCheck.withLock { $0 = HostCheck(host: self.host, port: bound) }
        let events = self.events
        let watcher = SceneWatcher(session: session) { events.broadcast($0) }
        running.withLock { $0 = Running(http: http, watcher: watcher, port: bound) }
        watcher.start()
        events.startKeepalive()
        return bound
    }

    /// Stops serving: event streams end, a running export is cancelled (nothing
    /// of it is left), the socket closes. Safe to call more than once.
    public func stop() async {
        guard let running = running.withLock({ state -> Running? in
            defer { state = nil }
            return state
        }) else { return }
        running.watcher.stop()
        events.finish()
        export.cancel()
        running.http.stop()
    }

    /// Events clients connected now (for tests and the command's status).
    var eventClientCount: Int { events.clientCount }

    private static func listenError(_ error: SocketHTTPServer.ListenFailure, host: String, port: Int) -> StudioError {
        let message = String(cString: strerror(error.code))
        switch error.code {
        case EADDRINUSE: return .portTaken(host: HostCheck.bracketed(host), port: port)
        case EADDRNOTAVAIL: return .cannotListen("cannot listen on \(host): it is not an address of this machine")
        case EACCES: return .cannotListen("cannot listen on port \(port): \(message) (ports below 1024 need privileges)")
        case EINVAL where error.step == "address": return .badHost(host)
        default: return .cannotListen("cannot listen on \(HostCheck.bracketed(host)):\(port): \(message)")
        }
    }
}
