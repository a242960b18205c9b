import Dispatch
import Synchronization
import Primitives
import FramePlan

/// Prepares a display list (items resolved, culled, occlusion computed) and
/// draws it into a premultiplied RGBA8 target in bands, one per thread.
///
/// Bands are interleaved chunks of `chunkRows` rows (band `k` of `n` takes
/// chunks `k, k + n, ...`, or its share of them: `BandSplit`), so the work stays
/// balanced whether the busy part of the frame is at the top or the bottom,
/// while each band still sets an item up once (column tables) for all its rows.
/// Every pixel's value depends only on the items and its own coordinates, never
/// on the band, so any thread count (and any split) gives byte-identical output.
enum Rasterizer {
    static let chunkRows = 16

    /// Source bitmaps by reference kind, as mip chains; nil for empty or malformed bitmaps
    /// (items using them draw nothing).
    struct Sources: Sendable {
        var images: [MipChain?]
        var snapshots: [MipChain?]
        /// Rows of groups that need no layer are drawn without it (`LayerBypass`); false only for
        /// tests comparing the two paths, which give the same bytes.
        var bypassesLayers = true
        /// Rotated opaque items hide what is under their rows (`RowHider`); false only for tests comparing the
        /// two, which give the same bytes.
        var hidesByRows = true
        /// Lends storage to the textures made per frame (`PlaneLayer`); nil allocates each afresh.
        var texturePool: TexturePool?

        static func chain(_ b: Bitmap) -> MipChain? {
            b.width > 0 && b.height > 0 && b.pixels.count == b.width * b.height * 4 ? MipChain(b) : nil
        }

        init(images: [MipChain?], snapshots: [MipChain?]) {
            self.images = images
            self.snapshots = snapshots
        }

        /// Chains for the bitmaps `list` references, inside groups too (the others
        /// stay nil: no copy is made of them).
        init(images: [Bitmap], snapshots: [Bitmap], referencedBy list: DisplayList) {
            var usedImages = Set<Int>()
            var usedSnapshots = Set<Int>()
            func collect(_ list: DisplayList, depth: Int) {
                for item in list.items {
                    switch item.paint.bitmapReference {
                    case .image(let i): usedImages.insert(i)
                    case .snapshot(let i): usedSnapshots.insert(i)
                    case nil: break
                    }
                    if case .group(let nested) = item.paint, depth < LayerFill.maxGroupDepth { collect(nested, depth: depth + 1) }
                }
            }
            collect(list, depth: 0)
            self.images = images.indices.map { usedImages.contains($0) ? Self.chain(images[$0]) : nil }
            self.snapshots = snapshots.indices.map { usedSnapshots.contains($0) ? Self.chain(snapshots[$0]) : nil }
        }

        func chain(_ reference: BitmapReference) -> MipChain? {
            switch reference {
            case .image(let i): return images.indices.contains(i) ? images[i] : nil
            case .snapshot(let i): return snapshots.indices.contains(i) ? snapshots[i] : nil
            }
        }
    }

    /// A display list ready to draw.
    struct PreparedList: Sendable {
        var items: [PreparedItem]
        /// An opaque item covers every pixel: the background need not be filled.
        var coversTarget: Bool
        /// Every group layer the items read (nested ones included), innermost
        /// first: drawn before `items`. Set on the top-level list only.
        var layers: [GroupLayer] = []
        /// Indices of the backdrop blurs in `items` (pass boundaries, `drawBanded`).
        var boundaries: [Int] = []

        /// The items of each pass, in order: the first pass, then from each
        /// backdrop blur (which comes first in its range) up to the next one.
        var passes: [Range<Int>] {
            let starts = [0] + boundaries
            return starts.indices.map { k in starts[k] ..< (k + 1 < starts.count ? starts[k + 1] : items.count) }
        }
    }

