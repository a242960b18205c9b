#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif

/// Eight-lane Float evaluation of `ShadowShape` values over row spans.
///
/// Row kernel: for an axis-aligned shadow the blurred horizontal slab
/// `Phi(u; halfWidth)` is tabulated once per item and band (`prepareColumns`)
/// and the vertical one is a per-row constant, so outside the corner zones a
/// pixel costs one multiply; only the zone columns of zone rows (found
/// analytically) run the corner integral. On such a row `|v|` is one value, so
/// the integral's sample rows and Gaussian masses are too (`CornerRows`, once
/// per row): a zone pixel then costs two `erf8` a sample instead of three (the
/// mass) plus a square root, and one when the shape is wide enough that the
/// rows' far sides are 1 in `erf` (`ShadowShape.farSideSaturates`). The
/// per-row values are the lanes the per-pixel form computed. Blurred enough, a shadow's zone pixels take
/// their corrections from a grid of every other pixel of every other row instead (`ShadowCornerGrid`,
/// `gridCorrections`): a quarter of the integrals. Rotated shadows evaluate both slabs per pixel and
/// the integral for any eight-pixel group that touches a zone. On AVX-512 builds the zone loop takes
/// sixteen pixels a step (`erfLanes` and `correction8` are generic over `FloatLanes`, the same lanes):
/// the corner integrals are FMA-bound, and 512-bit FMAs issue as often as 256-bit ones.
/// Loops store whole vectors, so `out` must have 7 spare entries past `count`
/// (`RowScratch` rows do).
enum ShadowKernels {
    /// Abramowitz-Stegun 7.1.27: `1 - 1 / (1 + a1 x + a2 x^2 + a3 x^3 + a4 x^4)^4`, odd-extended.
    /// The reciprocal is three Newton steps from a bit-pattern estimate (relative error near 1e-7, far
    /// below the formula's 5e-4), not a divide: more instructions, but the corner integrals were bound by
    /// the divider (one `vdivps` per eight pixels every 14 cycles on Haswell), and the bench scene's
    /// frames came about 7% faster (benchmarks/RESULTS.md). `|x|` is capped at 6, where the formula is
    /// already 1 in Float, so that `t^4` stays finite and the estimate valid.
    ///
    /// `@inline(always)`, not `@inline(__always)`: Swift 6.3 left the latter a call from every corner
    /// loop (the vector passed as two halves, the constants reloaded, `vzeroupper`); inlined, with FMA,
    /// the whole benchmark plan runs 5% fewer instructions (benchmarks/RESULTS.md).
    @inline(always)
    static func erf8(_ x: SIMD8<Float>) -> SIMD8<Float> { erfLanes(x) }

    /// `erf8` at any width the build has (`FloatLanes`): the same lanes.
    @inline(always)
    static func erfLanes<V: FloatLanes>(_ x: V) -> V {
        let zero = V(repeating: 0)
        var a = V.choose(x, lessThan: zero, -x, x)
        let six = V(repeating: 6)
        a = V.choose(a, lessThan: six, a, six)
        var p = V.mulAdd(a, V(repeating: 0.078108), V(repeating: 0.000972))
        p = V.mulAdd(a, p, V(repeating: 0.230389))
        p = V.mulAdd(a, p, V(repeating: 0.278393))
        let t = V.mulAdd(a, p, V(repeating: 1))
        let t2 = t * t
        let d = t2 * t2
        var y = d.reciprocalSeed
        let two = V(repeating: 2)
        let negD = -d
        y = y * V.mulAdd(negD, y, two)
        y = y * V.mulAdd(negD, y, two)
        y = y * V.mulAdd(negD, y, two)
        let r = 1 - y
        return V.choose(x, lessThan: zero, -r, r)
    }

    /// `x.squareRoot()` in one instruction where the build has AVX: Swift 6.3 compiles the SIMD8 method
    /// to eight calls to libm's `sqrtf`. Both are correctly rounded, so the same bits.
    @inline(always)
    static func squareRoot8(_ x: SIMD8<Float>) -> SIMD8<Float> {
        #if SHIFTRENDER_AVX2
        _mm256_sqrt_ps(x)  // `__m256` is `SIMD8<Float>` to Swift
        #else
        x.squareRoot()
        #endif
    }

    @inline(always)
    static func phi8(_ p: SIMD8<Float>, _ h: SIMD8<Float>, _ k: Float) -> SIMD8<Float> { phiLanes(p, h, SIMD8(repeating: k)) }

