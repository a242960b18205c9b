import Primitives
import FramePlan

/// A rounded rectangle under a homography (a clip, or later a projected blur's
/// shape), prepared for coverage at target pixel centres: `CoverageShape`'s
/// model carried through a perspective map.
///
/// Pixel centre `(x + 0.5, y + 0.5)` maps back to *centred* local homogeneous
/// coordinates `(U, V, W) = (x, y, 1) * toLocal` (the inverse of
/// `transform` then `projection`, with the +0.5 and the rectangle's centre
/// folded in), local point `(u, v) = (U / W, V / W)`. `W` is `1 / W'` of the
/// forward map, so a pixel sees the plane in front of the eye exactly when
/// `0 < W <= 1 / Homography.nearW`; elsewhere coverage is 0 (the plane's
/// wrapped image behind the eye is never drawn).
///
/// Distances become pixels with the map's local Jacobian (first-order, exact
/// where the map is affine): `du/dx = (q11 - u q13) / W`, `du/dy = (q21 - u q23) / W`
/// (likewise `v` with the second column), so `pixelsPerU = 1 / |grad u|`, and
/// each axis gives `clamp01(min(0.5 + (halfWidth - |u|) * pixelsPerU,
/// 2 halfWidth * pixelsPerU))` as in `CoverageShape`; the corner arc ramps over
/// `(|q| - r) / |grad(|q| - r)|`. Under an affine map this is exactly
/// `CoverageShape`'s formula (tests compare them).
///
/// Non-finite or singular maps give nil (draws nothing); NaN never reaches an
/// integer: coverage is clamped with `clamp01`, which maps NaN to 0.
struct ProjectedShape: Sendable {
    /// Target pixel index -> centred local homogeneous coordinates, in Double (row setup, reference).
    let toLocal: Homography
    let q11: Float, q12: Float, q13: Float, q21: Float, q22: Float, q23: Float
    let halfWidth: Float, halfHeight: Float
    /// Clamped to half the shorter side; 0 for a sharp rectangle.
    let radius: Float
    let innerHalfWidth: Float, innerHalfHeight: Float
    /// Pixels whose coverage can be non-zero (the visible image grown by a
    /// pixel; not yet cut to any target).
    let bounds: PixelBox

    init?(transform: AffineTransform2D, shape: RoundedRect, projection: Homography) {
        let r = shape.rect
        guard [r.minX, r.minY, r.width, r.height].allSatisfy({ $0.isFinite && abs($0) < 1e15 }),
            r.width > 0, r.height > 0, projection.isFinite,
            [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty].allSatisfy(\.isFinite)
        else { return nil }
        let forward = Homography(affine: transform).concatenating(projection)
        guard let inverse = forward.inverted else { return nil }
        let halfW = r.width / 2
        let halfH = r.height / 2
        let centre = r.center
        let map = Homography(affine: .translation(0.5, 0.5)).concatenating(inverse)
            .concatenating(.translation(-centre.x, -centre.y))
        guard map.isFinite else { return nil }
        toLocal = map
        q11 = Float(map.m11)
        q12 = Float(map.m12)
        q13 = Float(map.m13)
        q21 = Float(map.m21)
        q22 = Float(map.m22)
        q23 = Float(map.m23)
        var radius = shape.cornerRadius
        radius = radius > 0 ? min(radius, min(halfW, halfH)) : 0  // NaN -> 0
        halfWidth = Float(halfW)
        halfHeight = Float(halfH)
        self.radius = Float(radius)
        innerHalfWidth = Float(halfW - radius)
        innerHalfHeight = Float(halfH - radius)
        guard let box = ConvexPolygon(forward.visiblePolygon(of: r)).bounds else { return nil }
        bounds = PixelBox.centres(minX: box.minX - 1, minY: box.minY - 1, maxX: box.maxX + 1, maxY: box.maxY + 1)
        if bounds.isEmpty { return nil }
    }

