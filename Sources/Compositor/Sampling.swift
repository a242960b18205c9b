import CPrefetch

/// Bilinear sampling kernels for `.bitmap` paints, on padded `Texture`s.
///
/// The integer model (shared by every kernel and by `referenceSample`):
/// a coordinate is clamped to `0 ... size - 1` (clamped bilinear equals
/// sampling there), split into `floor` and a weight rounded to 1/256; the two
/// texel rows are blended first (`lerp` per channel, rounded), then the two
/// resulting columns. The padding makes texel `floor + 1` always readable and
/// equal to the clamped texel, so a pair of neighbours is one 64-bit load.
/// Error against exact bilinear is under 2/255 (worst seen 1.58); a weight of 0 reproduces
/// texels exactly; premultiplied input stays premultiplied (every step is
/// monotone and the same for all channels).
///
/// Three paths, chosen per item (`BitmapSampler`):
/// - copy: unit scale at an integer texel offset reads texels directly;
/// - separable (no rotation): per item, a column table of texel offsets and
///   weights for the item's columns (`prepareColumns`); per row, one
///   contiguous SIMD pass blends the two texel rows (`blendRows`, skipped when
///   the row weight is 0), then per pixel a texel pair and one lerp, eight
///   pixels at a time (`horizontal`; the pairs come from `TexelWindows`;
///   sixteen in `blendRows` and the fused `horizontalOver` on AVX-512 builds,
///   two windows' pairs joined, the blend forms in `SampleBlends`);
/// - rotated: a SIMD pass computes texel offsets and both weights for eight
///   pixels at a time (`rotatedCoordinates`), then a gather pass does two
///   64-bit loads and three lerps per pixel (`gather`).
///
/// Coordinates are Float in the kernels (exact integers up to 2^22, guarded by
/// `TexelMapping`); floor and rounding use the `+ 1.5 * 2^23` trick, which is
/// branch-free, cannot trap and vectorizes on SSE2.
///
/// `blendRows` also prefetches, a cache line per 64 bytes it streams, the
/// texel row a later target row will read (`BitmapSampler.beginRow` picks it).
/// Each texel row is read from memory once per frame, and the row loop waited
/// on its first lines: the hardware prefetcher starts each row cold and stops
/// at every 4 KB page. Spread through the pass, the prefetches keep the misses
/// in flight without stalling it; the same rows prefetched in one burst at the
/// start of a row filled the core's miss buffers and were slower than none
/// (benchmarks/RESULTS.md has both). The bytes drawn do not change.
enum Sampling {
    static let magic: Float = 12_582_912

    // MARK: Scalar pieces and references

    /// Clamps `v` to `0 ... limit` (NaN to 0) and splits it into the texel index
    /// and the weight of the next texel, 0...255: a fraction that rounds to 256 is
    /// the next texel at weight 0 (`lerp(p, q, 256)` is `q`, and the padding keeps the
    /// texel after that readable), so the vector `lerp` can scale weights by 128 in 16 bits.
    @inline(__always)
    static func axis(_ v: Float, _ limit: Float) -> (index: Int32, weight: UInt32) {
        let c = v > 0 ? (v < limit ? v : limit) : 0
        let r = (c + magic) - magic
        let f = r > c ? r - 1 : r
        let index = Int32(bitPattern: (f + magic).bitPattern) &- 0x4B40_0000
        let weight = ((c - f) * 256 + magic).bitPattern &- 0x4B40_0000
        // A weight rounded up to 256 is the next texel alone: that texel at weight 0, the same sample.
        return (index &+ Int32(bitPattern: weight &>> 8), weight & 0xFF)
    }

    /// The integer model at pixel `(x, y)`, coordinates in Double: what the kernels
    /// compute, up to their Float coordinates (a weight may differ by 1/256).
    static func referenceSample(_ m: TexelMapping, _ texture: Texture, x: Int, y: Int) -> UInt32 {
        let s = m.map.a * Double(x) + m.map.c * Double(y) + m.map.tx
        let t = m.map.b * Double(x) + m.map.d * Double(y) + m.map.ty
        func split(_ v: Double, _ size: Int) -> (Int, UInt32) {
            let c = min(max(v.isNaN ? 0 : v, 0), Double(size - 1))
            let f = c.rounded(.down)
            return (Int(f), UInt32(((c - f) * 256).rounded(.toNearestOrEven)))
        }
        let (xi, wx) = split(s, texture.width)
        let (yi, wy) = split(t, texture.height)
        func texel(_ i: Int, _ j: Int) -> UInt32 {
            texture.base.load(fromByteOffset: j * texture.rowBytes + i * 4, as: UInt32.self)
        }
        let left = lerp(texel(xi, yi), texel(xi, yi + 1), wy)
        let right = lerp(texel(xi + 1, yi), texel(xi + 1, yi + 1), wy)
        return lerp(left, right, wx)
    }