    /// `phi8` at any width the build has, `k` splat.
    @inline(always)
    static func phiLanes<V: FloatLanes>(_ p: V, _ h: V, _ k: V) -> V {
        0.5 * (erfLanes((h - p) * k) + erfLanes((h + p) * k))
    }

    /// The corner integral's samples for `|v| = av`, in order: each sub-interval's Gaussian mass and the
    /// half-width of the shape's row at its middle (both sides of a short shape). The one definition the
    /// per-pixel and the per-row forms share, so they compute the same lanes.
    @inline(__always)
    static func forEachCornerSample(_ s: ShadowShape, av: SIMD8<Float>, _ body: (_ mass: SIMD8<Float>, _ row: SIMD8<Float>) -> Void) {
        let hh = s.halfHeight
        let r = s.radius
        let start = hh - r
        let k = s.k
        let hwMinusR = SIMD8<Float>(repeating: s.halfWidth - r)
        let n = ShadowShape.cornerSamples
        for side in 0 ..< (s.bothSides ? 2 : 1) {
            let centre = side == 0 ? av : -av
            // `replacing` rather than `pointwiseMax/Min`, which compiled to out-of-line generic calls.
            var lo = centre - s.reach
            lo = lo.replacing(with: start, where: lo .< start)
            var hi = centre + s.reach
            hi = hi.replacing(with: hh, where: hi .> hh)
            hi = hi.replacing(with: lo, where: hi .< lo)
            let step = (hi - lo) * (1 / Float(n))
            var previous = erf8((lo - centre) * k)
            for j in 0 ..< n {
                let next = erf8((lo + step * Float(j + 1) - centre) * k)
                let mass = 0.5 * (next - previous)
                previous = next
                let q = lo + step * (Float(j) + 0.5) - start
                let square = r * r - q * q
                body(mass, hwMinusR + squareRoot8(square.replacing(with: 0, where: square .< 0)))
            }
        }
    }

    /// The corner correction for `|u| = au`, `|v| = av`, zero outside the zones.
    @inline(always)
    static func correction8(_ s: ShadowShape, au: SIMD8<Float>, av: SIMD8<Float>, phiFull: SIMD8<Float>) -> SIMD8<Float> {
        var total = SIMD8<Float>(repeating: 0)
        forEachCornerSample(s, av: av) { mass, row in total += mass * (phiFull - phi8(au, row, s.k)) }
        return total.replacing(with: 0, where: .!((au .> s.zoneU) .& (av .> s.zoneV)))
    }

    /// Most sample rows `cornerRows` writes: both sides of a short shape.
    static let maxCornerRows = 2 * ShadowShape.cornerSamples

    /// `correction8`'s per-`av` part for a row: the samples of a splat of `av`. Writes up to `maxCornerRows`
    /// masses and rows; returns how many.
    static func cornerRows(
        _ s: ShadowShape, av: Float, rows: UnsafeMutablePointer<SIMD8<Float>>, masses: UnsafeMutablePointer<SIMD8<Float>>
    ) -> Int {
        var count = 0
        forEachCornerSample(s, av: SIMD8(repeating: av)) { mass, row in
            masses[count] = mass
            rows[count] = row
            count += 1
        }
        return count
    }

    /// `correction8` for a row whose `|v|` made `rows`: the same sum in the same order (the same bits), or,
    /// when the shape's far sides saturate (`ShadowShape.farSideSaturates`), without their `erf` terms:
    /// `Phi(u; row) = (erf((row - u) k) + 1) / 2` then, within 1e-4 of the full form. At any width the
    /// build has (`rows` and `masses` are splats, widened to it).
    @inline(always)
    static func correction8<V: FloatLanes>(_ s: ShadowShape, rows: UnsafePointer<SIMD8<Float>>, masses: UnsafePointer<SIMD8<Float>>,
                                           count: Int, au: V, av: V, phiFull: V) -> V {
        var total = V(repeating: 0)
        let k = V.splat(s.k)
        if s.farSideSaturates {
            let base = phiFull - 0.5
            for j in 0 ..< count {
                total += V.widened(masses[j]) * (base - 0.5 * erfLanes((V.widened(rows[j]) - au) * k))
            }
        } else {
            for j in 0 ..< count {
                total += V.widened(masses[j]) * (phiFull - phiLanes(au, V.widened(rows[j]), k))
            }
        }
        let zero = V(repeating: 0)
        return V.choose(V.splat(s.zoneU), lessThan: au, V.choose(V.splat(s.zoneV), lessThan: av, total, zero), zero)
    }

