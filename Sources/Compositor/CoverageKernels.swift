#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif

/// Coverage of a `CoverageShape` over runs of target pixels.
///
/// `coverageRow` is the kernel the rasterizer calls (Float, one row span at a
/// time, an axis-aligned fast path that evaluates the vertical slab once per
/// row); `referenceCoverage` is the plain Double formula it must agree with
/// (tests compare them). A SIMD version slots in behind `coverageRow`.
enum CoverageKernels {
    /// Writes the coverage (0...1) of pixels `x0 ..< x0 + count` on row `y` to `out[0 ..< count]`.
    ///
    /// Two passes: a branch-free pass computing the slab product for every pixel
    /// (written so LLVM vectorizes it: Float counters instead of `Int -> Float`
    /// conversions, selects instead of branches), then the corner zones only,
    /// found per row analytically (`cornerSegments`), for the arc ramp.
    static func coverageRow(
        _ s: CoverageShape, y: Int, x0: Int, count: Int,
        into out: UnsafeMutablePointer<Float>
    ) {
        guard count > 0 else { return }
        // Row constants: u = ia * x + rowU, v = ib * x + rowV, in Double so
        // large translations keep their precision.
        let rowU = Float(s.inverse.c * Double(y) + s.inverse.tx)
        let rowV = Float(s.inverse.d * Double(y) + s.inverse.ty)
        let ia = s.ia
        let ib = s.ib
        let base = Float(x0)
        let halfW = s.halfWidth
        let pxU = s.pixelsPerU
        let widthPx = s.widthInPixels
        if s.isAxisAligned {
            let cv = clamp01(min(0.5 + (s.halfHeight - abs(rowV)) * s.pixelsPerV, s.heightInPixels))
            for i in 0 ..< count {
                let u = ia * (base + Float(Int32(truncatingIfNeeded: i))) + rowU
                out[i] = clamp01(min(0.5 + (halfW - abs(u)) * pxU, widthPx)) * cv
            }
        } else {
            let halfH = s.halfHeight
            let pxV = s.pixelsPerV
            let heightPx = s.heightInPixels
            for i in 0 ..< count {
                let xf = base + Float(Int32(truncatingIfNeeded: i))
                let u = ia * xf + rowU
                let v = ib * xf + rowV
                out[i] =
                    clamp01(min(0.5 + (halfW - abs(u)) * pxU, widthPx))
                    * clamp01(min(0.5 + (halfH - abs(v)) * pxV, heightPx))
            }
        }
        guard s.radius > 0 else { return }
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        cornerSegments(s, y: y, lower: x0, upper: x0 + count) { a, b in
            var x = a
            while x &+ 8 <= b {
                let xf = Float(Int32(truncatingIfNeeded: x)) + iota
                let ramp = cornerRamp8(s, u: ia * xf + rowU, v: ib * xf + rowV)
                let slot = UnsafeMutableRawPointer(out + (x - x0))
                let current = slot.loadUnaligned(as: SIMD8<Float>.self)
                slot.storeBytes(of: current.replacing(with: ramp, where: ramp .< current), as: SIMD8<Float>.self)
                x &+= 8
            }
            #if SHIFTRENDER_AVX2
            // The last pixels of the segment as one more vector, its lanes past `b` neither read nor written
            // (`vmaskmovps`): the scalar loop's `cornerRamp` paid two divides and a square root a pixel.
            if x < b {
                let xf = Float(Int32(truncatingIfNeeded: x)) + iota
                let ramp = cornerRamp8(s, u: ia * xf + rowU, v: ib * xf + rowV)
                let inSegment = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: b &- x))
                let mask = unsafeBitCast(SIMD8<Int32>(repeating: 0).replacing(with: -1, where: inSegment), to: __m256i.self)
                let slot = out + (x - x0)
                let current = _mm256_maskload_ps(slot, mask)
                _mm256_maskstore_ps(slot, mask, current.replacing(with: ramp, where: ramp .< current))
            }
            #else
            for x in x ..< b {
                let xf = Float(x)
                let u = ia * xf + rowU
                let v = ib * xf + rowV
                let i = x - x0
                out[i] = min(out[i], cornerRamp(s, u: u, v: v))
            }
            #endif
        }
    }

    /// Calls `body(a, b)` for the runs `a ..< b` within `lower ..< upper` of row
    /// `y` that may lie in a corner zone (`|u| > halfWidth - r` and
    /// `|v| > halfHeight - r`): the row minus the two slabs' inner intervals,
    /// widened by a pixel so rounding cannot drop a pixel. Extra pixels are harmless
    /// (`cornerRamp` returns 1 outside the zones).
    static func cornerSegments(_ s: CoverageShape, y: Int, lower: Int, upper: Int, _ body: (Int, Int) -> Void) {
        let t = s.inverse
        let yd = Double(y)
        // Pixel-index intervals where |u| <= innerW (resp. |v| <= innerH), shrunk by one pixel.
        func inner(_ slope: Double, _ offset: Double, _ limit: Double) -> (Int, Int) {
            if abs(slope) < 1e-12 { return abs(offset) <= limit ? (Int.min / 4, Int.max / 4) : (0, 0) }
            let a = (-limit - offset) / slope
            let b = (limit - offset) / slope
            let lo = clampedIndex(min(a, b).rounded(.up)) + 1
            let hi = clampedIndex(max(a, b).rounded(.down)) - 1
            return lo <= hi ? (lo, hi + 1) : (0, 0)
        }
        let iu = inner(t.a, t.c * yd + t.tx, Double(s.innerHalfWidth))
        let iv = inner(t.b, t.d * yd + t.ty, Double(s.innerHalfHeight))
        // Visit [lower, upper) minus iu minus iv (each half-open, possibly empty); no allocation.
        var first = iu
        var second = iv
        if first.0 >= first.1 {
            first = second
            second = (0, 0)
        }
        if second.0 < second.1 {
            if second.0 < first.0 { swap(&first, &second) }
            if second.0 <= first.1 {
                first.1 = max(first.1, second.1)
                second = (0, 0)
            }
        }
        var start = lower
        for (a, b) in [first, second] where a < b {
            if min(a, upper) > start { body(start, min(a, upper)) }
            start = max(start, b)
        }
        if upper > start { body(start, upper) }
    }

    /// Coverage at centred local coordinates `(u, v)` (Float, the inner-loop formula).
    @inline(__always)
    static func coverage(_ s: CoverageShape, u: Float, v: Float) -> Float {
        let au = abs(u)
        let av = abs(v)
        let cu = clamp01(min(0.5 + (s.halfWidth - au) * s.pixelsPerU, s.widthInPixels))
        let cv = clamp01(min(0.5 + (s.halfHeight - av) * s.pixelsPerV, s.heightInPixels))
        var c = cu * cv
        if s.radius > 0 && au > s.innerHalfWidth && av > s.innerHalfHeight {
            c = min(c, cornerRamp(s, u: u, v: v))
        }
        return c
    }

    /// Ramp over the pixel distance to the corner arc; only meaningful in a corner zone.
    @inline(__always)
    static func cornerRamp(_ s: CoverageShape, u: Float, v: Float) -> Float {
        let qx = abs(u) - s.innerHalfWidth
        let qy = abs(v) - s.innerHalfHeight
        guard qx > 0, qy > 0 else { return 1 }
        let len = (qx * qx + qy * qy).squareRoot()
        // Outward normal of the arc in local space, signed by quadrant.
        let nu = (u < 0 ? -qx : qx) / len
        let nv = (v < 0 ? -qy : qy) / len
        // Its gradient in target pixels: d(local)/d(pixel) is the inverse's linear part.
        let gx = nu * s.ia + nv * s.ib
        let gy = nu * s.ic + nv * s.id
        let distance = (len - s.radius) / (gx * gx + gy * gy).squareRoot()
        return clamp01(0.5 - distance)
    }

    /// Eight lanes of `cornerRamp`, the same operations in the same order (so the same bits: a test
    /// compares them lane by lane). The corner rows of rounded items spent 4% of the benchmark plan's
    /// time in the scalar loop (benchmarks/RESULTS.md).
    @inline(always)
    static func cornerRamp8(_ s: CoverageShape, u: SIMD8<Float>, v: SIMD8<Float>) -> SIMD8<Float> {
        let zero = SIMD8<Float>(repeating: 0)
        let qx = abs8(u) - s.innerHalfWidth
        let qy = abs8(v) - s.innerHalfHeight
        let inZone = (qx .> zero) .& (qy .> zero)
        let len = ShadowKernels.squareRoot8(qx * qx + qy * qy)
        let nu = qx.replacing(with: -qx, where: u .< zero) / len
        let nv = qy.replacing(with: -qy, where: v .< zero) / len
        let gx = nu * s.ia + nv * s.ib
        let gy = nu * s.ic + nv * s.id
        let distance = (len - s.radius) / ShadowKernels.squareRoot8(gx * gx + gy * gy)
        let ramp = 0.5 - distance
        // `clamp01` lane by lane: NaN and below 0 to 0, 1 and above to 1.
        var clamped = ramp.replacing(with: 1, where: .!(ramp .< 1))
        clamped = clamped.replacing(with: 0, where: .!(ramp .> zero))
        return clamped.replacing(with: 1, where: .!inZone)
    }

    /// `abs` lane by lane (the sign bit cleared, as `abs` of a Float does).
    @inline(__always)
    private static func abs8(_ x: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }

    /// Reference: the same coverage model evaluated in Double at pixel (x, y), no shortcuts.
    static func referenceCoverage(_ s: CoverageShape, x: Int, y: Int) -> Double {
        let t = s.inverse
        let u = t.a * Double(x) + t.c * Double(y) + t.tx
        let v = t.b * Double(x) + t.d * Double(y) + t.ty
        func clamp(_ v: Double) -> Double { v > 0 ? (v < 1 ? v : 1) : 0 }
        let halfW = Double(s.halfWidth)
        let halfH = Double(s.halfHeight)
        let r = Double(s.radius)
        let au = abs(u)
        let av = abs(v)
        let cu = clamp(min(0.5 + (halfW - au) * Double(s.pixelsPerU), Double(s.widthInPixels)))
        let cv = clamp(min(0.5 + (halfH - av) * Double(s.pixelsPerV), Double(s.heightInPixels)))
        var c = cu * cv
        let qx = au - (halfW - r)
        let qy = av - (halfH - r)
        if r > 0 && qx > 0 && qy > 0 {
            let len = (qx * qx + qy * qy).squareRoot()
            let nu = (u < 0 ? -qx : qx) / len
            let nv = (v < 0 ? -qy : qy) / len
            let gx = nu * t.a + nv * t.b
            let gy = nu * t.c + nv * t.d
            c = min(c, clamp(0.5 - (len - r) / (gx * gx + gy * gy).squareRoot()))
        }
        return c
    }

    /// `out[i] *= factor[i]`: applies one clip's coverage.
    @inline(__always)
    static func multiply(_ out: UnsafeMutablePointer<Float>, by factor: UnsafePointer<Float>, count: Int) {
        for i in 0 ..< count { out[i] *= factor[i] }
    }

    /// Coverage times opacity, quantized to 8-bit alpha (round to nearest, NaN -> 0).
    /// Returns the sub-range `lower ..< upper` of `0 ..< count` with non-zero alpha.
    static func quantize(
        _ coverage: UnsafePointer<Float>, opacity: Float, count: Int,
        into alpha: UnsafeMutablePointer<UInt8>
    ) -> (lower: Int, upper: Int) {
        let scale = opacity * 255
        for i in 0 ..< count {
            let c = coverage[i] * scale
            alpha[i] = roundedByte(c > 0 ? (c < 255 ? c : 255) : 0)
        }
        return nonZero(UnsafePointer(alpha), 0, count)
    }

    /// `alpha[lower ..< upper]` without its runs of zeros at either end (empty, at `upper`, when all are zero):
    /// eight bytes a step, then one. A shadow's or a soft edge's runs start and end in long stretches of zeros.
    @inline(__always)
    static func nonZero(_ alpha: UnsafePointer<UInt8>, _ lower: Int, _ upper: Int) -> (lower: Int, upper: Int) {
        var lower = lower
        var upper = upper
        while lower &+ 8 <= upper && UnsafeRawPointer(alpha + lower).loadUnaligned(as: UInt64.self) == 0 { lower &+= 8 }
        while lower < upper && alpha[lower] == 0 { lower &+= 1 }
        while upper &- 8 >= lower && UnsafeRawPointer(alpha + (upper &- 8)).loadUnaligned(as: UInt64.self) == 0 { upper &-= 8 }
        while upper > lower && alpha[upper &- 1] == 0 { upper &-= 1 }
        return lower < upper ? (lower, upper) : (upper, upper)
    }
}
