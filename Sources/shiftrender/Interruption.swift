import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into a flag the render loop polls, so that an
/// interrupted render cancels its encoder (removing temporary output) instead
/// of dying with a half-written file.
final class Interruption {
    private final class Flag: Sendable {
        let received = Atomic<Int32>(0)
    }

    private let flag = Flag()
    private let sources: [any DispatchSourceSignal]

    init() {
        let flag = self.flag
        sources = [SIGINT, SIGTERM].map { signal in
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { flag.received.store(signal, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = flag.received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