    /// `Phi(|u|; halfWidth)` for target columns `x0 ..< x0 + count` of an axis-aligned shadow.
    static func prepareColumns(_ s: ShadowShape, x0: Int, count: Int, into columns: UnsafeMutablePointer<Float>) {
        let rowU = Float(s.inverse.tx)
        let ia = s.ia
        let hw = SIMD8<Float>(repeating: s.halfWidth)
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        while i < count {
            let u = (iota + Float(Int32(truncatingIfNeeded: x0 &+ i))) * ia + rowU
            let au = u.replacing(with: -u, where: u .< 0)
            UnsafeMutableRawPointer(columns + i).storeBytes(of: phi8(au, hw, s.k), as: SIMD8<Float>.self)
            i &+= 8
        }
    }

    /// The corner corrections at target columns `2 i` of row `y` for `i` in `first ... last`, into `grid[i]`
    /// (`ShadowCornerGrid`): the lanes `shadowRow` computes at those pixels, bit for bit (the same `u` and
    /// `|v|`, the horizontal factor from `columns`, `prepareColumns`' output up to column `2 * last`, and
    /// the row's corner samples from `cornerRows`, `samples` of them, or none when the row is outside the
    /// zones). Stores whole vectors past `last` and reads `columns` up to 32 past column `2 * last`.
    static func gridCorrections(
        _ s: ShadowShape, y: Int, from first: Int, through last: Int, columns: UnsafePointer<Float>,
        rows: UnsafePointer<SIMD8<Float>>, masses: UnsafePointer<SIMD8<Float>>, samples: Int, into grid: UnsafeMutablePointer<Float>
    ) {
        guard first <= last else { return }
        let rowU = Float(s.inverse.c * Double(y) + s.inverse.tx)
        let av = abs(Float(s.inverse.d * Double(y) + s.inverse.ty))
        guard av > s.zoneV, samples > 0 else {
            (grid + first).update(repeating: 0, count: last - first + 1)
            return
        }
        @inline(always) func points<V: FloatLanes>(_ i: Int, iota2: V, phiFull: V) {
            let u = (iota2 + V.splat(Float(Int32(truncatingIfNeeded: 2 &* i)))) * V.splat(s.ia) + V.splat(rowU)
            let au = V.choose(u, lessThan: V(repeating: 0), -u, u)
            let c = correction8(s, rows: rows, masses: masses, count: samples, au: au, av: V.splat(av), phiFull: phiFull)
            UnsafeMutableRawPointer(grid + i).storeBytes(of: c, as: V.self)
        }
        let iota2 = SIMD8<Float>(0, 2, 4, 6, 8, 10, 12, 14)
        var i = first
        #if SHIFTRENDER_AVX512
        let iota16 = SIMD16<Float>(lowHalf: iota2, highHalf: iota2 + 16)
        while i &+ 8 <= last {
            let low = UnsafeRawPointer(columns + 2 &* i).loadUnaligned(as: SIMD16<Float>.self).evenHalf
            let high = UnsafeRawPointer(columns + (2 &* i &+ 16)).loadUnaligned(as: SIMD16<Float>.self).evenHalf
            points(i, iota2: iota16, phiFull: SIMD16(lowHalf: low, highHalf: high))
            i &+= 16
        }
        #endif
        while i <= last {
            points(i, iota2: iota2, phiFull: UnsafeRawPointer(columns + 2 &* i).loadUnaligned(as: SIMD16<Float>.self).evenHalf)
            i &+= 8
        }
    }