    /// `list` prepared for a `width x height` target; projected items' plane
    /// layers are drawn with `threads` bands (`PlaneLayer`: the same bytes for any count).
    static func prepare(_ list: DisplayList, width: Int, height: Int, sources: Sources, threads: Int = 1) -> PreparedList {
        var prepared = prepare(
            list, target: PixelBox(x0: 0, y0: 0, x1: width, y1: height), sources: sources, depth: 0, threads: threads)
        // After culling, so layers of groups hidden by a later opaque item are not drawn.
        prepared.layers = GroupLayer.postOrder(prepared.items)
        prepared.boundaries = prepared.items.indices.filter { prepared.items[$0].backdrop != nil }
        return prepared
    }

    /// `list` prepared against the pixel box `target` (the whole target, or a group's layer).
    static func prepare(_ list: DisplayList, target: PixelBox, sources: Sources, depth: Int, threads: Int) -> PreparedList {
        var items: [PreparedItem] = []
        items.reserveCapacity(list.items.count)
        append(list, target: target, sources: sources, depth: depth, threads: threads, into: &items)
        let covers = Occlusion.cull(&items, target: target, rowHiders: sources.hidesByRows)
        return PreparedList(items: items, coversTarget: covers)
    }

    static func append(
        _ list: DisplayList, target: PixelBox, sources: Sources, depth: Int, threads: Int, into items: inout [PreparedItem]
    ) {
        for item in list.items {
            PreparedItem.append(item, target: target, sources: sources, depth: depth, threads: threads, into: &items)
        }
    }

    /// Fills rows `rows` of the target with one premultiplied pixel value.
    static func fill(_ target: UnsafeMutablePointer<UInt8>, width: Int, rows: Range<Int>, with pixel: SIMD4<UInt8>) {
        let count = width * rows.count
        guard count > 0 else { return }
        UnsafeMutableRawPointer(target + rows.lowerBound * width * 4)
            .bindMemory(to: SIMD4<UInt8>.self, capacity: count)
            .update(repeating: pixel, count: count)
    }

    /// The row a band draws `distance` rows after row `y` (`forEachRow`'s order): in the next chunk
    /// of the band's own when `y + distance` is past the end of `y`'s, so that what a band prefetches
    /// is what it draws next rather than another band's rows.
    @inline(__always)
    static func rowAhead(_ y: Int, by distance: Int, split: BandSplit) -> Int {
        let next = y + distance
        let chunk = y / chunkRows
        guard next / chunkRows != chunk else { return next }
        let band = split.owner(ofChunk: chunk)
        var later = chunk + 1
        while split.owner(ofChunk: later) != band && later < chunk + BandSplit.period { later += 1 }
        return later * chunkRows + (next - (chunk + 1) * chunkRows)
    }

    /// Calls `body` with every row of `rows` that belongs to band `band` of `split`.
    @inline(__always)
    static func forEachRow(of band: Int, in split: BandSplit, rows: Range<Int>, _ body: (Int) -> Void) {
        guard !rows.isEmpty else { return }
        var chunk = rows.lowerBound / chunkRows
        while chunk * chunkRows < rows.upperBound {
            if split.owner(ofChunk: chunk) == band {
                let start = max(rows.lowerBound, chunk * chunkRows)
                let end = min(rows.upperBound, (chunk + 1) * chunkRows)
                for y in start ..< end { body(y) }
            }
            chunk += 1
        }
    }

    /// Draws band `band` of `split` of the target (a `width x height` pixel
    /// buffer): the group layers, the background and the first pass.
    static func drawBand(
        _ list: PreparedList, background: SIMD4<UInt8>?, target: UnsafeMutablePointer<UInt8>,
        width: Int, height: Int, band: Int, split: BandSplit, scratch: RowScratch
    ) {
        precondition(scratch.capacity >= width)
        scratch.split = split
        // Group layers first, innermost first: row y of a layer reads only row y
        // of the layers nested in it, all drawn by this band just before.
        for layer in list.layers {
            guard let pixels = layer.pixels else { continue }
            let box = layer.box
            let stride = layer.stride
            if !layer.content.coversTarget {
                forEachRow(of: band, in: split, rows: box.y0 ..< box.y1) { y in layer.clearRow(y) }
            }
            for item in layer.content.items {
                item.draw(band: band, of: split, into: pixels, width: stride, origin: (box.x0, box.y0), scratch: scratch)
            }
        }
        if let background, !list.coversTarget {
            forEachRow(of: band, in: split, rows: 0 ..< height) { y in fill(target, width: width, rows: y ..< y + 1, with: background) }
        }
        for i in list.passes[0] { list.items[i].draw(band: band, of: split, into: target, width: width, scratch: scratch) }
    }

