/// One bitmap item's sampling state inside one band: picks the `Sampling` path
/// once, keeps the item's column table, and per row does the work that
/// every segment of the row shares (the vertical blend of two texel rows), so
/// a row split into edge and interior segments pays for it once.
///
/// On the separable path, with columns in ascending texel order, the texture's
/// `InkMap` cuts each row into the texel runs its two texel rows ink: only
/// those are blended (vertically and across), pixels reading only clear texels
/// are left alone (or given the backing colour), the same bytes as sampling them.
/// A rotated row crosses texel rows, so it is cut to the pixels whose samples
/// can reach the map's box of inked texels instead.
struct BitmapSampler {
    private let mapping: TexelMapping
    private let texels: UnsafeRawPointer
    private let rowBytes: Int, width: Int, height: Int
    private let separable: Bool
    private let copy: (x: Int, y: Int)?
    private let scratch: RowScratch
    /// An opaque colour every sample is laid over (`BitmapFill.backing`).
    /// Settable so that a `BackedGroupFill` can sample its edges without it, as its layer would.
    var backing: UInt32?
    /// Separable path: the blended texel row of the current target row.
    private var row: UnsafeRawPointer
    /// True when `row` points into the texture (row weight 0), so a copy may read it directly.
    private var rowIsTexture = false
    /// The texture's ink where this item's rows use it (separable, columns in ascending texel order).
    private let ink: InkMap?
    /// How many inked texel runs the current row has in `scratch.inkRuns`; -1 when every pixel is sampled.
    private var inkRunCount = -1
    /// Rotated path: the texture's box of inked texels, if it has an ink map.
    private let inkBox: (columns: Range<Int>, rows: Range<Int>)?

