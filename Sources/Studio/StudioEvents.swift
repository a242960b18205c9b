import Foundation
import Synchronization

/// The /events clients and the broadcast of reload, error and export messages
/// to all of them, with a keepalive comment every 15 s.
///
/// Each client is an `AsyncStream` of wire text; a slow client's stream buffers
/// only the newest 64 messages (`bufferingNewest`), so one stuck browser tab
/// cannot grow the server's memory. `finish()` ends every stream, which ends
/// the chunked responses, so the server can stop without waiting on them.
final class StudioEvents: Sendable {
    static let keepaliveInterval: Duration = .seconds(15)

    private struct Clients {
        var continuations: [UUID: AsyncStream<String>.Continuation] = [:]
        var finished = false
    }

    private let clients = Mutex(Clients())
    private let keepalive = Mutex<Task<Void, Never>?>(nil)

    init() {}

    var clientCount: Int { clients.withLock { $0.continuations.count } }

    /// Starts the keepalive comments (once).
    func startKeepalive() {
        keepalive.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.keepaliveInterval)
                    guard let self, !Task.isCancelled else { return }
                    self.send(text: StudioEvent.keepaliveText)
                }
            }
        }
    }

    /// A new client's stream, starting with what `first` says it must know now.
    /// `first` runs under the clients' lock, so a broadcast cannot fall between
    /// it and the registration (it comes after, or `first` already reflects it).
    /// Finishing the continuation (`EventStreamBody.end()`) unregisters the client.
    func subscribe(first: () -> [StudioEvent]) -> EventStreamBody {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        // Tells the browser to reconnect after a second if the stream drops.
        continuation.yield("retry: 1000\n\n")
        let added = clients.withLock { clients -> Bool in
            guard !clients.finished else { return false }
            for event in first() { continuation.yield(event.serverSentText) }
            clients.continuations[id] = continuation
            return true
        }
        let body = EventStreamBody(messages: stream) { continuation.finish() }
        guard added else {
            continuation.finish()
            return body
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.clients.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return body
    }

    func broadcast(_ event: StudioEvent) { send(text: event.serverSentText) }

    private func send(text: String) {
        let targets = clients.withLock { Array($0.continuations.values) }
        for continuation in targets { continuation.yield(text) }
    }

    /// Ends every stream and refuses new ones: the server is stopping.
    func finish() {
        keepalive.withLock { task in
            task?.cancel()
            task = nil
        }
        let targets = clients.withLock { clients -> [AsyncStream<String>.Continuation] in
            clients.finished = true
            defer { clients.continuations.removeAll() }
            return Array(clients.continuations.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
