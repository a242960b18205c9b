#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Primitives
import FramePlan

/// A `.gradient` paint prepared for evaluation at target pixel centres
/// (`docs/frame-plan.md`, "Paints", gives the formulas).
///
/// Pixel index `(x, y)` maps, through the item's inverse transform, the unit
/// square of its shape's rectangle and the gradient's own frame, to two
/// numbers affine in the pixel (`u = ua * x + uc * y + ut`, likewise `v`):
/// - axial: `t = u` (the projection on start -> end; `v` unused);
/// - radial: `t = sqrt(u^2 + v^2)` (offsets from the centre over each axis' radius);
/// - conic: `t = atan2(v, u) / 2 pi`, wrapped into `0 ..< 1` (`u`, `v` along
///   and across start -> end in the unit square, so angle 0 points at `end`).
/// Degenerate gradients (a zero start -> end, a zero radius) are `t = 1`
/// everywhere: every coefficient 0, `ut = 1`.
struct GradientGeometry: Sendable {
    enum Kind: Sendable { case axial, radial, conic }
    let kind: Kind
    /// Pixel index to `(u, v)`, in Double (run and row constants, reference).
    let ua: Double, uc: Double, ut: Double
    let va: Double, vc: Double, vt: Double

    /// `a * x + c * y + t` of the pixel index.
    private struct Row {
        var a: Double, c: Double, t: Double
        static func combine(_ p: Row, _ wp: Double, _ q: Row, _ wq: Double) -> Row {
            Row(a: p.a * wp + q.a * wq, c: p.c * wp + q.c * wq, t: p.t * wp + q.t * wq)
        }
    }

    /// Nil for a non-finite or non-invertible transform or an empty rectangle
    /// (the item's `CoverageShape` refuses those too).
    init?(_ paint: GradientPaint, transform: AffineTransform2D, rect: Rect) {
        guard rect.width > 0, rect.height > 0, let inv = transform.inverted else { return nil }
        // Pixel index -> local: the inverse at the pixel centre.
        let lx = (a: inv.a, c: inv.c, t: inv.tx + 0.5 * (inv.a + inv.c))
        let ly = (a: inv.b, c: inv.d, t: inv.ty + 0.5 * (inv.b + inv.d))
        // Local -> unit square of the rect, relative to the start point.
        let sx = (paint.start.x - rect.minX) / rect.width
        let sy = (paint.start.y - rect.minY) / rect.height
        let dx = (paint.end.x - paint.start.x) / rect.width
        let dy = (paint.end.y - paint.start.y) / rect.height
        let qx = Row(a: lx.a / rect.width, c: lx.c / rect.width, t: (lx.t - rect.minX) / rect.width - sx)
        let qy = Row(a: ly.a / rect.height, c: ly.c / rect.height, t: (ly.t - rect.minY) / rect.height - sy)
        let zeroRow = Row(a: 0, c: 0, t: 0)
        let u: Row
        let v: Row
        switch paint.kind {
        case .axial:
            kind = .axial
            let length2 = dx * dx + dy * dy
            if length2 > 0 {
                u = Row.combine(qx, dx / length2, qy, dy / length2)
                v = zeroRow
            } else {
                (u, v) = (Row(a: 0, c: 0, t: 1), zeroRow)
            }
        case .radial:
            kind = .radial
            if dx != 0 && dy != 0 {
                u = Row.combine(qx, 1 / dx, qy, 0)
                v = Row.combine(qx, 0, qy, 1 / dy)
            } else {
                (u, v) = (Row(a: 0, c: 0, t: 1), zeroRow)
            }
        case .conic:
            kind = .conic
            let length = (dx * dx + dy * dy).squareRoot()
            let cx = length > 0 ? dx / length : 1
            let cy = length > 0 ? dy / length : 0
            // Along d and across it (y down: positive towards clockwise).
            u = Row.combine(qx, cx, qy, cy)
            v = Row.combine(qx, -cy, qy, cx)
        }
        (ua, uc, ut) = (u.a, u.c, u.t)
        (va, vc, vt) = (v.a, v.c, v.t)
        guard [ua, uc, ut, va, vc, vt].allSatisfy({ $0.isFinite && abs($0) < 1e15 }) else { return nil }
    }
}

/// A gradient's colour stops in the two forms the kernels read: premultiplied
/// colours on a 0...255 scale in Double with their locations (the reference,
/// `GradientKernels.referenceColor`), and for the SIMD kernel the same stops
/// as a sum of clamped ramps, `c(t) = c0 + sum_i w_i(t) (c[i+1] - c[i])`,
/// `w_i = clamp01((t - l_i) * scale_i + bias_i)`: each segment is a ramp from
/// 0 to 1 over its locations (a hard stop, two equal locations, a step from
/// 0 to 1 at the location), so the sum is the piecewise-linear colour without
/// a search per pixel. Immutable, hence `@unchecked Sendable`.
final class GradientRamp: @unchecked Sendable {
    /// Premultiplied stops, 0...255 per channel, and their locations (clamped to 0...1, never decreasing).
    let colors: [SIMD4<Double>]
    let locations: [Double]
    /// Every stop is opaque.
    let isOpaque: Bool
    /// Segments in the SIMD kernel's layout (`segmentStride` Floats each:
    /// location, scale, bias, unused, then the four channel steps), after the
    /// first colour's four channels.
    let segmentCount: Int
    static let segmentStride = 8
    private let storage: UnsafeMutablePointer<Float>

