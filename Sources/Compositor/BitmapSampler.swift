/// One bitmap item's sampling state inside one band: picks the `Sampling` path
/// once, keeps the item's column table, and per row does the work that
/// every segment of the row shares (the vertical blend of two texel rows), so
/// a row split into edge and interior segments pays for it once.
///
/// On the separable path, with columns in ascending texel order, the texture's
/// `InkMap` cuts each row into the texel runs its two texel rows ink: only
/// those are blended (vertically and across), pixels reading only clear texels
/// are left alone (or given the backing colour), the same bytes as sampling them.
struct BitmapSampler {
    private let mapping: TexelMapping
    private let texels: UnsafeRawPointer
    private let rowBytes: Int, width: Int, height: Int
    private let separable: Bool
    private let copy: (x: Int, y: Int)?
    private let scratch: RowScratch
    /// An opaque colour every sample is laid over (`BitmapFill.backing`).
    private let backing: UInt32?
    /// Separable path: the blended texel row of the current target row.
    private var row: UnsafeRawPointer
    /// True when `row` points into the texture (row weight 0), so a copy may read it directly.
    private var rowIsTexture = false
    /// The texture's ink where this item's rows use it (separable, columns in ascending texel order).
    private let ink: InkMap?
    /// How many inked texel runs the current row has in `scratch.inkRuns`; -1 when every pixel is sampled.
    private var inkRunCount = -1

    /// `columns` are the target columns the item can touch (its bounds).
    init(mapping: TexelMapping, texture: Texture, scratch: RowScratch, columns: Range<Int>, backing: UInt32? = nil) {
        self.backing = backing
        self.mapping = mapping
        texels = texture.base
        rowBytes = texture.rowBytes
        width = texture.width
        height = texture.height
        separable = mapping.isSeparable
        copy = mapping.copyOffset
        self.scratch = scratch
        row = texture.base
        ink = separable && mapping.map.a >= 0 ? texture.ink : nil
        if separable {
            scratch.reserveTexelRow(texture.width + 1)
            Sampling.prepareColumns(
                mapping, x0: columns.lowerBound, count: columns.count,
                offsets: scratch.columnOffsets + columns.lowerBound,
                weights: scratch.columnWeights + columns.lowerBound)
        }
    }

    /// Prepares target row `y`, of which pixels `lower ..< upper` will be sampled.
    mutating func beginRow(_ y: Int, lower: Int, upper: Int) {
        guard separable, lower < upper else { return }
        let (yi, wy) = Sampling.axis(Float(mapping.map.d * Double(y) + mapping.map.ty), Float(mapping.sourceHeight - 1))
        let r0 = texels + Int(yi) &* rowBytes
        let a = Int(scratch.columnOffsets[lower]) >> 2
        let b = Int(scratch.columnOffsets[upper - 1]) >> 2
        let first = min(a, b)
        let last = max(a, b) + 1
        if let ink {
            inkRunCount = ink.runs(row: Int(yi), and: wy == 0 ? nil : Int(yi) + 1, texels: first, last, into: scratch.inkRuns)
        }
        if wy == 0 {
            row = r0
            rowIsTexture = true
            return
        }
        let out = UnsafeMutableRawPointer(scratch.texelRow)
        let ahead = texels + texelRowAhead(y) &* rowBytes
        if inkRunCount < 0 {
            Sampling.blendRows(r0, r0 + rowBytes, weight: wy, first: first, last: last, into: out, prefetching: ahead)
        } else {
            // A pixel reading texel i is inked when i or i + 1 is in a run: texels start - 1 ... end.
            for k in 0 ..< inkRunCount {
                let from = max(first, Int(scratch.inkRuns[2 * k]) - 1)
                let to = min(last, Int(scratch.inkRuns[2 * k + 1]))
                if from <= to {
                    Sampling.blendRows(r0, r0 + rowBytes, weight: wy, first: from, last: to, into: out, prefetching: ahead)
                }
            }
        }
        row = UnsafeRawPointer(out)
        rowIsTexture = false
    }

    /// The texel row to prefetch while target row `y` is drawn: the second of the pair that the
    /// row the band draws two rows on reads (`Rasterizer.rowAhead`), the first it has not read yet
    /// whichever way the rows go.
    @inline(__always)
    private func texelRowAhead(_ y: Int) -> Int {
        let ahead = Rasterizer.rowAhead(y, by: 2, bands: scratch.bands)
        let (first, _) = Sampling.axis(Float(mapping.map.d * Double(ahead) + mapping.map.ty), Float(mapping.sourceHeight - 1))
        let row = mapping.map.d >= 0 ? Int(first) + 1 : Int(first)
        return min(max(row, 0), height - 1)
    }

