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
    /// Half extents (local units) within which both slab factors are exactly 1
    /// (negative when the shape is under a pixel thick), and the radius within
    /// which the corner ramp is exactly 1 (`radius - 0.5 * |grad|`, bounding the
    /// gradient by the Frobenius norm): the interior spans that skip coverage.
    let fullU: Double, fullV: Double, fullRadius: Double

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

        let halfW = r.width / 2
        let halfH = r.height / 2
        let cx = r.minX + halfW
        let cy = r.minY + halfH
        let centred = AffineTransform2D(
            a: inv.a, b: inv.b, c: inv.c, d: inv.d,
            tx: inv.tx - cx, ty: inv.ty - cy)
        // Evaluated at pixel centres: fold the +0.5 into the translation so that
        // u = ia * x + ic * y + itx with integer pixel indices x, y.
        let atIndex = AffineTransform2D(
            a: centred.a, b: centred.b, c: centred.c, d: centred.d,
            tx: centred.tx + 0.5 * (centred.a + centred.c),
            ty: centred.ty + 0.5 * (centred.b + centred.d))
        let gradU = (inv.a * inv.a + inv.c * inv.c).squareRoot()
        let gradV = (inv.b * inv.b + inv.d * inv.d).squareRoot()
        guard gradU > 0, gradV > 0, gradU.isFinite, gradV.isFinite else { return nil }
        let pxU = 1 / gradU
        let pxV = 1 / gradV
        var radius = shape.cornerRadius
        radius = radius > 0 ? min(radius, min(halfW, halfH)) : 0  // NaN -> 0

        inverse = atIndex
        ia = Float(atIndex.a)
        ib = Float(atIndex.b)
        ic = Float(atIndex.c)
        id = Float(atIndex.d)
        itx = Float(atIndex.tx)
        ity = Float(atIndex.ty)
        halfWidth = Float(halfW)
        halfHeight = Float(halfH)
        self.radius = Float(radius)
        innerHalfWidth = Float(halfW - radius)
        innerHalfHeight = Float(halfH - radius)
        pixelsPerU = Float(pxU)
        pixelsPerV = Float(pxV)
        widthInPixels = Float(r.width * pxU)
        heightInPixels = Float(r.height * pxV)
        isAxisAligned = inv.b == 0 && inv.c == 0

        // Coverage is 0 once a pixel centre is half a pixel outside an edge.
        let reachU = halfW + (0.5 + 1e-4) / pxU
        let reachV = halfH + (0.5 + 1e-4) / pxV
        self.reachU = reachU
        self.reachV = reachV
        // Pixel-aligned edges must count as full (coverage exactly 1), so the
        // slab test is allowed a thousandth of a pixel past the exact limit: a
        // coverage of 0.999 still quantizes to alpha 255, the interior's.
        fullU = halfW - (0.5 - 1e-3) / pxU
        fullV = halfH - (0.5 - 1e-3) / pxV
        let gradient = (inv.a * inv.a + inv.b * inv.b + inv.c * inv.c + inv.d * inv.d).squareRoot()
        fullRadius = radius - (0.5 + 1e-3) * gradient

        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for (su, sv) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let p = t.apply(Point(x: cx + su * reachU, y: cy + sv * reachV))
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        bounds = PixelBox.centres(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        if bounds.isEmpty { return nil }
    }

    /// The pixels of row `y` whose coverage can be non-zero, as `lower ..< upper`
    /// within `bounds` (empty when `lower >= upper`). Exact line-parallelogram
    /// intersection, so rotated shapes do not pay for their bounding box.
    func span(row y: Int) -> (lower: Int, upper: Int) {
        let yd = Double(y)
        var lo = -Double.infinity
        var hi = Double.infinity
        Self.constrain(slope: inverse.a, offset: inverse.c * yd + inverse.tx, reach: reachU, &lo, &hi)
        Self.constrain(slope: inverse.b, offset: inverse.d * yd + inverse.ty, reach: reachV, &lo, &hi)
        guard lo <= hi else { return (0, 0) }
        let lower = max(bounds.x0, clampedIndex(lo.rounded(.up)))
        let upper = min(bounds.x1, clampedIndex(hi.rounded(.down)) + 1)
        return (lower, upper)
    }

    /// Pixels of row `y` whose coverage is exactly 1 (conservatively: a pixel
    /// left out is merely computed the slow way). Axis-aligned rows follow the
    /// corner arc; rotated rows use the cross `|u| <= halfWidth - r` or
    /// `|v| <= halfHeight - r` (outside the corner zones), which is exact away
    /// from the corners and only shortens corner rows.
    func fullSpan(row y: Int) -> (lower: Int, upper: Int) {
        guard fullU > 0, fullV > 0 else { return (0, 0) }
        let yd = Double(y)
        let t = inverse
        let offsetU = t.c * yd + t.tx
        let offsetV = t.d * yd + t.ty
        let innerU = Double(innerHalfWidth)
        let innerV = Double(innerHalfHeight)
        var lo: Double
        var hi: Double
        if isAxisAligned {
            let av = abs(offsetV)
            guard av <= fullV else { return (0, 0) }
            var limit = fullU
            if radius > 0 && av > innerV {
                let qy = av - innerV
                limit = min(limit, fullRadius > qy ? innerU + (fullRadius * fullRadius - qy * qy).squareRoot() : innerU)
            }
            (lo, hi) = (-Double.infinity, Double.infinity)
            Self.constrain(slope: t.a, offset: offsetU, reach: limit, &lo, &hi)
        } else {
            func interval(_ limitU: Double, _ limitV: Double) -> (Double, Double) {
                var a = -Double.infinity
                var b = Double.infinity
                Self.constrain(slope: t.a, offset: offsetU, reach: limitU, &a, &b)
                Self.constrain(slope: t.b, offset: offsetV, reach: limitV, &a, &b)
                return (a, b)
            }
            if radius > 0 {
                let wide = interval(fullU, min(fullV, innerV))
                let tall = interval(min(fullU, innerU), fullV)
                if wide.0 <= tall.1 && tall.0 <= wide.1 {
                    (lo, hi) = (min(wide.0, tall.0), max(wide.1, tall.1))
                } else {
                    (lo, hi) = wide.1 - wide.0 >= tall.1 - tall.0 ? wide : tall
                }
            } else {
                (lo, hi) = interval(fullU, fullV)
            }
        }
        guard lo <= hi else { return (0, 0) }
        let lower = max(bounds.x0, clampedIndex(lo.rounded(.up)))
        let upper = min(bounds.x1, clampedIndex(hi.rounded(.down)) + 1)
        return lower < upper ? (lower, upper) : (0, 0)
    }

    /// For an axis-aligned shape, a box of pixels all of coverage exactly 1
    /// (the rectangle inscribed in the rounded one at 45 degrees), else nil.
    /// Used to hide what an opaque item covers (`Occlusion`).
    var fullBox: PixelBox? {
        guard isAxisAligned, fullU > 0, fullV > 0 else { return nil }
        var boxU = fullU
        var boxV = fullV
        if radius > 0 {
            let corner = max(0, fullRadius) / 2.squareRoot()
            boxU = min(boxU, Double(innerHalfWidth) + corner)
            boxV = min(boxV, Double(innerHalfHeight) + corner)
        }
        let t = inverse
        var x0 = -Double.infinity
        var x1 = Double.infinity
        var y0 = -Double.infinity
        var y1 = Double.infinity
        Self.constrain(slope: t.a, offset: t.tx, reach: boxU, &x0, &x1)
        Self.constrain(slope: t.d, offset: t.ty, reach: boxV, &y0, &y1)
        guard x0 <= x1, y0 <= y1 else { return nil }
        let box = PixelBox(
            x0: clampedIndex(x0.rounded(.up)), y0: clampedIndex(y0.rounded(.up)),
            x1: clampedIndex(x1.rounded(.down)) + 1, y1: clampedIndex(y1.rounded(.down)) + 1
        )
        .intersection(bounds)
        return box.isEmpty ? nil : box
    }

    /// Narrows `[lo, hi]` to the x where `|slope * x + offset| <= reach`.
    static func constrain(
        slope: Double, offset: Double, reach: Double,
        _ lo: inout Double, _ hi: inout Double
    ) {
        if !(reach >= 0) {
            lo = .infinity
            hi = -.infinity
            return
        }
        if abs(slope) < 1e-12 {
            if !(abs(offset) <= reach) {
                lo = .infinity
                hi = -.infinity
            }
            return
        }
        let a = (-reach - offset) / slope
        let b = (reach - offset) / slope
        lo = max(lo, min(a, b))
        hi = min(hi, max(a, b))
    }
}
