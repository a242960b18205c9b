import Dispatch
import Primitives
import FramePlan

/// Prepares a display list (items resolved, culled, occlusion computed) and
/// draws it into a premultiplied RGBA8 target in bands, one per thread.
///
/// Bands are interleaved chunks of `chunkRows` rows (band `k` of `n` takes
/// chunks `k, k + n, ...`), so the work stays balanced whether the busy part of
/// the frame is at the top or the bottom, while each band still sets an item up
/// once (column tables) for all its rows. Every pixel's value depends only on
/// the items and its own coordinates, never on the band, so any thread count
/// gives byte-identical output.
enum Rasterizer {
    static let chunkRows = 16

    /// Source bitmaps by reference kind, as mip chains; nil for empty or malformed bitmaps
    /// (items using them draw nothing).
    struct Sources: Sendable {
        var images: [MipChain?]
        var snapshots: [MipChain?]

        static func chain(_ b: Bitmap) -> MipChain? {
            b.width > 0 && b.height > 0 && b.pixels.count == b.width * b.height * 4 ? MipChain(b) : nil
        }

        init(images: [MipChain?], snapshots: [MipChain?]) {
            self.images = images
            self.snapshots = snapshots
        }

        /// Chains for the bitmaps `list` references (the others stay nil: no copy is made of them).
        init(images: [Bitmap], snapshots: [Bitmap], referencedBy list: DisplayList) {
            var usedImages = Set<Int>(), usedSnapshots = Set<Int>()
            for item in list.items {
                if case .bitmap(let reference) = item.paint {
                    switch reference {
                    case .image(let i): usedImages.insert(i)
                    case .snapshot(let i): usedSnapshots.insert(i)
                    }
                }
            }
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
    }

    static func prepare(_ list: DisplayList, width: Int, height: Int, sources: Sources) -> PreparedList {
        var items = list.items.compactMap {
            PreparedItem($0, targetWidth: width, targetHeight: height, sources: sources)
        }
        let covers = Occlusion.cull(&items, target: PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        return PreparedList(items: items, coversTarget: covers)
    }

    /// Fills rows `rows` of the target with one premultiplied pixel value.
    static func fill(_ target: UnsafeMutablePointer<UInt8>, width: Int, rows: Range<Int>, with pixel: SIMD4<UInt8>) {
        let count = width * rows.count
        guard count > 0 else { return }
        UnsafeMutableRawPointer(target + rows.lowerBound * width * 4)
            .bindMemory(to: SIMD4<UInt8>.self, capacity: count)
            .update(repeating: pixel, count: count)
    }

    /// Calls `body` with every row of `rows` that belongs to band `band` of `bands`.
    @inline(__always)
    static func forEachRow(of band: Int, in bands: Int, rows: Range<Int>, _ body: (Int) -> Void) {
        guard !rows.isEmpty else { return }
        let firstChunk = rows.lowerBound / chunkRows
        var chunk = firstChunk + ((band - firstChunk % bands) + bands) % bands
        while chunk * chunkRows < rows.upperBound {
            let start = max(rows.lowerBound, chunk * chunkRows), end = min(rows.upperBound, (chunk + 1) * chunkRows)
            for y in start ..< end { body(y) }
            chunk += bands
        }
    }

    /// Draws band `band` of `bands` of the target (a `width x height` pixel buffer).
    static func drawBand(_ list: PreparedList, background: SIMD4<UInt8>?, target: UnsafeMutablePointer<UInt8>,
                         width: Int, height: Int, band: Int, bands: Int, scratch: RowScratch) {
        precondition(scratch.capacity >= width)
        if let background, !list.coversTarget {
            forEachRow(of: band, in: bands, rows: 0 ..< height) { y in fill(target, width: width, rows: y ..< y + 1, with: background) }
        }
        for item in list.items {
            var painter = RowPainter(item, target: target, width: width, scratch: scratch)
            forEachRow(of: band, in: bands, rows: item.bounds.y0 ..< item.bounds.y1) { y in painter.drawRow(y) }
        }
    }

    /// Draws into the whole target with `scratch.count` bands in parallel;
    /// `background`, if given, is filled first (unless an opaque item covers everything).
    static func drawBanded(_ list: PreparedList, background: SIMD4<UInt8>?, target: inout Bitmap, scratch: [RowScratch]) {
        let width = target.width, height = target.height
        precondition(target.pixels.count == width * height * 4, "malformed target bitmap")
        let bands = max(1, min(scratch.count, (height + chunkRows - 1) / chunkRows))
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return }
            let base = SendablePointer(base: address)
            if bands == 1 {
                drawBand(list, background: background, target: base.base, width: width, height: height,
                         band: 0, bands: 1, scratch: scratch[0])
            } else {
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    drawBand(list, background: background, target: base.base, width: width, height: height,
                             band: band, bands: bands, scratch: scratch[band])
                }
            }
        }
    }
}
