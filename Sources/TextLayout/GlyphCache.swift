import Synchronization

/// Glyph coverage, rasterized once per face, glyph, pixel size and
/// subpixel offset and shared by every label and thread. Over its byte
/// budget it is emptied whole (see the module notes): what it holds changes
/// the time a render takes, never its pixels.
final class GlyphCache: Sendable {
    struct Key: Hashable {
        var face: Int
        var glyph: UInt32
        /// 26.6 pixels per em.
        var size: Int
        /// Quarters of a pixel, 0...3.
        var subpixel: Int
    }

    private struct State {
        var entries: [Key: GlyphCoverage] = [:]
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    /// 64 MiB of coverage: a screen of labels at @3x needs a few hundred kilobytes.
    static let budget = 64 << 20
    private let state = Mutex(State())

    /// The coverage for `key`, made by `rasterize` (outside the lock) the first time.
    func coverage(_ key: Key, rasterize: () -> GlyphCoverage) -> GlyphCoverage {
        let cached: GlyphCoverage? = state.withLock { state in
            let found = state.entries[key]
            if found != nil { state.hits += 1 } else { state.misses += 1 }
            return found
        }
        if let cached { return cached }
        let made = rasterize()
        let cost = made.alpha.count + 64
        state.withLock { state in
            if state.bytes + cost > GlyphCache.budget {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if state.entries.updateValue(made, forKey: key) == nil { state.bytes += cost }
        }
        return made
    }

    /// Empties the cache (faces stay loaded).
    func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.bytes = 0
        }
    }

    /// Lookups answered from the cache and rasterizations, since the typesetter was made.
    var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}
