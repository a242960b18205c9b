import Primitives
import FramePlan

/// A rounded rectangle under an affine transform, prepared for coverage
/// evaluation at target pixel centres (an item's shape, or one of its clips).
///
/// Pixel centre `(x + 0.5, y + 0.5)` maps to *centred* local coordinates
/// `u = ia*x + ic*y + itx`, `v = ib*x + id*y + ity` (the inverse transform with
/// the rectangle's centre folded into the translation, so the rectangle is
/// `|u| <= halfWidth, |v| <= halfHeight`).
///
/// Pixel-unit distances: a local edge `u = const` is `1 / |grad u|` target
/// pixels away per local unit, so `pixelsPerU = 1 / hypot(ia, ic)` (likewise
/// for `v`). With those, the coverage of one axis is the ramp
/// `clamp01(min(0.5 + (halfWidth - |u|) * pixelsPerU, widthInPixels))`, which
/// for an axis-aligned transform *is* the exact box-filter area of the pixel
/// inside the slab (a fractional edge at x = 10.5 gives exactly 0.5, a one-pixel
/// line at a half offset gives two halves), and for rotated edges is the usual
/// one-pixel linear ramp over the signed distance. Both axes multiply
/// (separable, exact for axis-aligned rectangles). In a corner zone the
/// distance to the arc is `(|q| - r) / |grad(|q| - r)|` in pixels (exact for
/// rotation plus uniform scale, a first-order estimate under non-uniform
/// scale or shear), and coverage takes the smaller of that ramp and the slab
/// product so the two regions join without a seam.
struct CoverageShape: Sendable {
    // Inverse transform, centred, in Double (setup, spans, reference) ...
    let inverse: AffineTransform2D
    // ... and in Float (inner loops).
    let ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
    let halfWidth: Float, halfHeight: Float
    /// Corner radius, clamped to half the shorter side; 0 for a sharp rectangle.
    let radius: Float
    /// `halfWidth - radius`, `halfHeight - radius`: where the corner zones start.
    let innerHalfWidth: Float, innerHalfHeight: Float
    let pixelsPerU: Float, pixelsPerV: Float
    /// Width and height of the rectangle across its edges, in target pixels.
    let widthInPixels: Float, heightInPixels: Float
    /// True when rows of target pixels are rows of constant `v` (no rotation or shear).
    let isAxisAligned: Bool
    /// Pixels whose coverage can be non-zero (not yet clipped to any target).
    let bounds: PixelBox
    /// Half extents (local units) beyond which coverage is exactly 0, for row spans.
    let reachU: Double, reachV: Double

    /// Nil when nothing can be drawn: a non-finite or non-invertible transform,
    /// a non-finite rectangle, or zero width or height.
    init?(transform t: AffineTransform2D, shape: RoundedRect) {
        let r = shape.rect
        guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy({ $0.isFinite && abs($0) < 1e15 }),
              [r.minX, r.minY, r.width, r.height].allSatisfy({ $0.isFinite && abs($0) < 1e15 }),
              r.width > 0, r.height > 0,
              let inv = t.inverted,
              [inv.a, inv.b, inv.c, inv.d, inv.tx, inv.ty].allSatisfy({ $0.isFinite && abs($0) < 1e15 })
        else { return nil }

        let halfW = r.width / 2, halfH = r.height / 2
        let cx = r.minX + halfW, cy = r.minY + halfH
        let centred = AffineTransform2D(a: inv.a, b: inv.b, c: inv.c, d: inv.d,
                                      tx: inv.tx - cx, ty: inv.ty - cy)
        // Evaluated at pixel centres: fold the +0.5 into the translation so that
        // u = ia * x + ic * y + itx with integer pixel indices x, y.
        let atIndex = AffineTransform2D(a: centred.a, b: centred.b, c: centred.c, d: centred.d,
                                      tx: centred.tx + 0.5 * (centred.a + centred.c),
                                      ty: centred.ty + 0.5 * (centred.b + centred.d))
        let gradU = (inv.a * inv.a + inv.c * inv.c).squareRoot()
        let gradV = (inv.b * inv.b + inv.d * inv.d).squareRoot()
        guard gradU > 0, gradV > 0, gradU.isFinite, gradV.isFinite else { return nil }
        let pxU = 1 / gradU, pxV = 1 / gradV
        var radius = shape.cornerRadius
        radius = radius > 0 ? min(radius, min(halfW, halfH)) : 0  // NaN -> 0

        inverse = atIndex
        ia = Float(atIndex.a); ib = Float(atIndex.b); ic = Float(atIndex.c); id = Float(atIndex.d)
        itx = Float(atIndex.tx); ity = Float(atIndex.ty)
        halfWidth = Float(halfW); halfHeight = Float(halfH)
        self.radius = Float(radius)
        innerHalfWidth = Float(halfW - radius); innerHalfHeight = Float(halfH - radius)
        pixelsPerU = Float(pxU); pixelsPerV = Float(pxV)
        widthInPixels = Float(r.width * pxU); heightInPixels = Float(r.height * pxV)
        isAxisAligned = inv.b == 0 && inv.c == 0

        // Coverage is 0 once a pixel centre is half a pixel outside an edge.
        let reachU = halfW + (0.5 + 1e-4) / pxU, reachV = halfH + (0.5 + 1e-4) / pxV
        self.reachU = reachU; self.reachV = reachV
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for (su, sv) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let p = t.apply(Point(x: cx + su * reachU, y: cy + sv * reachV))
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        bounds = PixelBox.centres(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        if bounds.isEmpty { return nil }
    }

    /// The pixels of row `y` whose coverage can be non-zero, as `lower ..< upper`
    /// within `bounds` (empty when `lower >= upper`). Exact line-parallelogram
    /// intersection, so rotated shapes do not pay for their bounding box.
    func span(row y: Int) -> (lower: Int, upper: Int) {
        let yd = Double(y)
        var lo = -Double.infinity, hi = Double.infinity
        Self.constrain(slope: inverse.a, offset: inverse.c * yd + inverse.tx, reach: reachU, &lo, &hi)
        Self.constrain(slope: inverse.b, offset: inverse.d * yd + inverse.ty, reach: reachV, &lo, &hi)
        guard lo <= hi else { return (0, 0) }
        let lower = max(bounds.x0, clampedIndex(lo.rounded(.up)))
        let upper = min(bounds.x1, clampedIndex(hi.rounded(.down)) + 1)
        return (lower, upper)
    }

    /// Narrows `[lo, hi]` to the x where `|slope * x + offset| <= reach`.
    private static func constrain(slope: Double, offset: Double, reach: Double,
                                  _ lo: inout Double, _ hi: inout Double) {
        if abs(slope) < 1e-12 {
            if !(abs(offset) <= reach) { lo = .infinity; hi = -.infinity }
            return
        }
        let a = (-reach - offset) / slope, b = (reach - offset) / slope
        lo = max(lo, min(a, b)); hi = min(hi, max(a, b))
    }
}
