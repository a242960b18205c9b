import Dispatch
import Primitives
import FramePlan

/// Draws prepared items into rows of a premultiplied RGBA8 target, one
/// horizontal band at a time: for every item (back to front) and every row of
/// the band it touches, intersect the row spans of shape and clips, compute
/// coverage, multiply clip coverage, quantize with opacity to 8-bit alpha, trim
/// zero alpha at both ends, sample the paint if it is a bitmap, blend.
///
/// Every pixel's value depends only on the items and its own coordinates, never
/// on where a band starts, so any band split gives byte-identical output.
enum Rasterizer {
    /// Source bitmaps by reference kind. Sizes are (0, 0) for malformed bitmaps,
    /// which makes items that use them draw nothing.
    struct Sources: Sendable {
        var images: [Bitmap]
        var snapshots: [Bitmap]

        static func size(_ b: Bitmap) -> (width: Int, height: Int) {
            b.width > 0 && b.height > 0 && b.pixels.count == b.width * b.height * 4 ? (b.width, b.height) : (0, 0)
        }
        var imageSizes: [(width: Int, height: Int)] { images.map(Self.size) }
        var snapshotSizes: [(width: Int, height: Int)] { snapshots.map(Self.size) }

        func bitmap(_ reference: BitmapReference) -> Bitmap {
            switch reference {
            case .image(let i): return images[i]
            case .snapshot(let i): return snapshots[i]
            }
        }
    }

    static func prepare(_ list: DisplayList, width: Int, height: Int, sources: Sources) -> [PreparedItem] {
        let imageSizes = sources.imageSizes, snapshotSizes = sources.snapshotSizes
        return list.items.compactMap {
            PreparedItem($0, targetWidth: width, targetHeight: height,
                         imageSizes: imageSizes, snapshotSizes: snapshotSizes)
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

    /// Draws `items` into rows `rows` of the target.
    static func draw(_ items: [PreparedItem], sources: Sources, target: UnsafeMutablePointer<UInt8>,
                     width: Int, rows: Range<Int>, scratch: RowScratch) {
        precondition(scratch.capacity >= width)
        for item in items {
            let y0 = max(rows.lowerBound, item.bounds.y0), y1 = min(rows.upperBound, item.bounds.y1)
            guard y0 < y1 else { continue }
            switch item.fill {
            case .solid(let color):
                drawRows(item, y0 ..< y1, target: target, width: width, scratch: scratch) { dst, alpha, _, _, count in
                    BlendKernels.sourceOverSolid(dst: dst, color: color, alpha: alpha, count: count)
                }
            case .bitmap(let reference, let mapping):
                sources.bitmap(reference).pixels.withUnsafeBufferPointer { texels in
                    guard let base = texels.baseAddress else { return }
                    let rowSource = scratch.source
                    let coordinates = scratch.texelCoordinates
                    var columns: ColumnTable?
                    if mapping.isSeparable {
                        let table = scratch.columnTable(x0: item.bounds.x0)
                        Sampling.prepareColumns(mapping, x0: item.bounds.x0, count: item.bounds.x1 - item.bounds.x0, into: table)
                        columns = table
                    }
                    drawRows(item, y0 ..< y1, target: target, width: width, scratch: scratch) { dst, alpha, x, y, count in
                        let src = rowSource + 4 * x
                        Sampling.sampleRow(mapping, source: base, y: y, x0: x, count: count, into: src,
                                           columns: columns, coordinates: coordinates)
                        BlendKernels.sourceOver(dst: dst, src: src, alpha: alpha, count: count)
                    }
                }
            }
        }
    }

    /// The per-row loop shared by all paints; `paint(dst, alpha, x, y, count)` blends one trimmed span.
    @inline(__always)
    private static func drawRows(
        _ item: PreparedItem, _ rows: Range<Int>, target: UnsafeMutablePointer<UInt8>, width: Int,
        scratch: RowScratch,
        paint: (UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>, Int, Int, Int) -> Void
    ) {
        let coverage = scratch.coverage, clipCoverage = scratch.clipCoverage, alpha = scratch.alpha
        let bx0 = item.bounds.x0, bx1 = item.bounds.x1
        item.clips.withUnsafeBufferPointer { clips in
            for y in rows {
                var (x0, x1) = item.shape.span(row: y)
                x0 = max(x0, bx0); x1 = min(x1, bx1)
                for clip in clips where x0 < x1 {
                    let s = clip.span(row: y)
                    x0 = max(x0, s.lower); x1 = min(x1, s.upper)
                }
                guard x0 < x1 else { continue }
                let n = x1 - x0
                CoverageKernels.coverageRow(item.shape, y: y, x0: x0, count: n, into: coverage + x0)
                for clip in clips {
                    CoverageKernels.coverageRow(clip, y: y, x0: x0, count: n, into: clipCoverage + x0)
                    CoverageKernels.multiply(coverage + x0, by: clipCoverage + x0, count: n)
                }
                let live = CoverageKernels.quantize(coverage + x0, opacity: item.opacity, count: n, into: alpha + x0)
                guard live.lower < live.upper else { continue }
                let x = x0 + live.lower
                paint(target + (y * width + x) * 4, alpha + x, x, y, live.upper - live.lower)
            }
        }
    }

    /// Draws into the whole target using `bands` horizontal bands in parallel
    /// (`scratch.count` must equal `bands`); `background`, if given, is filled first per band.
    static func drawBanded(_ items: [PreparedItem], sources: Sources, background: SIMD4<UInt8>?,
                           target: inout Bitmap, scratch: [RowScratch]) {
        let width = target.width, height = target.height
        precondition(target.pixels.count == width * height * 4, "malformed target bitmap")
        let bands = max(1, min(scratch.count, height))
        let bandHeight = (height + bands - 1) / max(bands, 1)
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return }
            let target = SendablePointer(base: address)
            let drawBand = { @Sendable (band: Int) in
                let base = target.base
                let rows = min(height, band * bandHeight) ..< min(height, (band + 1) * bandHeight)
                if let background { fill(base, width: width, rows: rows, with: background) }
                draw(items, sources: sources, target: base, width: width, rows: rows, scratch: scratch[band])
            }
            if bands == 1 {
                drawBand(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: drawBand)
            }
        }
    }
}
