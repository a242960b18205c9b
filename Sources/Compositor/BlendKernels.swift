#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif
import CPrefetch

/// Premultiplied source-over on rows of RGBA8 pixels:
/// `dst = src * a + dst * (1 - srcAlpha * a)` with `a` the 8-bit coverage
/// (coverage x opacity), in 16-bit integers with one rounding per channel:
///
///     sa   = div255(src.a * a)                      // the alpha actually laid down
///     dst' = div255(src * a + dst * (255 - sa))     // every channel, alpha included
///
/// Contract: sources are premultiplied (`src.c <= src.a`), so every sum is at
/// most `255 * 255 + 127` and `div255` stays exact in 16 bits (a malformed
/// source garbles only its own pixel: lanes wrap, never trap). Error against
/// real-number source-over is at most 1/255. Consequences the tests pin down:
/// an opaque source at `a = 255` is written exactly (so it may be stored
/// instead of blended), `a = 0` leaves `dst` unchanged, 50 % white over black is 128.
///
/// Kernels come in two shapes: per-pixel alpha (edge pixels, shadows, borders)
/// and one constant alpha for a whole run (the interior of a shape, where
/// coverage is 1 and only the opacity remains): the constant form hoists the
/// alpha products out of the loop, and at alpha 255 with an opaque source it
/// is a store. Each has a scalar reference (`...Reference`) and an eight-pixel
/// SIMD version (`PixelVectors`) that must match it bit for bit; on AVX-512
/// builds the busiest take sixteen pixels a vector first (`WidePixels`), and
/// the per-pixel-alpha ones end in one masked vector instead of the
/// reference, since their runs (edges, shadows) are mostly short.
///
/// `sourceOverConstant`, `sourceOverSolid` and `sourceOverSolidConstant` also
/// take rows to prefetch: a group layer's composite reads layer and target
/// rows that both come from memory (`LayerFill`), a shadow's or edge's colour
/// blend a target row (`ItemRow.blendColor`), a solid's interior its target
/// row (`SolidFill`). Each pays a few percent (benchmarks/RESULTS.md).
///
/// The eight-pixel form replaced a `SIMD16<UInt16>` form with per-pixel
/// broadcasts and a four-pixel `SIMD4<UInt32>` one, both slower per pixel
/// (`KernelBenchmark`; figures in benchmarks/RESULTS.md).
enum BlendKernels {
    // MARK: Scalar references

    /// Source-over of one pixel `s` (premultiplied) at coverage `a` onto `d`.
    @inline(__always)
    static func blendPixel(_ d: UnsafeMutablePointer<UInt8>, _ s: (UInt32, UInt32, UInt32, UInt32), _ a: UInt32) {
        let sa = div255(s.3 &* a)
        let inv = 255 &- sa
        d[0] = UInt8(truncatingIfNeeded: div255(s.0 &* a &+ UInt32(d[0]) &* inv))
        d[1] = UInt8(truncatingIfNeeded: div255(s.1 &* a &+ UInt32(d[1]) &* inv))
        d[2] = UInt8(truncatingIfNeeded: div255(s.2 &* a &+ UInt32(d[2]) &* inv))
        d[3] = UInt8(truncatingIfNeeded: div255(s.3 &* a &+ UInt32(d[3]) &* inv))
    }

    @inline(__always)
    private static func pixel(_ s: UnsafePointer<UInt8>) -> (UInt32, UInt32, UInt32, UInt32) {
        (UInt32(s[0]), UInt32(s[1]), UInt32(s[2]), UInt32(s[3]))
    }

    /// `dst[i] = src[i] * alpha[i] over dst[i]`, one pixel at a time.
    static func sourceOverReference(
        dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
        alpha: UnsafePointer<UInt8>, count: Int
    ) {
        for i in 0 ..< count where alpha[i] != 0 {
            blendPixel(dst + 4 * i, pixel(src + 4 * i), UInt32(alpha[i]))
        }
    }