    /// Runs `body(k)` for `k` in `0 ..< count`, in parallel when `count > 1`; returns when all are done.
    private static func parallel(_ count: Int, _ body: @Sendable (Int) -> Void) {
        if count == 1 {
            body(0)
        } else if count > 1 {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
    }

    /// Draws into the whole target with `scratch.count` bands in parallel, split as `split` says when it has
    /// that many bands (else evenly); `background`, if given, is filled first (unless an opaque item covers
    /// everything). Group layers and backdrop regions borrow buffers from `layers` for the duration of the call.
    /// `alongside`, if given, runs once, on the last band's thread after its first pass, and counts in its time.
    /// Returns how long each band's first pass took (seconds), for the next frame's split (`FrameRenderer`).
    ///
    /// Passes: the first pass (with the layers and background) is drawn in
    /// bands; then for each backdrop blur, every phase finished across all
    /// bands before the next starts (`concurrentPerform` returns only then):
    /// its region blurred horizontally (groups of eight rows shared out among
    /// the bands), vertically (groups of eight columns), then the blur
    /// composited and the items up to the next blur drawn in bands.
    @discardableResult
    static func drawBanded(
        _ list: PreparedList, background: SIMD4<UInt8>?, target: inout Bitmap, scratch: [RowScratch],
        layers: LayerPool, split requested: BandSplit? = nil, alongside: (@Sendable () -> Void)? = nil
    ) -> [Double] {
        let width = target.width
        let height = target.height
        precondition(target.pixels.count == width * height * 4, "malformed target bitmap")
        let buffers = layers.lend(list.layers)
        defer { layers.recycle(buffers, from: list.layers) }
        let regions = list.boundaries.compactMap { list.items[$0].backdrop }
        let regionBuffers = layers.lend(regions)
        defer { layers.recycle(regionBuffers, fromRegions: regions) }
        let bands = max(1, min(scratch.count, (height + chunkRows - 1) / chunkRows))
        let split = requested.flatMap { $0.bands == bands ? $0 : nil } ?? .even(bands)
        let seconds = Mutex([Double](repeating: 0, count: bands))
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return }
            let base = SendablePointer(base: address)
            parallel(bands) { band in
                let start = ContinuousClock.now
                drawBand(
                    list, background: background, target: base.base, width: width, height: height,
                    band: band, split: split, scratch: scratch[band])
                if band == bands - 1 { alongside?() }
                let taken = start.duration(to: .now)
                seconds.withLock { $0[band] = Double(taken.components.seconds) + Double(taken.components.attoseconds) * 1e-18 }
            }
            for pass in list.passes.dropFirst() {
                guard let region = list.items[pass.lowerBound].backdrop else { continue }
                // Work is shared out by group index, and a group's pixels depend only on the
                // target and the group, so which band blurs which group changes no byte.
                let rowWorkers = min(bands, region.rowGroups)
                parallel(rowWorkers) { k in
                    for g in stride(from: k, to: region.rowGroups, by: rowWorkers) {
                        region.blurRows(group: g, target: base.base, width: width, scratch: scratch[k])
                    }
                }
                let columnWorkers = min(bands, region.columnGroups)
                parallel(columnWorkers) { k in
                    for g in stride(from: k, to: region.columnGroups, by: columnWorkers) {
                        region.blurColumns(group: g, scratch: scratch[k])
                    }
                }
                parallel(bands) { band in
                    for i in pass {
                        list.items[i].draw(band: band, of: split, into: base.base, width: width, scratch: scratch[band])
                    }
                }
            }
        }
        return seconds.withLock { $0 }
    }
}