    /// Exact bilinear (real weights, clamped edges) of a plain bitmap, in Double: the ground truth.
    static func exactSample(_ m: TexelMapping, pixels: [UInt8], x: Int, y: Int) -> SIMD4<Double> {
        let s = m.map.a * Double(x) + m.map.c * Double(y) + m.map.tx
        let t = m.map.b * Double(x) + m.map.d * Double(y) + m.map.ty
        let w = m.sourceWidth
        let h = m.sourceHeight
        let fs = s.rounded(.down)
        let ft = t.rounded(.down)
        let fx = s - fs
        let fy = t - ft
        func at(_ i: Double, _ j: Double) -> SIMD4<Double> {
            let xi = min(max(Int(i), 0), w - 1)
            let yi = min(max(Int(j), 0), h - 1)
            let k = (yi * w + xi) * 4
            return SIMD4(Double(pixels[k]), Double(pixels[k + 1]), Double(pixels[k + 2]), Double(pixels[k + 3]))
        }
        let top = at(fs, ft) * (1 - fx) + at(fs + 1, ft) * fx
        let bottom = at(fs, ft + 1) * (1 - fx) + at(fs + 1, ft + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    // MARK: Separable path

    /// Texel byte offsets (`index * 4`) and weights for target columns `x0 ..< x0 + count`,
    /// each weight (0...256) in both 16-bit halves of its word (`doubled`, as the kernels'
    /// `lerp(_:_:doubledWeight:)` takes it: four fewer instructions per eight pixels in the
    /// sampling loops than doubling it there). Each column's coordinate is computed from
    /// its own index in Double (not by stepping from `x0`), so a column's samples never
    /// depend on where a table starts.
    static func prepareColumns(
        _ m: TexelMapping, x0: Int, count: Int,
        offsets: UnsafeMutablePointer<Int32>, weights: UnsafeMutablePointer<UInt32>
    ) {
        let limit = Float(m.sourceWidth - 1)
        let a = m.map.a
        let tx = m.map.tx
        for i in 0 ..< count {
            let (index, weight) = axis(Float(a * Double(x0 &+ i) + tx), limit)
            offsets[i] = index &<< 2
            weights[i] = weight | weight &<< 16
        }
    }

    /// `out[c] = lerp(r0[c], r1[c], weight)` for texels `first ... last` (byte offsets `4 * c`),
    /// prefetching the same texels of row `ahead` (a hint: it may be any address, nothing is read).
    static func blendRows(
        _ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, weight: UInt32,
        first: Int, last: Int, into out: UnsafeMutableRawPointer, prefetching ahead: UnsafeRawPointer
    ) {
        let w = Pixels8(repeating: weight)
        var c = first
        #if SHIFTRENDER_AVX512
        let w16 = WidePixels.doubled(WidePixels.splat(weight))
        while c &+ 16 <= last &+ 1 {
            shiftrender_prefetch(ahead + 4 &* c)
            let p = WidePixels.load(r0 + 4 &* c)
            let q = WidePixels.load(r1 + 4 &* c)
            WidePixels.store(WidePixels.lerp(p, q, doubledWeight: w16), out + 4 &* c)
            c &+= 16
        }
        #endif
        while c &+ 8 <= last &+ 1 {
            // Every other vector: one line per 16 texels.
            if (c &- first) & 8 == 0 { shiftrender_prefetch(ahead + 4 &* c) }
            let p = r0.loadUnaligned(fromByteOffset: 4 &* c, as: Pixels8.self)
            let q = r1.loadUnaligned(fromByteOffset: 4 &* c, as: Pixels8.self)
            out.storeBytes(of: lerp(p, q, w), toByteOffset: 4 &* c, as: Pixels8.self)
            c &+= 8
        }
        while c <= last {
            out.storeBytes(
                of: lerp(
                    r0.load(fromByteOffset: 4 &* c, as: UInt32.self),
                    r1.load(fromByteOffset: 4 &* c, as: UInt32.self), weight),
                toByteOffset: 4 &* c, as: UInt32.self)
            c &+= 1
        }
    }

    /// Eight horizontally adjacent texel pairs, `row[o[k]]` and the texel after
    /// it, as one vector: even lanes the left texels, odd lanes the right ones.
    @inline(__always)
    static func texelPairs(_ row: UnsafeRawPointer, _ o: UnsafePointer<Int32>) -> SIMD16<UInt32> {
        unsafeBitCast(
            SIMD8<UInt64>(
                row.loadUnaligned(fromByteOffset: Int(o[0]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[1]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[2]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[3]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[4]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[5]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[6]), as: UInt64.self),
                row.loadUnaligned(fromByteOffset: Int(o[7]), as: UInt64.self)), to: SIMD16<UInt32>.self)
    }

    /// `out[i] = lerp(row[o], row[o + 1 texel], w)` with `o = offsets[i]`, `w` the weight `weights[i]` holds
    /// doubled. `offsets` monotone, and `weights` doubled, as `prepareColumns` makes them, and `row` readable
    /// past them (`TexelWindows`); `windows[i]` describes the eight columns from `i`, for every `i <= count - 8`
    /// (`TexelWindows.describe`, worked out or stitched only).
    static func horizontal(
        _ row: UnsafeRawPointer, offsets: UnsafePointer<Int32>, windows: UnsafePointer<TexelWindows.Window>,
        weights: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutableRawPointer
    ) {
        var i = 0
        while i &+ 8 <= count {
            let pairs = TexelWindows.pairs(row, offsets + i, windows[i])
            let w = halves(UnsafeRawPointer(weights + i).loadUnaligned(as: Pixels8.self))
            out.storeBytes(of: lerp(pairs.left, pairs.right, doubledWeight: w), toByteOffset: 4 &* i, as: Pixels8.self)
            i &+= 8
        }
        while i < count {
            let o = Int(offsets[i])
            out.storeBytes(
                of: lerp(
                    row.load(fromByteOffset: o, as: UInt32.self),
                    row.load(fromByteOffset: o &+ 4, as: UInt32.self), weights[i] & 0xFFFF),
                toByteOffset: 4 &* i, as: UInt32.self)
            i &+= 1
        }
    }

    /// `horizontal` fused with `BlendKernels.sourceOverConstant` onto `dst`: the
    /// samples go straight from registers into the blend (no scratch row
    /// written and read back). Same bytes as the two kernels in sequence.
    ///
    /// `opaqueSource` (every texel of the texture opaque) at alpha 255 stores
    /// the samples, which is what the blend gives for an opaque sample; below
    /// 255 it blends with the alpha's products hoisted (`blendOpaque8`); other
    /// sources at 255 are laid down without multiplying them (`blendFull8`). The
    /// choice is made once per call, not per eight pixels from the samples:
    /// that test mispredicted on text-like snapshots, and the reduced benchmark
    /// plan drew 5% faster without it (benchmarks/RESULTS.md). Each choice is a
    /// loop of its own, so no loop tests it per eight pixels.
    ///
    /// `backing`, a premultiplied colour, lays each sample over it first
    /// (`BlendKernels.overColor`): over an opaque one the samples are opaque,
    /// whatever `opaqueSource` says.
    ///
    /// Not inlined: inlined into `BitmapSampler.blendInterior`'s run loop, its
    /// loops took more instructions (the 3-D cube benchmark's frames 3% more, callgrind).
    @inline(never)
    static func horizontalOver(
        _ row: UnsafeRawPointer, offsets: UnsafePointer<Int32>, windows: UnsafePointer<TexelWindows.Window>,
        wideWindows: UnsafePointer<TexelWindows.WideWindow>? = nil,
        weights: UnsafePointer<UInt32>, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, opaqueSource: Bool,
        backing: UInt32? = nil, scratch: UnsafeMutablePointer<UInt8>
    ) {
        let run = HorizontalRun(
            row: row, offsets: offsets, windows: windows, wideWindows: wideWindows, weights: weights, count: count, dst: dst)
        if let backing, backing >> 24 == 255 {
            // Samples laid over an opaque backing are opaque whatever the texture.
            let laid = Backed(colour: backing)
            if alpha == 255 { run.blend(laid, OpaqueStored()) } else { run.blend(laid, OpaqueAtAlpha(alpha)) }
        } else if let backing {
            let laid = Backed(colour: backing)
            if alpha == 255 { run.blend(laid, AnyAtFullAlpha()) } else { run.blend(laid, AnyAtAlpha(alpha)) }
        } else if opaqueSource && alpha == 255 {
            run.blend(AsSampled(), OpaqueStored())
        } else if opaqueSource {
            run.blend(AsSampled(), OpaqueAtAlpha(alpha))
        } else if alpha == 255 {
            run.blend(AsSampled(), AnyAtFullAlpha())
        } else {
            run.blend(AsSampled(), AnyAtAlpha(alpha))
        }
        // Fewer than eight pixels: the plain kernels, through the scratch row.
        if count < 8 && count > 0 {
            horizontal(row, offsets: offsets, windows: windows, weights: weights, count: count, into: UnsafeMutableRawPointer(scratch))
            if let backing { BlendKernels.overColor(scratch, color: backing, count: count, into: scratch) }
            BlendKernels.sourceOverConstant(dst: dst, src: scratch, alpha: alpha, count: count)
        }
    }

    /// One run of `horizontalOver`: its pointers, and the loop each blend specializes.
    private struct HorizontalRun {
        let row: UnsafeRawPointer
        let offsets: UnsafePointer<Int32>
        let windows: UnsafePointer<TexelWindows.Window>
        /// Sixteen-column windows (AVX-512 builds), used where they have a form; nil: the eight-column ones.
        let wideWindows: UnsafePointer<TexelWindows.WideWindow>?
        let weights: UnsafePointer<UInt32>
        let count: Int
        let dst: UnsafeMutablePointer<UInt8>

        /// Stores `blend(target, laying(sample))` over every pixel of a run of eight or more (nothing for a
        /// shorter one); `target` loads the target pixels when the blend needs them.
        @inline(__always)
        func blend<Laying: SampleLaying, Blend: SampleBlend>(_ laying: Laying, _ blend: Blend) {
            guard count >= 8 else { return }
            @inline(__always) func sample(_ i: Int) -> Pixels8 {
                let pairs = TexelWindows.pairs(row, offsets + i, windows[i])
                let w = halves(UnsafeRawPointer(weights + i).loadUnaligned(as: Pixels8.self))
                return lerp(pairs.left, pairs.right, doubledWeight: w)
            }
            @inline(__always) func blended(_ i: Int) -> Pixels8 {
                blend.over({ UnsafeRawPointer(dst + 4 &* i).loadUnaligned(as: Pixels8.self) }, laying.laid(sample(i)))
            }
            // A ragged end is the last eight pixels, worked out before the loop changes any of
            // them and stored after it: those the loop blends too come out the same.
            let last = count & 7 != 0 ? blended(count &- 8) : nil
            var i = 0
            #if SHIFTRENDER_AVX512
            while i &+ 16 <= count {
                let left: Pixels16, right: Pixels16
                if let wideWindows, let pairs = TexelWindows.windowedWide(row, wideWindows[i]) {
                    (left, right) = pairs
                } else {
                    let low = TexelWindows.pairs(row, offsets + i, windows[i])
                    let high = TexelWindows.pairs(row, offsets + (i &+ 8), windows[i &+ 8])
                    (left, right) = (WidePixels.join(low.left, high.left), WidePixels.join(low.right, high.right))
                }
                // `WidePixels.lerp`'s step, left to the blend (which may fuse it with its own).
                let factor = WidePixels.stepFactor(doubledWeight: WidePixels.load(weights + i))
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                WidePixels.store(blend.over({ WidePixels.load(d) }, laying, steppingFrom: left, to: right, factor: factor), d)
                i &+= 16
            }
            #endif
            while i &+ 8 <= count {
                UnsafeMutableRawPointer(dst + 4 &* i).storeBytes(of: blended(i), as: Pixels8.self)
                i &+= 8
            }
            if let last { UnsafeMutableRawPointer(dst + 4 &* (count &- 8)).storeBytes(of: last, as: Pixels8.self) }
        }
    }

    // MARK: Rotated path

    /// Texel byte offsets (row and column) and both weights for pixels `x0 ..< x0 + count` of row `y`.
    static func rotatedCoordinates(
        _ m: TexelMapping, rowBytes: Int, y: Int, x0: Int, count: Int,
        offsets: UnsafeMutablePointer<Int32>, weightsX: UnsafeMutablePointer<UInt32>,
        weightsY: UnsafeMutablePointer<UInt32>
    ) {
        let s0 = Float(m.map.a * Double(x0) + m.map.c * Double(y) + m.map.tx)
        let t0 = Float(m.map.b * Double(x0) + m.map.d * Double(y) + m.map.ty)
        let sa = m.sa
        let sb = m.sb
        let limitX = Float(m.sourceWidth - 1)
        let limitY = Float(m.sourceHeight - 1)
        let stride = Int32(truncatingIfNeeded: rowBytes)
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        while i &+ 8 <= count {
            let fi = iota + Float(Int32(truncatingIfNeeded: i))
            let (xi, wx) = axis8(SIMD8<Float>(repeating: sa) * fi + s0, limitX)
            let (yi, wy) = axis8(SIMD8<Float>(repeating: sb) * fi + t0, limitY)
            UnsafeMutableRawPointer(offsets + i).storeBytes(of: yi &* stride &+ (xi &<< 2), as: SIMD8<Int32>.self)
            UnsafeMutableRawPointer(weightsX + i).storeBytes(of: wx, as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(weightsY + i).storeBytes(of: wy, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < count {
            let fi = Float(Int32(truncatingIfNeeded: i))
            let (xi, wx) = axis(sa * fi + s0, limitX)
            let (yi, wy) = axis(sb * fi + t0, limitY)
            offsets[i] = yi &* stride &+ (xi &<< 2)
            weightsX[i] = wx
            weightsY[i] = wy
            i &+= 1
        }
    }

    /// Bilinear samples from per-pixel offsets and weights (`rotatedCoordinates`).
    static func gather(
        _ texels: UnsafeRawPointer, rowBytes: Int, offsets: UnsafePointer<Int32>,
        weightsX: UnsafePointer<UInt32>, weightsY: UnsafePointer<UInt32>,
        count: Int, into out: UnsafeMutableRawPointer
    ) {
        let below = texels + rowBytes
        var i = 0
        while i &+ 8 <= count {
            let top = texelPairs(texels, offsets + i)
            let bottom = texelPairs(below, offsets + i)
            let wy = UnsafeRawPointer(weightsY + i).loadUnaligned(as: Pixels8.self)
            let wx = UnsafeRawPointer(weightsX + i).loadUnaligned(as: Pixels8.self)
            let left = lerp(top.evenHalf, bottom.evenHalf, wy)
            let right = lerp(top.oddHalf, bottom.oddHalf, wy)
            out.storeBytes(of: lerp(left, right, wx), toByteOffset: 4 &* i, as: Pixels8.self)
            i &+= 8
        }
        while i < count {
            let o = Int(offsets[i])
            let wy = weightsY[i]
            let left = lerp(texels.load(fromByteOffset: o, as: UInt32.self), below.load(fromByteOffset: o, as: UInt32.self), wy)
            let right = lerp(
                texels.load(fromByteOffset: o &+ 4, as: UInt32.self),
                below.load(fromByteOffset: o &+ 4, as: UInt32.self), wy)
            out.storeBytes(of: lerp(left, right, weightsX[i]), toByteOffset: 4 &* i, as: UInt32.self)
            i &+= 1
        }
    }

    /// Eight lanes of `axis`, same arithmetic.
    @inline(always)
    static func axis8(_ v: SIMD8<Float>, _ limit: Float) -> (SIMD8<Int32>, SIMD8<UInt32>) {
        var c = v.replacing(with: 0, where: .!(v .> 0))
        c = c.replacing(with: limit, where: c .> limit)
        let r = (c + magic) - magic
        let f = r.replacing(with: r - 1, where: r .> c)
        let index = unsafeBitCast(f + magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let weight = unsafeBitCast((c - f) * 256 + magic, to: SIMD8<UInt32>.self) &- 0x4B40_0000
        return (index &+ unsafeBitCast(weight &>> 8, to: SIMD8<Int32>.self), weight & 0xFF)
    }
}