    /// `dst[i] = color * alpha[i] over dst[i]`, one pixel at a time.
    static func sourceOverSolidReference(
        dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
        alpha: UnsafePointer<UInt8>, count: Int
    ) {
        let c = (UInt32(color.x), UInt32(color.y), UInt32(color.z), UInt32(color.w))
        for i in 0 ..< count where alpha[i] != 0 { blendPixel(dst + 4 * i, c, UInt32(alpha[i])) }
    }

    /// `dst[i] = src[i] * alpha over dst[i]`, one constant alpha.
    static func sourceOverConstantReference(
        dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
        alpha: UInt8, count: Int
    ) {
        guard alpha != 0 else { return }
        for i in 0 ..< count { blendPixel(dst + 4 * i, pixel(src + 4 * i), UInt32(alpha)) }
    }

    /// `dst[i] = color * alpha over dst[i]`, one constant alpha.
    static func sourceOverSolidConstantReference(
        dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
        alpha: UInt8, count: Int
    ) {
        guard alpha != 0 else { return }
        let c = (UInt32(color.x), UInt32(color.y), UInt32(color.z), UInt32(color.w))
        for i in 0 ..< count { blendPixel(dst + 4 * i, c, UInt32(alpha)) }
    }

    /// `out[i] = src[i] over color` at alpha 255: samples laid on an opaque
    /// backing colour (a bypassed group's bitmap over its solid, `LayerBypass`).
    /// `out` may be `src`.
    static func overColorReference(_ src: UnsafePointer<UInt8>, color: UInt32, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in 0 ..< count {
            let s = pixel(src + 4 * i)
            UnsafeMutableRawPointer(out + 4 * i).storeBytes(of: color, as: UInt32.self)
            blendPixel(out + 4 * i, s, 255)
        }
    }

    // MARK: SIMD kernels

    /// Source-over of eight pixels with the source already multiplied by coverage
    /// (`srb`, `sga`: channel x alpha in 16-bit halves) and `inv2` = `255 - sa` doubled.
    @inline(__always)
    private static func over(_ d: Pixels8, _ srb: Channels16, _ sga: Channels16, _ inv2: Channels16) -> Pixels8 {
        let mask = Pixels8(repeating: 0x00FF_00FF)
        let rb = div255(srb &+ halves(d & mask) &* inv2)
        let ga = div255(sga &+ halves((d &>> 8) & mask) &* inv2)
        return lanes(rb) | (lanes(ga) &<< 8)
    }

    /// Source-over of eight pixels: `s`, `d` one pixel per lane, `a` coverage per lane (0...255).
    @inline(__always)
    static func blend8(_ d: Pixels8, _ s: Pixels8, _ a: Pixels8) -> Pixels8 {
        let mask = Pixels8(repeating: 0x00FF_00FF)
        let a2 = doubled(a)
        let srb = halves(s & mask) &* a2
        let sga = halves((s &>> 8) & mask) &* a2
        let sa = div255(halves(lanes(sga) &>> 16))
        return over(d, srb, sga, doubled(lanes(255 &- sa) & 0xFFFF))
    }

    /// `blend8` of an opaque source (alpha 255 in every lane) at one alpha `a`, with `a2` =
    /// `doubled(a)` and `inv2` = `doubled(255 - a)` hoisted by the caller: the alpha laid down,
    /// `div255(255 * a)`, is `a` itself, so nothing of it is computed per pixel. Same bits.
    @inline(__always)
    static func blendOpaque8(_ d: Pixels8, _ s: Pixels8, _ a2: Channels16, _ inv2: Channels16) -> Pixels8 {
        let mask = Pixels8(repeating: 0x00FF_00FF)
        return over(d, halves(s & mask) &* a2, halves((s &>> 8) & mask) &* a2, inv2)
    }

    #if SHIFTRENDER_AVX2
    /// `blendOpaque8` as `d + mulhrs(s - d, factor)` per channel (`OpaqueAlphaFactors`: `factor` the alpha's,
    /// in every 16-bit lane): two multiplies per eight pixels instead of four. Same bits.
    @inline(__always)
    static func blendOpaque8(_ d: Pixels8, _ s: Pixels8, factor: __m256i) -> Pixels8 { stepToward(d, s, factor: factor) }
    #endif

