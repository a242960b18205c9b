import Dispatch
import ShiftRender
import Synchronization

/// PNG bytes of the frames the page asked for, by (version, variant, still),
/// rendered on demand through `Renderer` and kept within a byte budget, least
/// recently used first out. After each frame asked for, its neighbours are
/// rendered in the background so that stepping and playing find them ready.
///
/// Invariants: an entry's version is the scene version it was rendered from,
/// so a reload never serves a stale picture (old versions just age out); the
/// budget holds however many frames or sizes are asked for.
///
/// Rendering runs on dispatch queues, not on the server's tasks: a frame takes
/// tens of milliseconds of CPU (the compositor's own threads), which would
/// stall the cooperative pool on a two-core machine. Requests use one serial
/// queue and prefetching another, lower-priority one, so a frame the page waits
/// for never queues behind a guess.
final class FrameCache: Sendable {
    enum Still: Hashable, Sendable {
        case frame(Int)
        case progress(Double)

        var moment: Moment {
            switch self {
            case .frame(let n): return .frame(n)
            case .progress(let p): return .progress(p)
            }
        }
    }

    struct Key: Hashable, Sendable {
        var version: Int
        var variant: SceneVariant
        var still: Still
    }

    private struct Entry {
        var png: [UInt8]
        var lastUse: UInt64
    }

    private struct Storage {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// How many frames either side of one asked for are rendered ahead (more ahead: playback goes forward).
    static let prefetchAhead = 4
    static let prefetchBehind = 1

    let budgetBytes: Int
    private let storage = Mutex(Storage())
    private let requestQueue = DispatchQueue(label: "studio.frames", qos: .userInitiated)
    private let prefetchQueue = DispatchQueue(label: "studio.prefetch", qos: .utility)

    /// 256 MB holds a few hundred frames of a phone-sized scene.
    init(budgetBytes: Int = 256 << 20) {
        self.budgetBytes = budgetBytes
    }

    var count: Int { storage.withLock { $0.entries.count } }
    var totalBytes: Int { storage.withLock { $0.bytes } }

    func cached(_ key: Key) -> [UInt8]? {
        storage.withLock { storage in
            guard var entry = storage.entries[key] else { return nil }
            storage.clock += 1
            entry.lastUse = storage.clock
            storage.entries[key] = entry
            return entry.png
        }
    }

    /// The PNG for `key`, from the cache or rendered now with `renderer`.
    func png(_ key: Key, renderer: Renderer) async -> Result<[UInt8], RenderError> {
        if let png = cached(key) { return .success(png) }
        return await withCheckedContinuation { continuation in
            requestQueue.async {
                continuation.resume(returning: self.renderAndStore(key, renderer: renderer))
            }
        }
    }

    /// Renders the neighbours of frame `key` in the background unless cached;
    /// gives up on them once `isCurrent` says the version has moved on.
    func prefetchNeighbours(of key: Key, renderer: Renderer, isCurrent: @escaping @Sendable (Int) -> Bool) {
        guard case .frame(let n) = key.still else { return }
        let last = renderer.frameCount - 1
        let around = Array((n + 1)...(n + Self.prefetchAhead)) + Array((n - Self.prefetchBehind)..<n)
        for neighbour in around where (0...last).contains(neighbour) {
            let next = Key(version: key.version, variant: key.variant, still: .frame(neighbour))
            prefetchQueue.async {
                guard isCurrent(next.version), self.cached(next) == nil else { return }
                _ = self.renderAndStore(next, renderer: renderer)
            }
        }
    }

    private func renderAndStore(_ key: Key, renderer: Renderer) -> Result<[UInt8], RenderError> {
        // Asked twice before the first finished: the second finds it here.
        if let png = cached(key) { return .success(png) }
        do {
            let png = try renderer.pngData(key.still.moment)
            store(png, for: key)
            return .success(png)
        } catch {
            return .failure(error)
        }
    }

    func store(_ png: [UInt8], for key: Key) {
        storage.withLock { storage in
            storage.clock += 1
            if let old = storage.entries[key] { storage.bytes -= old.png.count }
            storage.entries[key] = Entry(png: png, lastUse: storage.clock)
            storage.bytes += png.count
            // Least recently used out until within budget; the newest entry always stays.
            while storage.bytes > budgetBytes, storage.entries.count > 1,
                let oldest = storage.entries.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                storage.bytes -= oldest.value.png.count
                storage.entries.removeValue(forKey: oldest.key)
            }
        }
    }
}