    /// Shadow values (0...1) of pixels `x0 ..< x0 + count` on row `y`. `columns`
    /// (axis-aligned shadows only) holds `prepareColumns` output indexed by absolute x. `corrections`
    /// (`ShadowCornerGrid`, absolute x): the corner corrections of the row's zone columns, subtracted instead
    /// of worked out per pixel.
    static func shadowRow(
        _ s: ShadowShape, y: Int, x0: Int, count: Int,
        columns: UnsafePointer<Float>?, corrections: UnsafePointer<Float>? = nil, into out: UnsafeMutablePointer<Float>
    ) {
        guard count > 0 else { return }
        let rowU = Float(s.inverse.c * Double(y) + s.inverse.tx)
        let rowV = Float(s.inverse.d * Double(y) + s.inverse.ty)
        let ia = s.ia
        let ib = s.ib
        let k = s.k
        let hw = SIMD8<Float>(repeating: s.halfWidth)
        let hh = SIMD8<Float>(repeating: s.halfHeight)
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        if s.isAxisAligned, let columns {
            let av = SIMD8<Float>(repeating: abs(rowV))
            let phiV = phi8(av, hh, k)
            var i = 0
            while i < count {
                let c = UnsafeRawPointer(columns + x0 + i).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(out + i).storeBytes(of: c * phiV, as: SIMD8<Float>.self)
                i &+= 8
            }
            guard s.radius > 0, abs(rowV) > s.zoneV else { return }
            // Zone columns: the row minus the interval where |u| <= zoneU.
            var lo = -Double.infinity
            var hi = Double.infinity
            CoverageShape.constrain(slope: s.inverse.a, offset: s.inverse.tx, reach: Double(s.zoneU), &lo, &hi)
            let innerLower = lo <= hi ? clampedIndex(lo.rounded(.up)) + 1 : Int.max / 4
            let innerUpper = lo <= hi ? clampedIndex(hi.rounded(.down)) : Int.max / 4
            var first = (x0, min(x0 + count, innerLower))
            var second = (max(x0, innerUpper), x0 + count)
            if let corrections {
                // Segments that overlap or touch (a narrow middle) are one: no column corrected twice.
                if first.0 < first.1 && second.0 < second.1 && second.0 <= first.1 {
                    first = (first.0, second.1)
                    second = (0, 0)
                }
                // Whole vectors; the lanes of the last one past the segment keep their values.
                func subtract(_ a: Int, _ b: Int) {
                    var x = a
                    while x < b {
                        let p = UnsafeMutableRawPointer(out + (x &- x0))
                        let c = UnsafeRawPointer(corrections + x).loadUnaligned(as: SIMD8<Float>.self)
                        let v = p.loadUnaligned(as: SIMD8<Float>.self)
                        let inside = iota .< SIMD8<Float>(repeating: Float(Int32(truncatingIfNeeded: b &- x)))
                        p.storeBytes(of: v.replacing(with: v - c, where: inside), as: SIMD8<Float>.self)
                        x &+= 8
                    }
                }
                // Not a loop over an array of the two: that array was an object set up per row.
                subtract(first.0, first.1)
                subtract(second.0, second.1)
                return
            }
            // Whole-vector stores run up to 7 pixels past a segment: never into the next one
            // (masked lanes outside the zones are left as they are, zone lanes must not be corrected twice).
            if first.0 < first.1 && second.0 < second.1 && second.0 - first.1 < 8 {
                first = (first.0, second.1)
                second = (0, 0)
            }
            withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 2 * maxCornerRows) { buffer in
                let rows = buffer.baseAddress!
                let masses = rows + maxCornerRows
                let samples = cornerRows(s, av: abs(rowV), rows: rows, masses: masses)
                // One vector of zone pixels from `x`: the correction subtracted from the row's values.
                @inline(always) func correct<V: FloatLanes>(_ x: Int, iota: V, av: V) {
                    let u = (iota + V.splat(Float(Int32(truncatingIfNeeded: x)))) * V.splat(ia) + V.splat(rowU)
                    let au = V.choose(u, lessThan: V(repeating: 0), -u, u)
                    let phiFull = UnsafeRawPointer(columns + x).loadUnaligned(as: V.self)
                    let p = UnsafeMutableRawPointer(out + (x - x0))
                    let correction = correction8(s, rows: rows, masses: masses, count: samples, au: au, av: av, phiFull: phiFull)
                    p.storeBytes(of: p.loadUnaligned(as: V.self) - correction, as: V.self)
                }
                for (a, b) in [first, second] where a < b {
                    var x = a
                    #if SHIFTRENDER_AVX512
                    let iota16 = SIMD16<Float>(lowHalf: iota, highHalf: iota + 8)
                    let av16 = SIMD16<Float>(repeating: abs(rowV))
                    while x &+ 16 <= b {
                        correct(x, iota: iota16, av: av16)
                        x &+= 16
                    }
                    #endif
                    while x < b {
                        correct(x, iota: iota, av: av)
                        x &+= 8
                    }
                }
            }
            return
        }
        var i = 0
        while i < count {
            let xf = iota + Float(Int32(truncatingIfNeeded: x0 &+ i))
            let u = xf * ia + rowU
            let v = xf * ib + rowV
            let au = u.replacing(with: -u, where: u .< 0)
            let av = v.replacing(with: -v, where: v .< 0)
            let phiU = phi8(au, hw, k)
            var value = phiU * phi8(av, hh, k)
            if s.radius > 0 && any((au .> s.zoneU) .& (av .> s.zoneV)) {
                value -= correction8(s, au: au, av: av, phiFull: phiU)
            }
            UnsafeMutableRawPointer(out + i).storeBytes(of: value, as: SIMD8<Float>.self)
            i &+= 8
        }
    }
}