    /// `blend8` at alpha 255: the source is laid down as it is, `d' = s + div255(d * (255 - s.a))`,
    /// the same bits (`div255(255 * s + x) = s + div255(x)`: both are `x / 255` rounded, `s` whole),
    /// without the source's two multiplies and its alpha's division. A premultiplied source keeps every
    /// sum within its byte (`s.c + (255 - s.a) <= 255`); a malformed one may carry into the next channel of its pixel.
    @inline(__always)
    static func blendFull8(_ d: Pixels8, _ s: Pixels8) -> Pixels8 {
        let mask = Pixels8(repeating: 0x00FF_00FF)
        let inv2 = doubled(255 &- (s &>> 24))
        let rb = div255(halves(d & mask) &* inv2)
        let ga = div255(halves((d &>> 8) & mask) &* inv2)
        return s &+ (lanes(rb) | (lanes(ga) &<< 8))
    }

    /// SIMD `sourceOverReference`.
    static func sourceOver(
        dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
        alpha: UnsafePointer<UInt8>, count: Int
    ) {
        var i = 0
        #if SHIFTRENDER_AVX512
        // Sixteen pixels a vector, then the rest in one masked vector (a blend at alpha 0 leaves its pixel as it is).
        while i < count {
            let n = min(16, count &- i)
            if n < 16 || UnsafeRawPointer(alpha + i).loadUnaligned(as: SIMD2<UInt64>.self) != .zero {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = WidePixels.load(src + 4 &* i, count: n)
                let a = WidePixels.alphaLanes(alpha + i, count: n)
                WidePixels.store(WidePixels.blend(WidePixels.load(d, count: n), s, a), d, count: n)
            }
            i &+= 16
        }
        return
        #else
        while i &+ 8 <= count {
            if UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self) != 0 {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
                d.storeBytes(of: blend8(d.loadUnaligned(as: Pixels8.self), s, byteLanes(alpha + i)), as: Pixels8.self)
            }
            i &+= 8
        }
        if i < count { sourceOverReference(dst: dst + 4 * i, src: src + 4 * i, alpha: alpha + i, count: count - i) }
        #endif
    }

    /// SIMD `sourceOverSolidReference`.
    static func sourceOverSolid(
        dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
        alpha: UnsafePointer<UInt8>, count: Int, prefetching ahead: UnsafePointer<UInt8>? = nil
    ) {
        let s = Pixels8(repeating: unsafeBitCast(color, to: UInt32.self))
        // An opaque colour at full coverage is a plain store (the formula gives exactly `s`).
        let opaqueRun: UInt64 = color.w == 255 ? ~0 : 0
        var i = 0
        #if SHIFTRENDER_AVX512
        // Sixteen pixels a vector, then the rest in one masked vector (a blend at alpha 0 leaves its pixel as it is).
        let s16 = WidePixels.splat(unsafeBitCast(color, to: UInt32.self))
        while i < count {
            if let ahead { shiftrender_prefetch(ahead + 4 &* i) }
            let n = min(16, count &- i)
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            if n == 16 {
                let a16 = UnsafeRawPointer(alpha + i).loadUnaligned(as: SIMD2<UInt64>.self)
                if a16 == .zero {
                } else if a16 == SIMD2(repeating: opaqueRun) {
                    WidePixels.store(s16, d)
                } else {
                    WidePixels.store(WidePixels.blend(WidePixels.load(d), s16, WidePixels.alphaLanes(alpha + i)), d)
                }
            } else {
                let a = WidePixels.alphaLanes(alpha + i, count: n)
                WidePixels.store(WidePixels.blend(WidePixels.load(d, count: n), s16, a), d, count: n)
            }
            i &+= 16
        }
        return
        #else
        while i &+ 8 <= count {
            if let ahead, i & 8 == 0 { shiftrender_prefetch(ahead + 4 &* i) }
            let a8 = UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self)
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            // Zero coverage first: for a translucent colour `opaqueRun` is 0 too,
            // and a run of nothing must leave the target alone, not store the colour.
            if a8 == 0 {
            } else if a8 == opaqueRun {
                d.storeBytes(of: s, as: Pixels8.self)
            } else {
                d.storeBytes(of: blend8(d.loadUnaligned(as: Pixels8.self), s, byteLanes(alpha + i)), as: Pixels8.self)
            }
            i &+= 8
        }
        if i < count { sourceOverSolidReference(dst: dst + 4 * i, color: color, alpha: alpha + i, count: count - i) }
        #endif
    }

    /// SIMD `sourceOverSolidConstantReference`: every product but `dst * (255 - sa)` is hoisted.
    static func sourceOverSolidConstant(
        dst: UnsafeMutablePointer<UInt8>, color: SIMD4<UInt8>,
        alpha: UInt8, count: Int, prefetching ahead: UnsafePointer<UInt8>? = nil
    ) {
        guard alpha != 0, count > 0 else { return }
        let word = unsafeBitCast(color, to: UInt32.self)
        if alpha == 255 && color.w == 255 {
            // The fill as vector stores when there is a row to prefetch (`update(repeating:)` has no place for it).
            if let ahead {
                let v = Pixels8(repeating: word)
                var i = 0
                while i &+ 8 <= count {
                    if i & 8 == 0 { shiftrender_prefetch(ahead + 4 &* i) }
                    UnsafeMutableRawPointer(dst + 4 &* i).storeBytes(of: v, as: Pixels8.self)
                    i &+= 8
                }
                if i < count {
                    UnsafeMutableRawPointer(dst + 4 &* i).bindMemory(to: UInt32.self, capacity: count - i)
                        .update(repeating: word, count: count - i)
                }
                return
            }
            UnsafeMutableRawPointer(dst).bindMemory(to: UInt32.self, capacity: count).update(repeating: word, count: count)
            return
        }
        let mask = Pixels8(repeating: 0x00FF_00FF)
        let s = Pixels8(repeating: word)
        let a2 = doubled(Pixels8(repeating: UInt32(alpha)))
        let srb = halves(s & mask) &* a2
        let sga = halves((s &>> 8) & mask) &* a2
        let inv2 = doubled(Pixels8(repeating: 255 &- div255(UInt32(color.w) &* UInt32(alpha))))
        // An opaque colour over pixels that already are that colour leaves them as they are
        // (`div255(c * a + c * (255 - a)) == c`): such vectors are only compared, not blended or stored.
        // Cross-fading cards lay their background at the group's opacity over the same colour.
        let opaque = color.w == 255
        var i = 0
        #if SHIFTRENDER_AVX512
        let srb16 = WidePixels.join(lanes(srb), lanes(srb))
        let sga16 = WidePixels.join(lanes(sga), lanes(sga))
        let inv16 = WidePixels.join(lanes(inv2), lanes(inv2))
        let s16 = WidePixels.splat(word)
        // An opaque colour blends as `d + mulhrs(c - d, f)` (`OpaqueAlphaFactors`), the same bits; a loop of its own.
        if opaque {
            let factor = _mm512_set1_epi16(OpaqueAlphaFactors.table[Int(alpha)])
            while i &+ 16 <= count {
                if let ahead { shiftrender_prefetch(ahead + 4 &* i) }
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let v = WidePixels.load(d)
                if !WidePixels.equal(v, s16) { WidePixels.store(WidePixels.blendOpaque(v, s16, factor: factor), d) }
                i &+= 16
            }
            // The rest in one masked vector, not the scalar reference: edge runs are a few pixels long.
            if i < count {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let v = WidePixels.load(d, count: count &- i)
                WidePixels.store(WidePixels.blendOpaque(v, s16, factor: factor), d, count: count &- i)
            }
            return
        }
        while i &+ 16 <= count {
            if let ahead { shiftrender_prefetch(ahead + 4 &* i) }
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            WidePixels.store(WidePixels.over(WidePixels.load(d), srb16, sga16, inv16), d)
            i &+= 16
        }
        if i < count {
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            WidePixels.store(WidePixels.over(WidePixels.load(d, count: count &- i), srb16, sga16, inv16), d, count: count &- i)
        }
        return
        #else
        #if SHIFTRENDER_AVX2
        // As above: an opaque colour in a loop of its own, `d + mulhrs(c - d, f)`.
        if opaque {
            let factor = _mm256_set1_epi16(OpaqueAlphaFactors.table[Int(alpha)])
            while i &+ 8 <= count {
                if let ahead, i & 8 == 0 { shiftrender_prefetch(ahead + 4 &* i) }
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let v = d.loadUnaligned(as: Pixels8.self)
                if !samePixels(v, s) { d.storeBytes(of: blendOpaque8(v, s, factor: factor), as: Pixels8.self) }
                i &+= 8
            }
            if i < count { sourceOverSolidConstantReference(dst: dst + 4 * i, color: color, alpha: alpha, count: count - i) }
            return
        }
        #endif
        while i &+ 8 <= count {
            if let ahead, i & 8 == 0 { shiftrender_prefetch(ahead + 4 &* i) }
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            let v = d.loadUnaligned(as: Pixels8.self)
            if !(opaque && samePixels(v, s)) { d.storeBytes(of: over(v, srb, sga, inv2), as: Pixels8.self) }
            i &+= 8
        }
        if i < count { sourceOverSolidConstantReference(dst: dst + 4 * i, color: color, alpha: alpha, count: count - i) }
        #endif
    }

    /// SIMD `overColorReference`.
    static func overColor(_ src: UnsafePointer<UInt8>, color: UInt32, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let backing = Pixels8(repeating: color)
        var i = 0
        while i &+ 8 <= count {
            let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
            UnsafeMutableRawPointer(out + 4 &* i).storeBytes(of: blendFull8(backing, s), as: Pixels8.self)
            i &+= 8
        }
        if i < count { overColorReference(src + 4 * i, color: color, count: count - i, into: out + 4 * i) }
    }

    /// SIMD `sourceOverConstantReference`. At alpha 255, eight opaque source
    /// pixels are stored as they are (the formula reproduces them exactly).
    /// `ahead`: the same pixels of rows read later, prefetched a line per 64
    /// bytes (a hint: any addresses, nothing is read from them).
    static func sourceOverConstant(
        dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>,
        alpha: UInt8, count: Int, prefetching ahead: (dst: UnsafePointer<UInt8>, src: UnsafePointer<UInt8>)? = nil
    ) {
        guard alpha != 0 else { return }
        let a = Pixels8(repeating: UInt32(alpha))
        let opaque = Pixels8(repeating: 0xFF00_0000)
        @inline(__always) func prefetch(_ i: Int) {
            guard let ahead, i & 8 == 0 else { return }
            shiftrender_prefetch(ahead.dst + 4 &* i)
            shiftrender_prefetch(ahead.src + 4 &* i)
        }
        var i = 0
        #if SHIFTRENDER_AVX512
        if alpha == 255 {
            while i &+ 16 <= count {
                prefetch(i)
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = WidePixels.load(src + 4 &* i)
                WidePixels.store(WidePixels.isOpaque(s) ? s : WidePixels.blendFull(WidePixels.load(d), s), d)
                i &+= 16
            }
        } else {
            let a16 = WidePixels.splat(UInt32(alpha))
            while i &+ 16 <= count {
                prefetch(i)
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                WidePixels.store(WidePixels.blend(WidePixels.load(d), WidePixels.load(src + 4 &* i), a16), d)
                i &+= 16
            }
        }
        // The rest in one masked vector, not the scalar reference: edge runs are a few pixels long.
        if i < count {
            let (d, n) = (UnsafeMutableRawPointer(dst + 4 &* i), count &- i)
            let s = WidePixels.load(src + 4 &* i, count: n)
            let blended = alpha == 255
                ? WidePixels.blendFull(WidePixels.load(d, count: n), s)
                : WidePixels.blend(WidePixels.load(d, count: n), s, WidePixels.splat(UInt32(alpha)))
            WidePixels.store(blended, d, count: n)
        }
        #else
        if alpha == 255 {
            while i &+ 8 <= count {
                prefetch(i)
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
                if (s & opaque) == opaque {
                    d.storeBytes(of: s, as: Pixels8.self)
                } else {
                    d.storeBytes(of: blendFull8(d.loadUnaligned(as: Pixels8.self), s), as: Pixels8.self)
                }
                i &+= 8
            }
        } else {
            while i &+ 8 <= count {
                prefetch(i)
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
                d.storeBytes(of: blend8(d.loadUnaligned(as: Pixels8.self), s, a), as: Pixels8.self)
                i &+= 8
            }
        }
        if i < count { sourceOverConstantReference(dst: dst + 4 * i, src: src + 4 * i, alpha: alpha, count: count - i) }
        #endif
    }
}