    /// `columns` are the target columns the item can touch (its bounds).
    init(mapping: TexelMapping, texture: Texture, scratch: RowScratch, columns: Range<Int>, backing: UInt32? = nil) {
        // An opaque texture's samples are opaque: laid over any colour they stay as they are (`blendFull8` adds
        // `div255(colour * 0)`), so the backing is left out rather than worked through for every pixel.
        self.backing = texture.isOpaque ? nil : backing
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
        inkBox = separable ? nil : texture.ink?.box
        if separable {
            scratch.reserveTexelRow(texture.width + 1)
            Sampling.prepareColumns(
                mapping, x0: columns.lowerBound, count: columns.count,
                offsets: scratch.columnOffsets + columns.lowerBound,
                weights: scratch.columnWeights + columns.lowerBound)
            // A unit-scale item at a whole-texel offset copies its rows; only runs past the texture's edges sample.
            TexelWindows.describe(
                scratch.columnOffsets + columns.lowerBound, count: columns.count,
                into: scratch.columnWindows + columns.lowerBound, stitchedOnly: copy != nil)
            #if SHIFTRENDER_AVX512
            if copy == nil {
                TexelWindows.describeWide(
                    scratch.columnOffsets + columns.lowerBound, count: columns.count,
                    into: scratch.columnWideWindows + columns.lowerBound)
            }
            #endif
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
        let ahead = Rasterizer.rowAhead(y, by: 2, split: scratch.split)
        let (first, _) = Sampling.axis(Float(mapping.map.d * Double(ahead) + mapping.map.ty), Float(mapping.sourceHeight - 1))
        let row = mapping.map.d >= 0 ? Int(first) + 1 : Int(first)
        return min(max(row, 0), height - 1)
    }

    /// Source-over of pixels `x ..< x + count` of row `y` (after `beginRow`) onto
    /// `dst` at one constant alpha, fusing sampling and blending where the path allows.
    /// `mutating` though it changes nothing, as `sample` is: called non-mutating on the band's
    /// sampler (reached through `inout`), Swift copied all 256 bytes of it before every run.
    /// Out of line, with the non-mutating helpers inlined into it: an out-of-line
    /// non-mutating call copies the sampler again (`blendSampled`, `sample(start:)`).
    /// Runs cut by ink runs still copy it once a call (the closure's capture of `self`).
    @inline(never)
    mutating func blendInterior(y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, opaqueSource: Bool) {
        forEachRun(y, x, count) { lower, upper, inked in
            let at = dst + 4 &* (lower &- x)
            if inked {
                blendSampled(y: y, x: lower, count: upper &- lower, start: x, dst: at, alpha: alpha, opaqueSource: opaqueSource)
            } else if let backing {
                // Clear texels over the backing sample as the backing colour itself.
                BlendKernels.sourceOverSolidConstant(
                    dst: at, color: unsafeBitCast(backing, to: SIMD4<UInt8>.self), alpha: alpha, count: upper &- lower)
            }
        }
    }

    /// `blendInterior` of pixels `x ..< x + count` of a run from pixel `start` (`sample(y:x:count:start:)`).
    @inline(__always)
    private func blendSampled(
        y: Int, x: Int, count: Int, start: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, opaqueSource: Bool
    ) {
        if separable && copyColumn(x, count: count) == nil {
            Sampling.horizontalOver(
                row, offsets: scratch.columnOffsets + x, windows: scratch.columnWindows + x,
                wideWindows: wideWindows(at: x), weights: scratch.columnWeights + x,
                count: count, dst: dst, alpha: alpha, opaqueSource: opaqueSource, backing: backing,
                scratch: scratch.source)
            return
        }
        let src = sample(y: y, x: x, count: count, start: start)
        if alpha == 255 && opaqueSource {
            dst.update(from: src, count: count * 4)
        } else {
            BlendKernels.sourceOverConstant(dst: dst, src: src, alpha: alpha, count: count)
        }
    }

    /// The sixteen-column windows from column `x`, where the build and the table have them (not for a copied table).
    @inline(__always)
    private func wideWindows(at x: Int) -> UnsafePointer<TexelWindows.WideWindow>? {
        #if SHIFTRENDER_AVX512
        copy == nil ? UnsafePointer(scratch.columnWideWindows + x) : nil
        #else
        nil
        #endif
    }

    /// True when pixels `x ..< x + count` of row `y` (after `beginRow`) read only clear texels, so every sample is 0
    /// (`sample` gives them so); false when any may read an inked one or the texture has no ink map.
    /// `mutating` though it changes nothing: see `blendInterior`.
    mutating func readsOnlyClearTexels(y: Int, x: Int, count: Int) -> Bool {
        guard separable, inkRunCount >= 0 else { return false }
        var inked = false
        forEachRun(y, x, count) { _, _, runInked in inked = inked || runInked }
        return !inked
    }

    /// Calls `body(lower, upper, inked)` for the runs of pixels `x ..< x + count` of row `y`, left to right,
    /// that may read inked texels (`inked`) or read only clear ones; one inked run when there is no ink map.
    @inline(__always)
    private func forEachRun(_ y: Int, _ x: Int, _ count: Int, _ body: (Int, Int, Bool) -> Void) {
        let end = x &+ count
        if let inkBox {
            let inked = inkedPixels(y, x, end, inkBox)
            if x < inked.lowerBound { body(x, inked.lowerBound, false) }
            if !inked.isEmpty { body(inked.lowerBound, inked.upperBound, true) }
            if inked.upperBound < end { body(max(x, inked.upperBound), end, false) }
            return
        }
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

    /// Rotated path: the pixels of `lower ..< upper` on row `y` whose samples may read a texel of
    /// `box` (empty, at `upper`, when none may). A sample at texel coordinates `(s, t)` (clamped to
    /// the texture) reads texels `floor(s)` and the one after it, so it can reach columns `c0 ..< c1`
    /// only for `c0 - 1 <= s < c1`, unbounded on a side where the box reaches the texture's edge;
    /// the same for rows. Half a texel and a pixel of margin cover the kernels' Float coordinates
    /// (a Float texel coordinate below 2^13 is within a thousandth of a texel of the Double one).
    private func inkedPixels(_ y: Int, _ lower: Int, _ upper: Int, _ box: (columns: Range<Int>, rows: Range<Int>)) -> Range<Int> {
        guard !box.columns.isEmpty else { return upper ..< upper }
        let m = mapping.map
        var from = Double(lower), to = Double(upper)
        // Narrows `from ... to` to where `slope * x + offset` lies in `range` (texels) of a `size`-texel axis.
        func narrow(slope: Double, offset: Double, _ range: Range<Int>, size: Int) {
            let low = range.lowerBound <= 0 ? -Double.infinity : Double(range.lowerBound) - 1.5
            let high = range.upperBound >= size ? Double.infinity : Double(range.upperBound) + 0.5
            if slope == 0 {
                if !(offset >= low && offset <= high) { to = from }
                return
            }
            let a = (low - offset) / slope, b = (high - offset) / slope
            from = max(from, min(a, b) - 1)
            to = min(to, max(a, b) + 1)
        }
        narrow(slope: m.a, offset: m.c * Double(y) + m.tx, box.columns, size: mapping.sourceWidth)
        narrow(slope: m.b, offset: m.d * Double(y) + m.ty, box.rows, size: mapping.sourceHeight)
        // `lower <= from` and `to <= upper` by construction; NaN (a degenerate mapping) samples the whole run.
        guard !from.isNaN, !to.isNaN else { return lower ..< upper }
        guard from < to else { return upper ..< upper }
        return Int(from.rounded(.down)) ..< Int(to.rounded(.up))
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
    /// the backing colour if there is one; valid until the next call. `mutating`: see `blendInterior`.
    @inline(never)
    mutating func sample(y: Int, x: Int, count: Int) -> UnsafePointer<UInt8> { sample(y: y, x: x, count: count, start: x) }

    /// `sample(y:x:count:)` of part of a run from pixel `start`: rotated coordinates step from `start`, as
    /// the whole run's would (Float steps from another pixel may round a weight the other way).
    @inline(__always)
    private func sample(y: Int, x: Int, count: Int, start: Int) -> UnsafePointer<UInt8> {
        let out = scratch.source
        if separable, let column = copyColumn(x, count: count) {
            let texels = (row + column * 4).assumingMemoryBound(to: UInt8.self)
            guard let backing else { return texels }
            BlendKernels.overColor(texels, color: backing, count: count, into: out)
            return UnsafePointer(out)
        }
        // The blended row holds only the inked runs' texels; pixels reading clear texels sample 0.
        forEachRun(y, x, count) { lower, upper, inked in
            let at = UnsafeMutableRawPointer(out + 4 &* (lower &- x))
            let n = upper &- lower
            if !inked {
                at.initializeMemory(as: UInt32.self, repeating: 0, count: n)
            } else if separable {
                Sampling.horizontal(
                    row, offsets: scratch.columnOffsets + lower, windows: scratch.columnWindows + lower,
                    weights: scratch.columnWeights + lower, count: n, into: at)
            } else {
                Sampling.rotatedCoordinates(
                    mapping, rowBytes: rowBytes, y: y, x0: start, count: upper &- start,
                    offsets: scratch.pixelOffsets, weightsX: scratch.pixelWeightsX, weightsY: scratch.pixelWeightsY)
                let skip = lower &- start
                Sampling.gather(
                    texels, rowBytes: rowBytes, offsets: scratch.pixelOffsets + skip, weightsX: scratch.pixelWeightsX + skip,
                    weightsY: scratch.pixelWeightsY + skip, count: n, into: at)
            }
        }
        if let backing { BlendKernels.overColor(out, color: backing, count: count, into: out) }
        return UnsafePointer(out)
    }
}
