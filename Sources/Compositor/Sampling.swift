import Primitives

/// Maps target pixels to a source bitmap's texel space for a `.bitmap` paint:
/// the source's full extent covers `shape.rect`, texel centres sit at
/// `(i + 0.5) / width` of the rectangle, so target pixel `(x, y)` (index)
/// samples source coordinate `s = sa*x + sc*y + stx`, `t = sb*x + sd*y + sty`
/// where integer `(s, t)` is a texel centre.
struct TexelMapping: Sendable {
    let map: AffineTransform2D
    let sa: Float, sb: Float
    let sourceWidth: Int, sourceHeight: Int

    /// Nil for an empty source, a degenerate rectangle, or a non-invertible transform.
    init?(transform: AffineTransform2D, rect: Rect, sourceWidth: Int, sourceHeight: Int) {
        // Texel offsets are Int32 bytes in the kernels, and coordinates must stay below 2^22.
        guard sourceWidth > 0, sourceHeight > 0, sourceWidth < 1 << 22, sourceHeight < 1 << 22,
              sourceWidth * sourceHeight < Int(Int32.max) / 4,
              rect.width > 0, rect.height > 0,
              let inv = transform.inverted else { return nil }
        let kx = Double(sourceWidth) / rect.width, ky = Double(sourceHeight) / rect.height
        // local = inv(x + 0.5, y + 0.5); s = (local.x - minX) * kx - 0.5.
        let a = inv.a * kx, c = inv.c * kx
        let b = inv.b * ky, d = inv.d * ky
        let tx = (inv.tx - rect.minX) * kx - 0.5 + 0.5 * (a + c)
        let ty = (inv.ty - rect.minY) * ky - 0.5 + 0.5 * (b + d)
        map = AffineTransform2D(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
        guard [a, b, c, d, tx, ty].allSatisfy({ $0.isFinite && abs($0) < 1e15 }) else { return nil }
        sa = Float(a); sb = Float(b)
        self.sourceWidth = sourceWidth; self.sourceHeight = sourceHeight
    }

    /// No rotation or shear: `s` depends on x only and `t` on y only, so texel
    /// columns and weights can be tabulated once per item (`ColumnTable`).
    var isSeparable: Bool { map.b == 0 && map.c == 0 }
}

/// For a separable mapping, the two texel columns (byte offsets) and the
/// weight of the second for every target column `x0 ..< x0 + count`, computed
/// once per item and band instead of once per pixel. Storage lives in `RowScratch`.
struct ColumnTable {
    let x0: Int
    let offsetA: UnsafeMutablePointer<Int32>
    let offsetB: UnsafeMutablePointer<Int32>
    let weight: UnsafeMutablePointer<UInt32>
}

/// Bitmap sampling for `.bitmap` paints, behind one entry point (`sampleRow`)
/// so mip-mapped or SIMD sampling can replace it without touching callers.
///
/// Current filter: bilinear on premultiplied texels, clamped to the edge
/// texels (edges extend; outside the shape coverage is 0 anyway), in integer
/// arithmetic: weights quantized to 1/256, two channels per 32-bit word
/// (`0x00FF00FF` halves: `c0 * (256 - w) + c1 * w + 128 <= 65408` never carries),
/// horizontal then vertical, each rounded. Error against exact bilinear is
/// under 1.5/255 (measured worst 1.47 in the reference test); a weight of 0
/// reproduces texels exactly, and premultiplied
/// input stays premultiplied (every step is monotone and shared by all channels).
/// Rows whose texel row is constant (no rotation) hoist the vertical setup.
/// Measured: the first Float/`SIMD4<Float>` version ran at ~15-29 ns/px
/// (overflow checks and index math dominated); this one 5.3 ns/px with the
/// column table, 10.3 rotated (numbers and command in `Compositor.swift`).
///
/// Strong minification aliases (a 1170 px screen drawn at 200 px); mip levels
/// are a planned change here.
/// Scratch for one row of a rotated mapping: texel columns and rows (byte
/// offsets) and weights per pixel, filled by a branch-free pass.
struct TexelCoordinates {
    let columns: ColumnTable
    let rowA: UnsafeMutablePointer<Int32>
    let rowB: UnsafeMutablePointer<Int32>
    let rowWeight: UnsafeMutablePointer<UInt32>
}

enum Sampling {
    /// Fills `table` for target columns `x0 ..< x0 + count` of a separable mapping.
    static func prepareColumns(_ m: TexelMapping, x0: Int, count: Int, into table: ColumnTable) {
        let s0 = Float(m.map.a * Double(x0) + m.map.tx), sa = m.sa, maxX = Float(m.sourceWidth)
        for i in 0 ..< count {
            let (xa, xb, w) = axis(clampCoordinate(s0 + sa * Float(Int32(truncatingIfNeeded: i)), maxX), m.sourceWidth)
            table.offsetA[i] = Int32(truncatingIfNeeded: xa &* 4)
            table.offsetB[i] = Int32(truncatingIfNeeded: xb &* 4)
            table.weight[i] = w
        }
    }

