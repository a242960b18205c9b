/// One bitmap item's sampling state inside one band: picks the `Sampling` path
/// once, keeps the item's column table, and per row does the work that
/// every segment of the row shares (the vertical blend of two texel rows), so
/// a row split into edge and interior segments pays for it once.
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
        if wy == 0 {
            row = r0
            rowIsTexture = true
            return
        }
        let a = Int(scratch.columnOffsets[lower]) >> 2
        let b = Int(scratch.columnOffsets[upper - 1]) >> 2
        let out = UnsafeMutableRawPointer(scratch.texelRow)
        Sampling.blendRows(
            r0, r0 + rowBytes, weight: wy, first: min(a, b), last: max(a, b) + 1, into: out,
            prefetching: texels + texelRowAhead(y) &* rowBytes)
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
            Sampling.horizontal(
                row, offsets: scratch.columnOffsets + x, weights: scratch.columnWeights + x,
                count: count, into: UnsafeMutableRawPointer(out))
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
