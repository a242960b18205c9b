import FlyingFox
import FlyingSocks
import Foundation
import ShiftRender
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The studio: serves the page, frames and live events for one scene file on
/// one address (127.0.0.1 unless asked otherwise), and watches the file.
///
/// The server is FlyingFox 0.27.1, chosen over Hummingbird 2 + its WebSocket
/// package by measuring a first debug build of a one-route server of each on
/// the two-core build machine (shared with another build): FlyingFox took
/// about a seventh of Hummingbird's time and under a tenth of its build folder
/// (docs/studio.md has the figures), since it stands on the C library's
/// sockets alone where Hummingbird pulls in SwiftNIO and its family. CI builds from a fresh clone every run, so that
/// cost is paid again each time; the studio needs one page, a few routes and
/// one event stream, which FlyingFox covers (server-sent events as a chunked
/// body; its WebSocket support was not needed).
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

    private struct Running: Sendable {
        var http: HTTPServer
        var watcher: SceneWatcher
        var port: Int
    }

    private let running = Mutex<Running?>(nil)

    /// Reads the scene (an invalid one is served with its error) and the page's
    /// files; listens only in `start()`. `localhost` means 127.0.0.1.
    public init(scenePath: String, host: String = "127.0.0.1", port: Int = 7878, cacheBytes: Int = 256 << 20) throws(StudioError) {
        self.host = host == "localhost" ? "127.0.0.1" : host
        guard HostCheck.isIPLiteral(self.host) else { throw StudioError.badHost(host) }
        guard (0 ... 65535).contains(port) else { throw StudioError.cannotListen("port \(port) is not 0...65535") }
        requestedPort = port
        session = try SceneSession(path: scenePath)
        cache = FrameCache(budgetBytes: cacheBytes)
        handler = StudioHandler(session: session, cache: cache, events: events, export: export, resources: try StudioResources.load())
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
        let address: any SocketAddress
        do {
            address = host.contains(":")
                ? try sockaddr_in6.inet6(ip6: host, port: UInt16(requestedPort))
                : try sockaddr_in.inet(ip4: host, port: UInt16(requestedPort))
        } catch {
            throw StudioError.badHost(host)
        }
        // A frame of a large scene can take a while on a loaded machine: longer than FlyingFox's 15 s default.
        let http = HTTPServer(config: .init(address: address, timeout: 120, logger: .disabled), handler: handler)
        let failure = Mutex<StudioError?>(nil)
        let (host, port) = (self.host, requestedPort)
        Task {
            do {
                try await http.run()
            } catch {
                failure.withLock { $0 = Self.listenError(error, host: host, port: port) }
            }
        }
        // run() either listens or throws at once; FlyingFox has no single call that tells which.
        let deadline = ContinuousClock.now + .seconds(10)
        while !(await http.isListening) {
            if let error = failure.withLock({ $0 }) { throw error }
            guard ContinuousClock.now < deadline else {
                await http.stop()
                throw StudioError.cannotListen("the server did not start listening within 10 s")
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        var bound = requestedPort
        switch await http.listeningAddress {
        case .ip4(_, let listening)?, .ip6(_, let listening)?: bound = Int(listening)
        default: break
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
        await running.http.stop(timeout: 0.2)
    }

    /// Events clients connected now (for tests and the command's status).
    var eventClientCount: Int { events.clientCount }

    private static func listenError(_ error: any Error, host: String, port: Int) -> StudioError {
        if let socketError = error as? SocketError, case .failed(_, let code, let message) = socketError {
            switch code {
            case EADDRINUSE: return .portTaken(host: HostCheck.bracketed(host), port: port)
            case EADDRNOTAVAIL: return .cannotListen("cannot listen on \(host): it is not an address of this machine")
            case EACCES: return .cannotListen("cannot listen on port \(port): \(message) (ports below 1024 need privileges)")
            default: return .cannotListen("cannot listen on \(HostCheck.bracketed(host)):\(port): \(message)")
            }
        }
        return .cannotListen("cannot listen on \(HostCheck.bracketed(host)):\(port): \(error)")
    }
}