/// Replacement blends, for the backdrop blur (`BackdropFill`): the source
/// *replaces* the destination in proportion to `a` (coverage x opacity),
/// `dst' = div255(src * a + dst * (255 - a))` per channel, alpha included, so
/// a translucent blurred backdrop is laid down as it is rather than over
/// itself. Sums stay within `255 * 255`; `a = 255` copies, `a = 0` leaves
/// `dst`. Scalar references and eight-pixel SIMD versions, bit for bit equal.
extension BlendKernels {
    @inline(__always)
    static func replacePixel(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ a: UInt32) {
        let inv = 255 &- a
        for c in 0 ..< 4 { d[c] = UInt8(truncatingIfNeeded: div255(UInt32(s[c]) &* a &+ UInt32(d[c]) &* inv)) }
    }

    static func replaceReference(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>, alpha: UnsafePointer<UInt8>, count: Int) {
        for i in 0 ..< count where alpha[i] != 0 { replacePixel(dst + 4 * i, src + 4 * i, UInt32(alpha[i])) }
    }

    static func replaceConstantReference(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>, alpha: UInt8, count: Int) {
        guard alpha != 0 else { return }
        for i in 0 ..< count { replacePixel(dst + 4 * i, src + 4 * i, UInt32(alpha)) }
    }