    var table: UnsafePointer<Float> { UnsafePointer(storage) }

    /// Nil when there is no colour, or every colour is fully transparent.
    init?(_ paint: GradientPaint) {
        guard !paint.colors.isEmpty else { return nil }
        colors = paint.colors.map { c in
            let p = Compositor.premultipliedComponents(c)
            return SIMD4(p.r, p.g, p.b, p.a) * 255
        }
        guard colors.contains(where: { $0.w > 0 }) else { return nil }
        // Locations as the plan's rules have them; anything else (a count that
        // differs, NaN, out of range, decreasing) is made safe, not trusted.
        var locations: [Double] = []
        for i in colors.indices {
            let written = i < paint.locations.count ? paint.locations[i] : Double(i) / Double(max(colors.count - 1, 1))
            let clamped = written > 0 ? min(written, 1) : 0
            locations.append(max(clamped, locations.last ?? 0))
        }
        self.locations = locations
        isOpaque = colors.allSatisfy { $0.w >= 255 }
        segmentCount = colors.count - 1
        storage = .allocate(capacity: 4 + segmentCount * Self.segmentStride)
        for k in 0 ..< 4 { storage[k] = Float(colors[0][k]) }
        for i in 0 ..< segmentCount {
            let s = storage + 4 + i * Self.segmentStride
            let lo = Float(locations[i])
            let width = Double(Float(locations[i + 1])) - Double(lo)
            s[0] = lo
            // A hard stop: (t - l) * 1e30 + 1 is 1 from l on and far below 0 before it.
            s[1] = width > 0 ? Float(1 / width) : 1e30
            s[2] = width > 0 ? 0 : 1
            s[3] = 0
            for k in 0 ..< 4 { s[4 + k] = Float(colors[i + 1][k]) - Float(colors[i][k]) }
        }
    }

    deinit { storage.deallocate() }
}

/// Gradient colours for runs of pixels: `shadeRow` (SIMD, eight pixels per
/// step, Float) and its scalar reference `referencePixel` (Double, the
/// formulas of `docs/frame-plan.md` with a search for the stop), which a test
/// compares on every path (each kind, rotations, hard stops, tails of rows).
/// The output is premultiplied RGBA8 for the blend kernels.
///
/// No lookup table: a 256-entry table would cost one gather per pixel instead
/// of the ramps' few multiply-adds per stop, and blur a hard stop over 1/256
/// of the gradient (four pixels of a 1000-pixel one); evaluating the stops
/// keeps hard stops exact. Cost grows with the stop count (`KernelBenchmark`).
enum GradientKernels {
    // MARK: Scalar reference

    /// `t` at pixel `(x, y)` in Double.
    static func referenceParameter(_ g: GradientGeometry, x: Int, y: Int) -> Double {
        let xd = Double(x)
        let yd = Double(y)
        let u = g.ua * xd + g.uc * yd + g.ut
        let v = g.va * xd + g.vc * yd + g.vt
        switch g.kind {
        case .axial: return u
        case .radial: return (u * u + v * v).squareRoot()
        case .conic:
            let turn = atan2(v, u) / (2 * Double.pi)  // the C library's
            return turn < 0 ? turn + 1 : turn
        }
    }

