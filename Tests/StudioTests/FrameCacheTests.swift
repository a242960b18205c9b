@testable import Studio
import ShiftRender
import Testing

/// The frame cache keeps to its byte budget, least recently used out first,
/// and never serves a frame of one version for another.
@Suite struct FrameCacheTests {
    static func key(_ n: Int, version: Int = 1) -> FrameCache.Key {
        FrameCache.Key(version: version, variant: .asWritten, still: .frame(n))
    }

    @Test func staysWithinItsBudgetDroppingTheLeastRecentlyUsed() {
        let cache = FrameCache(budgetBytes: 1000)
        for n in 0 ..< 10 { cache.store([UInt8](repeating: UInt8(n), count: 300), for: Self.key(n)) }
        #expect(cache.totalBytes <= 1000)
        #expect(cache.count == 3)
        #expect(cache.cached(Self.key(9)) == [UInt8](repeating: 9, count: 300))
        #expect(cache.cached(Self.key(0)) == nil)
        // Touching 7 keeps it when 10 comes in; 8, untouched, goes.
        _ = cache.cached(Self.key(7))
        cache.store([UInt8](repeating: 10, count: 300), for: Self.key(10))
        #expect(cache.cached(Self.key(7)) != nil)
        #expect(cache.cached(Self.key(8)) == nil)
    }

    @Test func aNewVersionIsADifferentEntry() {
        let cache = FrameCache(budgetBytes: 1000)
        cache.store([1], for: Self.key(0, version: 1))
        #expect(cache.cached(Self.key(0, version: 2)) == nil)
        #expect(cache.cached(Self.key(0, version: 1)) == [1])
    }

    @Test func oneEntryLargerThanTheBudgetIsStillServed() {
        let cache = FrameCache(budgetBytes: 10)
        cache.store([UInt8](repeating: 1, count: 50), for: Self.key(0))
        #expect(cache.cached(Self.key(0))?.count == 50)
        cache.store([UInt8](repeating: 2, count: 50), for: Self.key(1))
        #expect(cache.count == 1)
        #expect(cache.cached(Self.key(0)) == nil)
    }
}
