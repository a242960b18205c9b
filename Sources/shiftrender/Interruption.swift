import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into a flag the render loop polls, so that an
/// interrupted render cancels its encoder (removing temporary output) instead
/// of dying with a half-written file.
final class Interruption: Sendable {
    private let flag = Atomic<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    init() {
        var sources: [any DispatchSourceSignal] = []
        let flag = self.flag
        for signal in [SIGINT, SIGTERM] {
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { flag.store(signal, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = flag.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