    /// Writes premultiplied RGBA8 samples for pixels `x0 ..< x0 + count` of row `y` to `out`.
    /// Sources must be premultiplied (colour <= alpha); other input gives unspecified colours, never a trap.
    /// `columns`, if given, must come from `prepareColumns` for this (separable) mapping and cover the span;
    /// `coordinates`, scratch for rotated mappings, must hold `count` entries. Both are optional
    /// (without them the kernel computes coordinates per pixel, slower, same bytes).
    static func sampleRow(_ m: TexelMapping, source: UnsafePointer<UInt8>, y: Int, x0: Int, count: Int,
                          into out: UnsafeMutablePointer<UInt8>, columns: ColumnTable? = nil,
                          coordinates: TexelCoordinates? = nil) {
        guard count > 0 else { return }
        let s0d = m.map.a * Double(x0) + m.map.c * Double(y) + m.map.tx
        let t0d = m.map.b * Double(x0) + m.map.d * Double(y) + m.map.ty
        let w = m.sourceWidth, h = m.sourceHeight
        let texels = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(out)
        let rowBytes = w &* 4
        // Fast path: the row walks texel centres one by one (integer translation at scale 1).
        if m.map.a == 1, m.map.b == 0, s0d == s0d.rounded(.down), t0d == t0d.rounded(.down) {
            let ty = min(max(clampedIndex(t0d), 0), h - 1)
            let row = texels + ty &* rowBytes
            let sx0 = clampedIndex(s0d)
            for i in 0 ..< count {
                let sx = min(max(sx0 &+ i, 0), w &- 1)
                output.storeBytes(of: row.loadUnaligned(fromByteOffset: sx &* 4, as: UInt32.self),
                                  toByteOffset: i &* 4, as: UInt32.self)
            }
            return
        }
        if let columns, m.isSeparable {
            let (ya, yb, wy) = axis(clampCoordinate(Float(t0d), Float(h)), h)
            let r0 = texels + ya &* rowBytes, r1 = texels + yb &* rowBytes
            let first = x0 &- columns.x0
            let oa = columns.offsetA + first, ob = columns.offsetB + first, ws = columns.weight + first
            for i in 0 ..< count {
                let a = Int(oa[i]), b = Int(ob[i]), wx = ws[i]
                let top = lerp(r0.loadUnaligned(fromByteOffset: a, as: UInt32.self),
                               r0.loadUnaligned(fromByteOffset: b, as: UInt32.self), wx)
                let bottom = lerp(r1.loadUnaligned(fromByteOffset: a, as: UInt32.self),
                                  r1.loadUnaligned(fromByteOffset: b, as: UInt32.self), wx)
                output.storeBytes(of: lerp(top, bottom, wy), toByteOffset: i &* 4, as: UInt32.self)
            }
            return
        }
        let s0 = Float(s0d), sa = m.sa, maxX = Float(w)
        if m.sb == 0 {
            // Texel row constant along the target row: vertical setup once.
            let (ya, yb, wy) = axis(clampCoordinate(Float(t0d), Float(h)), h)
            let r0 = texels + ya &* rowBytes, r1 = texels + yb &* rowBytes
            for i in 0 ..< count {
                let (xa, xb, wx) = axis(clampCoordinate(s0 + sa * Float(Int32(truncatingIfNeeded: i)), maxX), w)
                let top = lerp(r0.loadUnaligned(fromByteOffset: xa &* 4, as: UInt32.self),
                               r0.loadUnaligned(fromByteOffset: xb &* 4, as: UInt32.self), wx)
                let bottom = lerp(r1.loadUnaligned(fromByteOffset: xa &* 4, as: UInt32.self),
                                  r1.loadUnaligned(fromByteOffset: xb &* 4, as: UInt32.self), wx)
                output.storeBytes(of: lerp(top, bottom, wy), toByteOffset: i &* 4, as: UInt32.self)
            }
            return
        }
        guard let coordinates else {
            // Without scratch: evaluate coordinates pixel by pixel (slow; tests and tools).
            let t0 = Float(t0d), sb = m.sb, maxY = Float(h)
            for i in 0 ..< count {
                let fi = Float(Int32(truncatingIfNeeded: i))
                let (xa, xb, wx) = axis(clampCoordinate(s0 + sa * fi, maxX), w)
                let (ya, yb, wy) = axis(clampCoordinate(t0 + sb * fi, maxY), h)
                output.storeBytes(of: bilinear(texels + ya &* rowBytes, texels + yb &* rowBytes, xa &* 4, xb &* 4, wx, wy),
                                  toByteOffset: i &* 4, as: UInt32.self)
            }
            return
        }
        // Rotated: a branch-free pass computes texel offsets and weights for the
        // span (vectorizable), then a gather pass does the lerps.
        let t0 = Float(t0d), sb = m.sb, maxY = Float(h)
        let ca = coordinates.columns.offsetA, cb = coordinates.columns.offsetB, cw = coordinates.columns.weight
        let ra = coordinates.rowA, rb = coordinates.rowB, rw = coordinates.rowWeight
        let lastX = Int32(truncatingIfNeeded: w &- 1), lastY = Int32(truncatingIfNeeded: h &- 1)
        let stride = Int32(truncatingIfNeeded: rowBytes)
        for i in 0 ..< count {
            let fi = Float(Int32(truncatingIfNeeded: i))
            let sx = clampCoordinate(s0 + sa * fi, maxX), ty = clampCoordinate(t0 + sb * fi, maxY)
            var xi = nearestInt(sx), yi = nearestInt(ty)
            xi = Float(xi) > sx ? xi &- 1 : xi
            yi = Float(yi) > ty ? yi &- 1 : yi
            cw[i] = UInt32(truncatingIfNeeded: nearestInt((sx - Float(xi)) * 256))
            rw[i] = UInt32(truncatingIfNeeded: nearestInt((ty - Float(yi)) * 256))
            ca[i] = min(max(xi, 0), lastX) &* 4
            cb[i] = min(max(xi &+ 1, 0), lastX) &* 4
            ra[i] = min(max(yi, 0), lastY) &* stride
            rb[i] = min(max(yi &+ 1, 0), lastY) &* stride
        }
        for i in 0 ..< count {
            output.storeBytes(of: bilinear(texels + Int(ra[i]), texels + Int(rb[i]), Int(ca[i]), Int(cb[i]), cw[i], rw[i]),
                              toByteOffset: i &* 4, as: UInt32.self)
        }
    }

