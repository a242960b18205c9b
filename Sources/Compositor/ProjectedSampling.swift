import Primitives

/// Perspective-correct bilinear sampling of a projected item's plane layer
/// (`PlaneLayer`), eight pixels at a time, with a per-pixel mip level.
///
/// Per pixel (index `(x, y)`), with `(U, V, W) = (x, y, 1) * map` (`map`:
/// target pixel index -> base-level texel coordinates, texel centres at
/// integers, the +0.5 folded in):
/// 1. `W` is `1 / W'` of the forward projection: the pixel sees the plane in
///    front of the eye only when `0 < W <= 1 / Homography.nearW`; otherwise it
///    is dead (alpha 0).
/// 2. `s = U / W`, `t = V / W` (the perspective divide); a pixel outside the
///    layer (`s` or `t` beyond the outer texel edges) is dead too.
/// 3. Texels per pixel per axis from the map's Jacobian at the pixel,
///    `ds/dx = (m11 - s m13) / W`, `ds/dy = (m21 - s m23) / W` (likewise `t`
///    with the second column): level `floor(log2(|grad s|))` across, `floor(log2(|grad t|))`
///    down (`MipChain`'s rule per axis, per pixel), clamped to the levels built.
/// 4. Coordinates on that level, `(s + 0.5) / 2^l - 0.5` (each level texel
///    averages `2^l` base texels), then `Sampling`'s integer bilinear model.
///
/// The kernel is a SIMD coordinate pass (steps 1-4 for eight lanes, Float,
/// from Double block origins so precision does not depend on the run's start)
/// writing offsets, level indices and weights, then a gather pass (two 64-bit
/// loads per pixel from the pixel's level, three lerps), as `Sampling`'s
/// rotated path. NaN and infinities never reach an integer: `axis8` clamps
/// (NaN to 0), levels of a NaN scale are 0, and such pixels are dead.
/// `referencePixel` is the whole pixel in Double; tests compare them.
enum ProjectedSampling {
    /// The map, the layer's size and its level table (see `PlaneLayer`).
    struct Texels: @unchecked Sendable {
        let map: Homography
        let f11: Float, f12: Float, f13: Float, f21: Float, f22: Float, f23: Float
        let width: Int, height: Int
        let maxLevelX: Int, maxLevelY: Int
        /// `(maxLevelX + 1) * (maxLevelY + 1)` level textures' first texel and row
        /// bytes, level `(lx, ly)` at `lx * (maxLevelY + 1) + ly`.
        let levelBases: UnsafePointer<UnsafeRawPointer>
        let levelRowBytes: UnsafePointer<Int>

        init(
            map: Homography, width: Int, height: Int, maxLevelX: Int, maxLevelY: Int,
            levelBases: UnsafePointer<UnsafeRawPointer>, levelRowBytes: UnsafePointer<Int>
        ) {
            self.map = map
            f11 = Float(map.m11)
            f12 = Float(map.m12)
            f13 = Float(map.m13)
            f21 = Float(map.m21)
            f22 = Float(map.m22)
            f23 = Float(map.m23)
            self.width = width
            self.height = height
            self.maxLevelX = maxLevelX
            self.maxLevelY = maxLevelY
            self.levelBases = levelBases
            self.levelRowBytes = levelRowBytes
        }
    }

    static let farW = Float(1 / 1e-6)

