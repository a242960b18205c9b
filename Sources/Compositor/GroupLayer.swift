import Synchronization
import Primitives
import FramePlan

/// The transparent layer of one `.group` item (group opacity) in one prepared
/// display list: the group's nested items, prepared against the layer's pixel
/// box, and (while the list is drawn) a pooled buffer holding those pixels.
///
/// The layer is in *target* pixel coordinates: pixel `(x, y)` of the box is
/// target pixel `(x, y)`, so nested items are prepared exactly as they would
/// be drawn directly (same spans, same coverage), and the group item reads its
/// layer 1:1 at an integer offset, row `y` from row `y`. Every dependency is
/// therefore row-local: a band that draws target row `y` draws row `y` of
/// every layer first, innermost first (`Rasterizer.drawBand`), with no barrier
/// and the same bytes for every thread count.
final class GroupLayer: @unchecked Sendable {
    /// Target pixels the layer holds: the union of its items' bounds (within
    /// the group's shape, clips and target). Pixels outside are transparent.
    let box: PixelBox
    /// The nested items, prepared against `box` (occlusion culled among themselves).
    let content: Rasterizer.PreparedList
    /// Pixels that need no clearing before the items are drawn: the largest
    /// `opaqueBox` of an item (an opaque source at alpha 255 is *stored*, so
    /// whatever was there before, even a pooled buffer's old bytes, cannot
    /// reach the result). Nil when there is none or it covers the box
    /// (`content.coversTarget`: then nothing is cleared).
    let keepBox: PixelBox?
    /// Premultiplied RGBA8, `box` rows of `stride` pixels; set by `LayerPool.lend`
    /// before any band runs, valid until the pool takes the buffer back.
    private(set) var pixels: UnsafeMutablePointer<UInt8>?

    var stride: Int { box.x1 - box.x0 }
    var byteCount: Int { (box.x1 - box.x0) * (box.y1 - box.y0) * 4 }

    init(box: PixelBox, content: Rasterizer.PreparedList) {
        self.box = box
        self.content = content
        var best: PixelBox?
        var bestArea = 0
        for item in content.items {
            guard let b = item.opaqueBox?.intersection(box), !b.isEmpty else { continue }
            let area = (b.x1 - b.x0) * (b.y1 - b.y0)
            if area > bestArea {
                best = b
                bestArea = area
            }
        }
        keepBox = best
    }

    /// Makes row `y` (target coordinates) of the layer transparent, except
    /// where `keepBox` makes that unnecessary.
    func clearRow(_ y: Int) {
        guard let pixels, !content.coversTarget else { return }
        let row = pixels + (y - box.y0) * stride * 4
        func clear(_ x0: Int, _ x1: Int) {
            if x0 < x1 { (row + (x0 - box.x0) * 4).update(repeating: 0, count: (x1 - x0) * 4) }
        }
        if let k = keepBox, k.y0 <= y, y < k.y1 {
            clear(box.x0, k.x0)
            clear(k.x1, box.x1)
        } else {
            clear(box.x0, box.x1)
        }
    }

    func attach(_ buffer: LayerBuffer?) { pixels = buffer?.base }

    /// The layers used by `items` and their nested groups, innermost first
    /// (the order in which they must be drawn).
    static func postOrder(_ items: [PreparedItem]) -> [GroupLayer] {
        var out: [GroupLayer] = []
        func visit(_ items: [PreparedItem]) {
            for item in items {
                if case .layer(let fill) = item.fill {
                    visit(fill.layer.content.items)
                    out.append(fill.layer)
                }
            }
        }
        visit(items)
        return out
    }
}

/// Storage for one layer, reused across frames.
final class LayerBuffer: @unchecked Sendable {
    private(set) var capacity: Int
    private(set) var base: UnsafeMutablePointer<UInt8>

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: max(1, capacity))
    }

    /// At least `bytes` bytes (contents not kept); grows by a quarter more than
    /// asked, so a group growing frame by frame reallocates rarely.
    func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        base.deallocate()
        capacity = bytes + bytes / 4
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}

/// A thread-safe pool of layer buffers: a renderer keeps one and its frames
/// borrow from it, so steady-state frames with groups allocate no pixels.
/// Which buffer a layer gets never changes a byte (layers are cleared or
/// covered before they are read). Backdrop blur regions borrow from it too
/// (written whole by the horizontal blur before anything reads them).
final class LayerPool: Sendable {
    private let free = Mutex<[LayerBuffer]>([])

    /// Attaches a buffer to every layer in `layers`; hand the result back with `recycle`.
    func lend(_ layers: [GroupLayer]) -> [LayerBuffer] {
        let buffers = lend(bytes: layers.map(\.byteCount))
        for (layer, buffer) in zip(layers, buffers) { layer.attach(buffer) }
        return buffers
    }

    /// Attaches a buffer to every backdrop region; hand the result back with `recycle(_:fromRegions:)`.
    func lend(_ regions: [BackdropRegion]) -> [LayerBuffer] {
        let buffers = lend(bytes: regions.map(\.byteCount))
        for (region, buffer) in zip(regions, buffers) { region.attach(buffer) }
        return buffers
    }

    func recycle(_ buffers: [LayerBuffer], fromRegions regions: [BackdropRegion]) {
        for region in regions { region.attach(nil) }
        guard !buffers.isEmpty else { return }
        free.withLock { $0.append(contentsOf: buffers) }
    }

    /// One buffer of at least `sizes[i]` bytes per entry.
    private func lend(bytes sizes: [Int]) -> [LayerBuffer] {
        guard !sizes.isEmpty else { return [] }
        // Largest first, each taking the smallest free buffer that fits (else the largest, grown).
        let order = sizes.indices.sorted { sizes[$0] > sizes[$1] }
        var lent = [LayerBuffer?](repeating: nil, count: sizes.count)
        free.withLock { pool in
            for i in order {
                let need = sizes[i]
                var best: Int?
                for (k, b) in pool.enumerated() where b.capacity >= need {
                    if let current = best, pool[current].capacity <= b.capacity { continue }
                    best = k
                }
                if best == nil, !pool.isEmpty {
                    best = pool.indices.max { pool[$0].capacity < pool[$1].capacity }
                }
                if let k = best { lent[i] = pool.remove(at: k) }
            }
        }
        var buffers: [LayerBuffer] = []
        buffers.reserveCapacity(sizes.count)
        for i in sizes.indices {
            let buffer = lent[i] ?? LayerBuffer(capacity: sizes[i])
            buffer.reserve(sizes[i])
            buffers.append(buffer)
        }
        return buffers
    }

    func recycle(_ buffers: [LayerBuffer], from layers: [GroupLayer]) {
        for layer in layers { layer.attach(nil) }
        guard !buffers.isEmpty else { return }
        free.withLock { $0.append(contentsOf: buffers) }
    }

    /// Bytes held by free buffers (for tests).
    var freeBytes: Int { free.withLock { $0.reduce(0) { $0 + $1.capacity } } }
}
