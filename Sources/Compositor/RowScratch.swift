import Synchronization

/// Per-thread scratch rows for one band of drawing: coverage (Float), clip
/// coverage (Float), 8-bit alpha, a premultiplied RGBA8 source row and a
/// bitmap column table, all
/// indexed by absolute target x. Allocated once and reused, so steady-state
/// rendering allocates nothing per row or per item beyond small arrays.
final class RowScratch: @unchecked Sendable {
    private(set) var capacity = 0
    private(set) var coverage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var clipCoverage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private(set) var source = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
    /// Column table storage for separable bitmap mappings (see `ColumnTable`).
    private(set) var columnA = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var columnB = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var columnWeight = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// Per-pixel texel rows (byte offsets) and weights for rotated bitmap mappings.
    private(set) var rowA = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var rowB = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var rowWeight = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// Per-pixel texel columns for rotated mappings (the column table belongs to the item).
    private(set) var pixelA = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var pixelB = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var pixelWeight = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)

    init(width: Int = 0) { reserve(width) }

    /// Makes every row at least `width` pixels long (contents are not kept).
    func reserve(_ width: Int) {
        guard width > capacity else { return }
        release()
        capacity = width
        coverage = .allocate(capacity: width)
        clipCoverage = .allocate(capacity: width)
        alpha = .allocate(capacity: width)
        source = .allocate(capacity: width * 4)
        columnA = .allocate(capacity: width)
        columnB = .allocate(capacity: width)
        columnWeight = .allocate(capacity: width)
        rowA = .allocate(capacity: width); rowB = .allocate(capacity: width); rowWeight = .allocate(capacity: width)
        pixelA = .allocate(capacity: width); pixelB = .allocate(capacity: width); pixelWeight = .allocate(capacity: width)
    }

    /// Storage for one row of per-pixel texel coordinates (`Sampling.sampleRow` of rotated mappings).
    var texelCoordinates: TexelCoordinates {
        TexelCoordinates(columns: ColumnTable(x0: 0, offsetA: pixelA, offsetB: pixelB, weight: pixelWeight),
                         rowA: rowA, rowB: rowB, rowWeight: rowWeight)
    }

    /// A column table for target columns `x0 ..< x0 + count` (`x0 >= 0`, `x0 + count <= capacity`).
    func columnTable(x0: Int) -> ColumnTable {
        ColumnTable(x0: x0, offsetA: columnA + x0, offsetB: columnB + x0, weight: columnWeight + x0)
    }

    private func release() {
        coverage.deallocate(); clipCoverage.deallocate(); alpha.deallocate(); source.deallocate()
        columnA.deallocate(); columnB.deallocate(); columnWeight.deallocate()
        rowA.deallocate(); rowB.deallocate(); rowWeight.deallocate()
        pixelA.deallocate(); pixelB.deallocate(); pixelWeight.deallocate()
    }

    deinit { release() }
}

/// A thread-safe stack of `RowScratch`, so one renderer can serve concurrent
/// `render` calls while reusing buffers between frames.
final class ScratchPool: Sendable {
    private let stack = Mutex<[RowScratch]>([])

    /// `count` scratch sets, each at least `width` wide; hand them back with `recycle`.
    func take(_ count: Int, width: Int) -> [RowScratch] {
        var taken = stack.withLock { pool -> [RowScratch] in
            let n = min(count, pool.count)
            let got = Array(pool.suffix(n))
            pool.removeLast(n)
            return got
        }
        while taken.count < count { taken.append(RowScratch()) }
        for s in taken { s.reserve(width) }
        return taken
    }

    func recycle(_ scratch: [RowScratch]) {
        stack.withLock { $0.append(contentsOf: scratch) }
    }
}