    /// Bilinear blend of the texels at byte offsets `a`, `b` of rows `r0`, `r1`.
    @inline(__always)
    static func bilinear(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ a: Int, _ b: Int,
                         _ wx: UInt32, _ wy: UInt32) -> UInt32 {
        let top = lerp(r0.loadUnaligned(fromByteOffset: a, as: UInt32.self),
                       r0.loadUnaligned(fromByteOffset: b, as: UInt32.self), wx)
        let bottom = lerp(r1.loadUnaligned(fromByteOffset: a, as: UInt32.self),
                          r1.loadUnaligned(fromByteOffset: b, as: UInt32.self), wx)
        return lerp(top, bottom, wy)
    }

    /// Clamps to `-1 ... limit` (beyond which edge clamping changes nothing); NaN -> -1.
    @inline(__always)
    static func clampCoordinate(_ v: Float, _ limit: Float) -> Float {
        v > -1 ? (v < limit ? v : limit) : -1
    }

    /// For a coordinate in `-1 ... size`: the two texel indices (clamped) and the
    /// weight of the second, in 1/256 (0...256). Branch-free, no trapping
    /// conversion (see `nearestInt`): the checked `Int32(Float)` form measured
    /// 16-20 ns/px in the per-pixel path.
    @inline(__always)
    static func axis(_ v: Float, _ size: Int) -> (Int, Int, UInt32) {
        var i = nearestInt(v)
        i = Float(i) > v ? i &- 1 : i                       // floor
        let weight = UInt32(truncatingIfNeeded: nearestInt((v - Float(i)) * 256))
        let index = Int(i)
        return (min(max(index, 0), size &- 1), min(max(index &+ 1, 0), size &- 1), weight)
    }

    /// `v` rounded to the nearest integer (ties to even) for `|v| < 2^22`, by adding
    /// 1.5 * 2^23 and reading the mantissa: no branch, no trap.
    @inline(__always)
    static func nearestInt(_ v: Float) -> Int32 {
        Int32(bitPattern: (v + 12_582_912).bitPattern) &- 0x4B40_0000
    }

    /// `p * (256 - w) + q * w`, rounded, on all four bytes; `w` in 0...256.
    @inline(__always)
    static func lerp(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        let w0 = 256 &- w
        let rb = (((p & 0x00FF_00FF) &* w0 &+ (q & 0x00FF_00FF) &* w &+ 0x0080_0080) &>> 8) & 0x00FF_00FF
        let ga = (((p &>> 8) & 0x00FF_00FF) &* w0 &+ ((q &>> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ga
    }

    /// Reference: bilinear sample at pixel (x, y) in Double, straight from the definition.
    static func referenceSample(_ m: TexelMapping, source: [UInt8], x: Int, y: Int) -> SIMD4<Double> {
        let s = m.map.a * Double(x) + m.map.c * Double(y) + m.map.tx
        let t = m.map.b * Double(x) + m.map.d * Double(y) + m.map.ty
        let w = m.sourceWidth, h = m.sourceHeight
        let fs = s.rounded(.down), ft = t.rounded(.down)
        let fx = s - fs, fy = t - ft
        func at(_ i: Double, _ j: Double) -> SIMD4<Double> {
            let xi = min(max(Int(i), 0), w - 1), yi = min(max(Int(j), 0), h - 1)
            let k = (yi * w + xi) * 4
            return SIMD4(Double(source[k]), Double(source[k + 1]), Double(source[k + 2]), Double(source[k + 3]))
        }
        let top = at(fs, ft) * (1 - fx) + at(fs + 1, ft) * fx
        let bottom = at(fs, ft + 1) * (1 - fx) + at(fs + 1, ft + 1) * fx
        return top * (1 - fy) + bottom * fy
    }
}
