/// One /events client's messages, handed to the connection's thread one at
/// a time (`next()` blocks that thread, never the concurrency pool's), and
/// the way to leave the broadcast when the client has gone: a stream whose
/// client stopped reading would otherwise stay registered until the studio
/// stops. The stream's end (the studio stopping) ends the response.
final class EventStreamBody: @unchecked Sendable {
    // Touched only by the one connection thread that sends this body, one `next()` at a time.
    private var messages: AsyncStream<String>.AsyncIterator
    private let leave: @Sendable () -> Void

    init(messages: AsyncStream<String>, leave: @escaping @Sendable () -> Void) {
        self.messages = messages.makeAsyncIterator()
        self.leave = leave
    }

    /// The next message's text, waiting for it; nil when the stream has ended.
    func next() -> String? {
        Blocking.run { await self.messages.next() }
    }

    /// Leaves the broadcast (safe after the stream ended).
    func end() { leave() }
}