    /// Writes the coverage (0...1) of pixels `x0 ..< x0 + count` on row `y` to `out[0 ..< count]`.
    /// Float per pixel from Double row constants (the reference's formulas, in Float).
    func coverageRow(y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let m = toLocal
        let yd = Double(y)
        let xd = Double(x0)
        let u0 = Float(m.m11 * xd + m.m21 * yd + m.m31)
        let v0 = Float(m.m12 * xd + m.m22 * yd + m.m32)
        let w0 = Float(m.m13 * xd + m.m23 * yd + m.m33)
        let farW = Float(1 / Homography.nearW)
        for i in 0 ..< count {
            let k = Float(Int32(truncatingIfNeeded: i))
            let w = w0 + q13 * k
            guard w > 0 && w <= farW else {
                out[i] = 0
                continue
            }
            let inv = 1 / w
            let u = (u0 + q11 * k) * inv
            let v = (v0 + q12 * k) * inv
            out[i] = coverage(u: u, v: v, inverseW: inv)
        }
    }

    /// Coverage at centred local `(u, v)` of a pixel whose `1 / W` is `inverseW` (Float, the row formula).
    @inline(__always)
    func coverage(u: Float, v: Float, inverseW inv: Float) -> Float {
        let ux = (q11 - u * q13) * inv
        let uy = (q21 - u * q23) * inv
        let vx = (q12 - v * q13) * inv
        let vy = (q22 - v * q23) * inv
        let pxU = 1 / (ux * ux + uy * uy).squareRoot()
        let pxV = 1 / (vx * vx + vy * vy).squareRoot()
        let au = abs(u)
        let av = abs(v)
        let cu = clamp01(min(0.5 + (halfWidth - au) * pxU, 2 * halfWidth * pxU))
        let cv = clamp01(min(0.5 + (halfHeight - av) * pxV, 2 * halfHeight * pxV))
        var c = cu * cv
        let qx = au - innerHalfWidth
        let qy = av - innerHalfHeight
        if radius > 0 && qx > 0 && qy > 0 {
            let len = (qx * qx + qy * qy).squareRoot()
            let nu = (u < 0 ? -qx : qx) / len
            let nv = (v < 0 ? -qy : qy) / len
            let gx = nu * ux + nv * vx
            let gy = nu * uy + nv * vy
            c = min(c, clamp01(0.5 - (len - radius) / (gx * gx + gy * gy).squareRoot()))
        }
        return clamp01(c)
    }

    /// Reference: the same model in Double at pixel `(x, y)`, no shortcuts.
    func referenceCoverage(x: Int, y: Int) -> Double {
        let m = toLocal
        guard let j = m.derivatives(at: Point(x: Double(x), y: Double(y))), j.w <= 1 / Homography.nearW else { return 0 }
        let (u, v) = (j.image.x, j.image.y)
        let (ux, uy, vx, vy) = (j.xByX, j.xByY, j.yByX, j.yByY)
        func clamp(_ v: Double) -> Double { v > 0 ? (v < 1 ? v : 1) : 0 }
        let (halfW, halfH, r) = (Double(halfWidth), Double(halfHeight), Double(radius))
        let pxU = 1 / (ux * ux + uy * uy).squareRoot()
        let pxV = 1 / (vx * vx + vy * vy).squareRoot()
        var c = clamp(min(0.5 + (halfW - abs(u)) * pxU, 2 * halfW * pxU)) * clamp(min(0.5 + (halfH - abs(v)) * pxV, 2 * halfH * pxV))
        let qx = abs(u) - (halfW - r)
        let qy = abs(v) - (halfH - r)
        if r > 0 && qx > 0 && qy > 0 {
            let len = (qx * qx + qy * qy).squareRoot()
            let nu = (u < 0 ? -qx : qx) / len
            let nv = (v < 0 ? -qy : qy) / len
            let gx = nu * ux + nv * vx
            let gy = nu * uy + nv * vy
            c = min(c, clamp(0.5 - (len - r) / (gx * gx + gy * gy).squareRoot()))
        }
        return clamp(c)
    }
}