    /// The colour at `t`: the first stop before the first location, the last
    /// from the last on, else the segment `l[i] <= t < l[i + 1]` interpolated,
    /// premultiplied, rounded to bytes (colour channels at most alpha).
    static func referenceColor(_ ramp: GradientRamp, t: Double) -> SIMD4<UInt8> {
        let c: SIMD4<Double>
        let l = ramp.locations
        if t.isNaN || t < l[0] {
            c = ramp.colors[0]
        } else if t >= l[l.count - 1] {
            c = ramp.colors[l.count - 1]
        } else {
            var i = 0
            while l[i + 1] <= t { i += 1 }
            let w = (t - l[i]) / (l[i + 1] - l[i])
            c = ramp.colors[i] + (ramp.colors[i + 1] - ramp.colors[i]) * w
        }
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 255).rounded()) }
        let a = byte(c.w)
        return SIMD4(min(byte(c.x), a), min(byte(c.y), a), min(byte(c.z), a), a)
    }

    static func referencePixel(_ g: GradientGeometry, _ ramp: GradientRamp, x: Int, y: Int) -> SIMD4<UInt8> {
        referenceColor(ramp, t: referenceParameter(g, x: x, y: y))
    }

    // MARK: SIMD kernel

    /// `atan2(y, x)` for eight lanes, within 1e-5 radians (Abramowitz and
    /// Stegun 4.4.49's polynomial for `atan` on 0...1, then the octant):
    /// 2e-6 of a turn, far below a level of 8-bit colour for a gradient on screen.
    @inline(__always)
    static func atan2x8(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
        // `replacing` rather than `pointwiseMax/Min`, which compile to out-of-line generic calls.
        let zero = SIMD8<Float>(repeating: 0)
        let ax = x.replacing(with: -x, where: x .< zero)
        let ay = y.replacing(with: -y, where: y .< zero)
        let steep = ay .> ax
        let mx = ax.replacing(with: ay, where: steep)
        let mn = ay.replacing(with: ax, where: steep)
        let z = (mn / mx).replacing(with: zero, where: mx .== zero)
        let s = z * z
        var r = (((0.020_835_1 * s - 0.085_133_0) * s + 0.180_141_0) * s - 0.330_299_5) * s + 0.999_866_0
        r *= z
        r.replace(with: Float.pi / 2 - r, where: steep)
        r.replace(with: Float.pi - r, where: x .< zero)
        r.replace(with: -r, where: y .< zero)
        return r
    }

    /// Writes the premultiplied colours of pixels `x0 ..< x0 + count` on row
    /// `y` to `out` (4 bytes a pixel; up to 7 pixels beyond `count` may be
    /// written, as the scratch rows allow).
    static func shadeRow(
        _ g: GradientGeometry, stops: UnsafePointer<Float>, segments: Int, y: Int, x0: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        guard count > 0 else { return }
        // Run constants in Double so that far-off pixels keep their precision.
        let u0 = Float(g.ua * Double(x0) + g.uc * Double(y) + g.ut)
        let v0 = Float(g.va * Double(x0) + g.vc * Double(y) + g.vt)
        let ua = Float(g.ua)
        let va = Float(g.va)
        // One loop per kind, so that the kind is not decided per eight pixels.
        switch g.kind {
        case .axial:
            shade(stops: stops, segments: segments, count: count, into: out) { f in f * ua + u0 }
        case .radial:
            shade(stops: stops, segments: segments, count: count, into: out) { f in
                let u = f * ua + u0
                let v = f * va + v0
                return (u * u + v * v).squareRoot()
            }
        case .conic:
            shade(stops: stops, segments: segments, count: count, into: out) { f in
                let t = atan2x8(f * va + v0, f * ua + u0) * (0.5 / Float.pi)
                return t.replacing(with: t + 1, where: t .< 0)
            }
        }
    }

    /// The colours at `parameter(f)` for pixel offsets `f` (eight at a time from 0).
    @inline(always)
    private static func shade(
        stops: UnsafePointer<Float>, segments: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
        _ parameter: (SIMD8<Float>) -> SIMD8<Float>
    ) {
        let iota = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let zero = SIMD8<Float>(repeating: 0)
        let one = SIMD8<Float>(repeating: 1)
        let magic = SIMD8<Float>(repeating: 12_582_912)  // 1.5 * 2^23: adding it rounds to an integer in the low bits
        let mask = Pixels8(repeating: 0xFF)
        let first = (stops[0], stops[1], stops[2], stops[3])
        let table = stops + 4
        var i = 0
        while i < count {
            let t = parameter(iota + Float(Int32(truncatingIfNeeded: i)))
            var r = SIMD8<Float>(repeating: first.0)
            var g = SIMD8<Float>(repeating: first.1)
            var b = SIMD8<Float>(repeating: first.2)
            var a = SIMD8<Float>(repeating: first.3)
            var s = table
            for _ in 0 ..< segments {
                var w = (t - s[0]) * s[1] + s[2]
                w = w.replacing(with: zero, where: w .< zero).replacing(with: one, where: w .> one)
                r += w * s[4]
                g += w * s[5]
                b += w * s[6]
                a += w * s[7]
                s += GradientRamp.segmentStride
            }
            r = r.replacing(with: a, where: r .> a)
            g = g.replacing(with: a, where: g .> a)
            b = b.replacing(with: a, where: b .> a)
            let pr = unsafeBitCast(r + magic, to: Pixels8.self) & mask
            let pg = unsafeBitCast(g + magic, to: Pixels8.self) & mask
            let pb = unsafeBitCast(b + magic, to: Pixels8.self) & mask
            let pa = unsafeBitCast(a + magic, to: Pixels8.self) & mask
            UnsafeMutableRawPointer(out + 4 &* i).storeBytes(
                of: pr | (pg &<< 8) | (pb &<< 16) | (pa &<< 24), as: Pixels8.self)
            i &+= 8
        }
    }
}