    /// Source-over of pixels `x ..< x + count` of row `y` (after `beginRow`) onto
    /// `dst` at one constant alpha, fusing sampling and blending where the path allows.
    func blendInterior(y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, opaqueSource: Bool) {
        forEachRun(x, count) { lower, upper, inked in
            let at = dst + 4 &* (lower &- x)
            if inked {
                blendSampled(y: y, x: lower, count: upper &- lower, dst: at, alpha: alpha, opaqueSource: opaqueSource)
            } else if let backing {
                // Clear texels over the backing sample as the backing colour itself.
                BlendKernels.sourceOverSolidConstant(
                    dst: at, color: unsafeBitCast(backing, to: SIMD4<UInt8>.self), alpha: alpha, count: upper &- lower)
            }
        }
    }

    private func blendSampled(y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, opaqueSource: Bool) {
        if separable && copyColumn(x, count: count) == nil {
            Sampling.horizontalOver(
                row, offsets: scratch.columnOffsets + x, weights: scratch.columnWeights + x,
                count: count, dst: dst, alpha: alpha, opaqueSource: opaqueSource, backing: backing,
                scratch: scratch.source)
            return
        }
        let src = sample(y: y, x: x, count: count)
        if alpha == 255 && opaqueSource {
            dst.update(from: src, count: count * 4)
        } else {
            BlendKernels.sourceOverConstant(dst: dst, src: src, alpha: alpha, count: count)
        }
    }

    /// Calls `body(lower, upper, inked)` for the runs of pixels `x ..< x + count`, left to right, that read
    /// inked texels of the current row (`inked`) or only clear ones; one inked run when the row has no ink map.
    @inline(__always)
    private func forEachRun(_ x: Int, _ count: Int, _ body: (Int, Int, Bool) -> Void) {
        let end = x &+ count
        guard inkRunCount >= 0 else { return body(x, end, true) }
        var cursor = x
        for k in 0 ..< inkRunCount where cursor < end {
            let from = firstColumn(readingAtLeast: Int(scratch.inkRuns[2 &* k]) &- 1, cursor, end)
            let to = firstColumn(readingAtLeast: Int(scratch.inkRuns[2 &* k &+ 1]), from, end)
            if cursor < from { body(cursor, from, false) }
            if from < to { body(from, to, true) }
            cursor = to
        }
        if cursor < end { body(cursor, end, false) }
    }

    /// The first column of `lower ..< upper` whose left texel is `texel` or later (`upper` if none):
    /// a binary search of the column table, ascending on this path.
    @inline(__always)
    private func firstColumn(readingAtLeast texel: Int, _ lower: Int, _ upper: Int) -> Int {
        let offset = Int32(clamping: texel &* 4)
        var (low, high) = (lower, upper)
        while low < high {
            let mid = (low &+ high) >> 1
            if scratch.columnOffsets[mid] < offset { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// The texel column that target pixel `x` reads when pixels `x ..< x + count`
    /// of the current row are plain texels (the copy path), else nil.
    @inline(__always)
    private func copyColumn(_ x: Int, count: Int) -> Int? {
        guard let copy, rowIsTexture, x + copy.x >= 0, x + count + copy.x <= width else { return nil }
        return x + copy.x
    }

    /// Samples of pixels `x ..< x + count` of row `y` (after `beginRow`), over
    /// the backing colour if there is one; valid until the next call.
    func sample(y: Int, x: Int, count: Int) -> UnsafePointer<UInt8> {
        let out = scratch.source
        if separable {
            if let column = copyColumn(x, count: count) {
                let texels = (row + column * 4).assumingMemoryBound(to: UInt8.self)
                guard let backing else { return texels }
                BlendKernels.overColor(texels, color: backing, count: count, into: out)
                return UnsafePointer(out)
            }
            // The blended row holds only the inked runs' texels; pixels reading clear texels sample 0.
            forEachRun(x, count) { lower, upper, inked in
                let at = UnsafeMutableRawPointer(out + 4 &* (lower &- x))
                if inked {
                    Sampling.horizontal(
                        row, offsets: scratch.columnOffsets + lower, weights: scratch.columnWeights + lower,
                        count: upper &- lower, into: at)
                } else {
                    at.initializeMemory(as: UInt32.self, repeating: 0, count: upper &- lower)
                }
            }
        } else {
            Sampling.rotatedCoordinates(
                mapping, rowBytes: rowBytes, y: y, x0: x, count: count,
                offsets: scratch.pixelOffsets, weightsX: scratch.pixelWeightsX,
                weightsY: scratch.pixelWeightsY)
            Sampling.gather(
                texels, rowBytes: rowBytes, offsets: scratch.pixelOffsets, weightsX: scratch.pixelWeightsX,
                weightsY: scratch.pixelWeightsY, count: count, into: UnsafeMutableRawPointer(out))
        }
        if let backing { BlendKernels.overColor(out, color: backing, count: count, into: out) }
        return UnsafePointer(out)
    }
}