    /// Steps 1-4 for pixels `x0 ..< x0 + count` of row `y`, eight at a time: writes
    /// `8 * ceil(count / 8)` entries of texel byte offsets, level indices, weights
    /// and `live` (1 for a pixel that samples the layer, 0 for a dead one).
    static func coordinates(
        _ p: Texels, y: Int, x0: Int, count: Int,
        offsets: UnsafeMutablePointer<Int32>, levels: UnsafeMutablePointer<Int32>,
        weightsX: UnsafeMutablePointer<UInt32>, weightsY: UnsafeMutablePointer<UInt32>,
        live: UnsafeMutablePointer<Float>
    ) {
        let m = p.map
        let yd = Double(y)
        let rowU = m.m21 * yd + m.m31
        let rowV = m.m22 * yd + m.m32
        let rowW = m.m23 * yd + m.m33
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let farW = SIMD8<Float>(repeating: Self.farW)
        let sMax = SIMD8<Float>(repeating: Float(p.width) - 0.5)
        let tMax = SIMD8<Float>(repeating: Float(p.height) - 0.5)
        let baseW = SIMD8<Float>(repeating: Float(p.width))
        let baseH = SIMD8<Float>(repeating: Float(p.height))
        let maxLx = SIMD8<Int32>(repeating: Int32(p.maxLevelX))
        let maxLy = SIMD8<Int32>(repeating: Int32(p.maxLevelY))
        let levelsY = SIMD8<Int32>(repeating: Int32(p.maxLevelY + 1))
        var i = 0
        while i < count {
            let xd = Double(x0 &+ i)
            let u = SIMD8<Float>(repeating: Float(m.m11 * xd + rowU)) + p.f11 * iota
            let v = SIMD8<Float>(repeating: Float(m.m12 * xd + rowV)) + p.f12 * iota
            let w = SIMD8<Float>(repeating: Float(m.m13 * xd + rowW)) + p.f13 * iota
            let inv = 1 / w
            let s = u * inv
            let t = v * inv
            let sx = (p.f11 - s * p.f13) * inv
            let sy = (p.f21 - s * p.f23) * inv
            let tx = (p.f12 - t * p.f13) * inv
            let ty = (p.f22 - t * p.f23) * inv
            let lx = level8((sx * sx + sy * sy).squareRoot(), maxLx)
            let ly = level8((tx * tx + ty * ty).squareRoot(), maxLy)
            let kx = unsafeBitCast((127 &- lx) &<< 23, to: SIMD8<Float>.self)  // 2^-lx
            let ky = unsafeBitCast((127 &- ly) &<< 23, to: SIMD8<Float>.self)
            let levelW = ceil8(baseW * kx)
            let levelH = ceil8(baseH * ky)
            let (xi, wx) = axis8((s + 0.5) * kx - 0.5, levelW - 1)
            let (yi, wy) = axis8((t + 0.5) * ky - 0.5, levelH - 1)
            let rowBytes = (integer8(levelW) &+ 1) &<< 2
            let alive = (w .> 0) .& (w .<= farW) .& (s .>= -0.5) .& (s .<= sMax) .& (t .>= -0.5) .& (t .<= tMax)
            UnsafeMutableRawPointer(offsets + i).storeBytes(of: yi &* rowBytes &+ (xi &<< 2), as: SIMD8<Int32>.self)
            UnsafeMutableRawPointer(levels + i).storeBytes(of: lx &* levelsY &+ ly, as: SIMD8<Int32>.self)
            UnsafeMutableRawPointer(weightsX + i).storeBytes(of: wx, as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(weightsY + i).storeBytes(of: wy, as: SIMD8<UInt32>.self)
            let one = SIMD8<Float>(repeating: 1)
            UnsafeMutableRawPointer(live + i).storeBytes(of: one.replacing(with: 0, where: .!alive), as: SIMD8<Float>.self)
            i &+= 8
        }
    }

    /// Bilinear samples of `8 * ceil(count / 8)` pixels from `coordinates`' output, into `out` (RGBA8).
    static func gather(
        _ p: Texels, offsets: UnsafePointer<Int32>, levels: UnsafePointer<Int32>,
        weightsX: UnsafePointer<UInt32>, weightsY: UnsafePointer<UInt32>, count: Int,
        into out: UnsafeMutableRawPointer
    ) {
        var i = 0
        while i < count {
            var top = SIMD8<UInt64>()
            var bottom = SIMD8<UInt64>()
            for j in 0 ..< 8 {
                let level = Int(levels[i &+ j])
                let texel = p.levelBases[level] + Int(offsets[i &+ j])
                top[j] = texel.loadUnaligned(as: UInt64.self)
                bottom[j] = (texel + p.levelRowBytes[level]).loadUnaligned(as: UInt64.self)
            }
            let upper = unsafeBitCast(top, to: SIMD16<UInt32>.self)
            let lower = unsafeBitCast(bottom, to: SIMD16<UInt32>.self)
            let wy = UnsafeRawPointer(weightsY + i).loadUnaligned(as: Pixels8.self)
            let wx = UnsafeRawPointer(weightsX + i).loadUnaligned(as: Pixels8.self)
            let left = lerp(upper.evenHalf, lower.evenHalf, wy)
            let right = lerp(upper.oddHalf, lower.oddHalf, wy)
            out.storeBytes(of: lerp(left, right, wx), toByteOffset: 4 &* i, as: Pixels8.self)
            i &+= 8
        }
    }

    /// `floor(log2(v))` for `v >= 2` from the exponent bits, else 0 (NaN too), at most `limit`.
    @inline(__always)
    static func level8(_ v: SIMD8<Float>, _ limit: SIMD8<Int32>) -> SIMD8<Int32> {
        let exponent = (unsafeBitCast(v, to: SIMD8<Int32>.self) &>> 23) &- 127
        let level = exponent.replacing(with: 0, where: .!(v .>= 2))
        return level.replacing(with: limit, where: level .> limit)
    }

    /// Round up (values below 2^22).
    @inline(__always)
    static func ceil8(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let r = (v + Sampling.magic) - Sampling.magic
        return r.replacing(with: r + 1, where: r .< v)
    }

    /// An integral float below 2^22 as Int32.
    @inline(__always)
    static func integer8(_ v: SIMD8<Float>) -> SIMD8<Int32> {
        unsafeBitCast(v + Sampling.magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
    }

    /// `Sampling.axis8` with a limit per lane: clamp to `0 ... limit` (NaN to 0), index and 1/256 weight.
    @inline(always)
    static func axis8(_ v: SIMD8<Float>, _ limit: SIMD8<Float>) -> (SIMD8<Int32>, SIMD8<UInt32>) {
        var c = v.replacing(with: 0, where: .!(v .> 0))
        c = c.replacing(with: limit, where: c .> limit)
        let r = (c + Sampling.magic) - Sampling.magic
        let f = r.replacing(with: r - 1, where: r .> c)
        let index = unsafeBitCast(f + Sampling.magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let weight = unsafeBitCast((c - f) * 256 + Sampling.magic, to: SIMD8<UInt32>.self) &- 0x4B40_0000
        // As `Sampling.axis`: 256 becomes the next texel at 0.
        return (index &+ unsafeBitCast(weight &>> 8, to: SIMD8<Int32>.self), weight & 0xFF)
    }

    // MARK: Reference

    /// The whole pixel in Double: whether it samples the layer, the premultiplied
    /// sample (`Sampling`'s integer model on the chosen level), the level, and
    /// `nearBoundary` when the Float kernel may legitimately decide otherwise
    /// (a scale within 0.1 % of a power of two, where the level changes, or a
    /// coordinate within 1e-3 texel of the layer's edge).
    static func referencePixel(_ p: Texels, x: Int, y: Int) -> (
        live: Bool, sample: UInt32, level: (x: Int, y: Int), nearBoundary: Bool
    ) {
        let m = p.map
        let h = m.homogeneous(Point(x: Double(x), y: Double(y)))
        let front = h.w > 0 && h.w <= 1 / 1e-6
        let s = h.x / h.w
        let t = h.y / h.w
        let inside = s >= -0.5 && s <= Double(p.width) - 0.5 && t >= -0.5 && t <= Double(p.height) - 0.5
        var near = abs(s + 0.5) < 1e-3 || abs(s - Double(p.width) + 0.5) < 1e-3
        near = near || abs(t + 0.5) < 1e-3 || abs(t - Double(p.height) + 0.5) < 1e-3
        guard front, inside else { return (false, 0, (0, 0), near) }
        guard let j = m.derivatives(at: Point(x: Double(x), y: Double(y))) else { return (false, 0, (0, 0), near) }
        let gradS = (pow2(j.xByX) + pow2(j.xByY)).squareRoot()
        let gradT = (pow2(j.yByX) + pow2(j.yByY)).squareRoot()
        func level(_ g: Double, _ limit: Int) -> (Int, Bool) {
            guard g >= 2 else { return (0, abs(g - 2) < 2e-3) }
            let l = Int(log2(g).rounded(.down))
            let fraction = log2(g) - Double(l)
            return (min(l, limit), fraction < 1.5e-3 || fraction > 1 - 1.5e-3)
        }
        let (lx, nearX) = level(gradS, p.maxLevelX)
        let (ly, nearY) = level(gradT, p.maxLevelY)
        var w = p.width
        var hgt = p.height
        for _ in 0 ..< lx { w = (w + 1) / 2 }
        for _ in 0 ..< ly { hgt = (hgt + 1) / 2 }
        let sl = (s + 0.5) / Double(1 << lx) - 0.5
        let tl = (t + 0.5) / Double(1 << ly) - 0.5
        func split(_ v: Double, _ size: Int) -> (Int, UInt32) {
            let c = min(max(v, 0), Double(size - 1))
            let f = c.rounded(.down)
            return (Int(f), UInt32(((c - f) * 256).rounded(.toNearestOrEven)))
        }
        let (xi, wx) = split(sl, w)
        let (yi, wy) = split(tl, hgt)
        let index = lx * (p.maxLevelY + 1) + ly
        let base = p.levelBases[index]
        let rowBytes = p.levelRowBytes[index]
        func texel(_ i: Int, _ j: Int) -> UInt32 { base.load(fromByteOffset: j * rowBytes + i * 4, as: UInt32.self) }
        let left = lerp(texel(xi, yi), texel(xi, yi + 1), wy)
        let right = lerp(texel(xi + 1, yi), texel(xi + 1, yi + 1), wy)
        return (true, lerp(left, right, wx), (lx, ly), near || nearX || nearY)
    }

    @inline(__always)
    private static func pow2(_ v: Double) -> Double { v * v }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
