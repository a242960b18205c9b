import FlyingFox
import FlyingSocks

/// Adapts a client's stream of server-sent-event text to the byte sequence
/// FlyingFox sends as a chunked response body, so /events can stay open and
/// write each message as it comes. The stream's end ends the response.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let messages: AsyncStream<String>

    func makeAsyncIterator() -> Iterator { Iterator(messages: messages.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var messages: AsyncStream<String>.AsyncIterator
        /// Bytes of the current message not handed out yet.
        var pending: ArraySlice<UInt8> = []

        mutating func next() async throws -> UInt8? {
            guard let bytes = try await nextBuffer(suggested: 1) else { return nil }
            return bytes.first
        }

        /// At most `count` bytes, at least one, waiting for the next message when none are left.
        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            while pending.isEmpty {
                guard let message = await messages.next() else { return nil }
                pending = ArraySlice(message.utf8)
            }
            let take = pending.prefix(Swift.max(1, count))
            pending = pending.dropFirst(take.count)
            return take
        }
    }
}
