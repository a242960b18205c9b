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
        var best: PixelBox?, bestArea = 0
        for item in content.items {
            guard let b = item.opaqueBox?.intersection(box), !b.isEmpty else { continue }
            let area = (b.x1 - b.x0) * (b.y1 - b.y0)
            if area > bestArea { best = b; bestArea = area }
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
                if case .layer(let layer) = item.fill {
                    visit(layer.content.items)
                    out.append(layer)
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
/// covered before they are read).
final class LayerPool: Sendable {
    private let free = Mutex<[LayerBuffer]>([])

    /// Attaches a buffer to every layer in `layers`; hand the result back with `recycle`.
    func lend(_ layers: [GroupLayer]) -> [LayerBuffer] {
        guard !layers.isEmpty else { return [] }
        // Largest first, each taking the smallest free buffer that fits (else the largest, grown).
        let order = layers.indices.sorted { layers[$0].byteCount > layers[$1].byteCount }
        var lent = [LayerBuffer?](repeating: nil, count: layers.count)
        free.withLock { pool in
            for i in order {
                let need = layers[i].byteCount
                var best: Int?
                for (k, b) in pool.enumerated() where b.capacity >= need {
                    if best == nil || b.capacity < pool[best!].capacity { best = k }
                }
                if best == nil, !pool.isEmpty {
                    best = pool.indices.max { pool[$0].capacity < pool[$1].capacity }
                }
                if let k = best { lent[i] = pool.remove(at: k) }
            }
        }
        var buffers: [LayerBuffer] = []
        buffers.reserveCapacity(layers.count)
        for i in layers.indices {
            let buffer = lent[i] ?? LayerBuffer(capacity: layers[i].byteCount)
            buffer.reserve(layers[i].byteCount)
            layers[i].attach(buffer)
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

extension Rasterizer {
    /// Groups nested deeper than this draw nothing (a guard against runaway recursion).
    static let maxGroupDepth = 32

    /// Appends the prepared form of `group` (a `.group` item) to `items`:
    /// nothing when it cannot be seen; its items themselves when it is an exact
    /// no-op layer (opacity 1, no clips, a shape that is a whole-pixel box: the
    /// layer would be copied with coverage exactly 1, so drawing the items in
    /// place, cut to that box, gives the same frame up to rounding, faster);
    /// otherwise one item reading a `GroupLayer`.
    static func appendGroup(_ group: DrawItem, content: DisplayList, target: PixelBox, sources: Sources,
                            depth: Int, into items: inout [PreparedItem]) {
        guard depth < maxGroupDepth else { return }
        let opacity = group.opacity > 0 ? min(group.opacity, 1) : 0  // NaN -> 0
        guard opacity > 0, !content.items.isEmpty,
              let shape = CoverageShape(transform: group.transform, shape: group.shape) else { return }
        if opacity == 1, group.clips.isEmpty, let hard = pixelBox(group.transform, group.shape) {
            let box = hard.intersection(target)
            if !box.isEmpty { append(content, target: box, sources: sources, depth: depth + 1, into: &items) }
            return
        }
        var box = shape.bounds.intersection(target)
        var clips: [CoverageShape] = []
        clips.reserveCapacity(group.clips.count)
        for clip in group.clips {
            guard !box.isEmpty, let c = CoverageShape(transform: clip.transform, shape: clip.shape) else { return }
            box = box.intersection(c.bounds)
            clips.append(c)
        }
        guard !box.isEmpty else { return }
        let nested = prepare(content, target: box, sources: sources, depth: depth + 1)
        guard var used = nested.items.first?.bounds else { return }
        for item in nested.items.dropFirst() {
            let b = item.bounds
            used = PixelBox(x0: min(used.x0, b.x0), y0: min(used.y0, b.y0), x1: max(used.x1, b.x1), y1: max(used.y1, b.y1))
        }
        let layer = GroupLayer(box: used, content: nested)
        items.append(PreparedItem(layer: layer, shape: shape, clips: clips, opacity: opacity))
    }

    /// The whole-pixel box a shape is exactly (coverage 1 inside, 0 outside):
    /// no rotation, no rounded corners, integer edges in target pixels; else nil.
    static func pixelBox(_ t: AffineTransform2D, _ shape: RoundedRect) -> PixelBox? {
        guard t.b == 0, t.c == 0, !(shape.cornerRadius > 0) else { return nil }
        let r = shape.rect
        let xs = (t.a * r.minX + t.tx, t.a * (r.minX + r.width) + t.tx)
        let ys = (t.d * r.minY + t.ty, t.d * (r.minY + r.height) + t.ty)
        let edges = [xs.0, xs.1, ys.0, ys.1]
        guard edges.allSatisfy({ $0.isFinite && abs($0) < 1e15 && $0 == $0.rounded() }) else { return nil }
        let box = PixelBox(x0: clampedIndex(min(xs.0, xs.1)), y0: clampedIndex(min(ys.0, ys.1)),
                           x1: clampedIndex(max(xs.0, xs.1)), y1: clampedIndex(max(ys.0, ys.1)))
        return box.isEmpty ? nil : box
    }
}