    /// Eight pixels: `div255(s * a + d * (255 - a))`, `a` per lane in 0...255.
    @inline(__always)
    static func replace8(_ d: Pixels8, _ s: Pixels8, _ a: Pixels8) -> Pixels8 {
        let mask = Pixels8(repeating: 0x00FF_00FF)
        let a2 = doubled(a)
        let inv2 = doubled(255 &- a)
        let rb = div255(halves(s & mask) &* a2 &+ halves(d & mask) &* inv2)
        let ga = div255(halves((s &>> 8) & mask) &* a2 &+ halves((d &>> 8) & mask) &* inv2)
        return lanes(rb) | (lanes(ga) &<< 8)
    }

    /// SIMD `replaceReference`.
    static func replace(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>, alpha: UnsafePointer<UInt8>, count: Int) {
        var i = 0
        while i &+ 8 <= count {
            if UnsafeRawPointer(alpha + i).loadUnaligned(as: UInt64.self) != 0 {
                let d = UnsafeMutableRawPointer(dst + 4 &* i)
                let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
                d.storeBytes(of: replace8(d.loadUnaligned(as: Pixels8.self), s, byteLanes(alpha + i)), as: Pixels8.self)
            }
            i &+= 8
        }
        if i < count { replaceReference(dst: dst + 4 * i, src: src + 4 * i, alpha: alpha + i, count: count - i) }
    }

    /// SIMD `replaceConstantReference`; at alpha 255 a copy.
    static func replaceConstant(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>, alpha: UInt8, count: Int) {
        guard alpha != 0, count > 0 else { return }
        if alpha == 255 {
            UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count * 4)
            return
        }
        let a = Pixels8(repeating: UInt32(alpha))
        var i = 0
        while i &+ 8 <= count {
            let d = UnsafeMutableRawPointer(dst + 4 &* i)
            let s = UnsafeRawPointer(src + 4 &* i).loadUnaligned(as: Pixels8.self)
            d.storeBytes(of: replace8(d.loadUnaligned(as: Pixels8.self), s, a), as: Pixels8.self)
            i &+= 8
        }
        if i < count { replaceConstantReference(dst: dst + 4 * i, src: src + 4 * i, alpha: alpha, count: count - i) }
    }
}
