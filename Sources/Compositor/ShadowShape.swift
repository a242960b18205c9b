#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Primitives
import FramePlan

/// A `.shadow` paint in kernel form: a rounded rectangle convolved with a
/// Gaussian, evaluated analytically at pixel centres (after Evan Wallace,
/// "Fast rounded rectangle shadows", 2015).
///
/// The model, in centred local coordinates `(u, v)` with `k = 1 / (sqrt 2 sigma)`:
///
///     Phi(u; h) = (erf((h - u) k) + erf((h + u) k)) / 2     // a blurred slab |u| <= h
///     value     = Phi(u; halfWidth) * Phi(v; halfHeight) - cornerCorrection
///
/// The product is exact for a sharp rectangle (a Gaussian is separable), and it
/// is exact for the rounded one wherever no corner lies within `3 sigma`: a
/// corner only matters when `|u| > halfWidth - r - 3 sigma` and
/// `|v| > halfHeight - r - 3 sigma` (the "corner zones"). There the shape's rows
/// within the Gaussian window that cross the corner arc are narrower than
/// `halfWidth`, and the correction integrates, over those rows, the Gaussian
/// weight times `Phi(u; halfWidth) - Phi(u; rowHalfWidth)`: exact in `u`
/// (closed form), a few-sample integral in `v` (`cornerSamples` sub-intervals
/// of the window, each weighted by its exact Gaussian mass, so the total
/// energy is kept). `erf` is the Abramowitz-Stegun 7.1.27 rational
/// approximation (absolute error 5e-4, about 0.13/255).
///
/// The blur drawn and where it is cut are the plan's `ShadowBlur` (`sigma`
/// widened by the pixel's own box filter, cut at 3 sigma), the one definition
/// the engine sizes group layers by too; its `reach` grows the rectangle into
/// `extent` exactly as `DrawItem.paintRect` does. `sigma == 0` is drawn as a
/// plain shape (`ShadowFill.prepare`).
struct ShadowShape: Sendable {
    /// Pixel index -> centred local coordinates (pixel centres folded in), as in `CoverageShape`.
    let inverse: AffineTransform2D
    let ia: Float, ib: Float
    let halfWidth: Float, halfHeight: Float, radius: Float
    let k: Float
    /// `ShadowBlur.reach` (local units): where the Gaussian is cut.
    let reach: Float
    /// Corner zones start beyond these `|u|`, `|v|` (local units).
    let zoneU: Float, zoneV: Float
    /// The shape is so short that the opposite corners' rows reach into the window too.
    let bothSides: Bool
    let isAxisAligned: Bool
    /// Every corner-zone pixel is at least `3 / k` (about 4.2 sigma) from the far side of every row the corner
    /// integral samples, so that side's `erf` term is 1 to within 1e-4 and the kernels leave it out
    /// (`ShadowKernels.correction8(rows:...)`: one `erf8` a sample instead of two).
    let farSideSaturates: Bool
    /// The rectangle grown by `reach` (`DrawItem.paintRect`): row spans and bounds (the shadow is cut beyond).
    let extent: CoverageShape

    static let cornerSamples = 4

    /// Nil when nothing can be drawn (as `CoverageShape`), or when `sigma` is
    /// not positive and finite (`ShadowBlur`).
    init?(transform t: AffineTransform2D, shape: RoundedRect, sigma: Double) {
        let r = shape.rect
        let paintRect = DrawItem(transform: t, shape: shape, paint: .shadow(color: .black, sigma: sigma)).paintRect
        guard let blur = ShadowBlur(sigma: sigma, transform: t), r.width > 0, r.height > 0,
            let extent = CoverageShape(transform: t, shape: RoundedRect(rect: paintRect)),
            let inner = CoverageShape(transform: t, shape: shape)
        else { return nil }
        let reach = blur.reach
        self.extent = extent
        inverse = inner.inverse
        ia = inner.ia
        ib = inner.ib
        halfWidth = inner.halfWidth
        halfHeight = inner.halfHeight
        radius = inner.radius
        k = Float(1 / (2.squareRoot() * blur.sigma))
        self.reach = Float(reach)
        zoneU = inner.innerHalfWidth - Float(reach)
        zoneV = inner.innerHalfHeight - Float(reach)
        bothSides = Double(inner.innerHalfHeight) < reach
        isAxisAligned = inner.isAxisAligned
        // A sampled row is at least `halfWidth - radius` wide and a zone pixel's |u| exceeds `zoneU`.
        farSideSaturates = (inner.innerHalfWidth + max(0, zoneU)) * k >= 3
    }

    /// Reference: the same model in Double with the C library's `erf`, one pixel.
    func referenceValue(x: Int, y: Int) -> Double {
        let t = inverse
        let u = abs(t.a * Double(x) + t.c * Double(y) + t.tx)
        let v = abs(t.b * Double(x) + t.d * Double(y) + t.ty)
        let hw = Double(halfWidth)
        let hh = Double(halfHeight)
        let r = Double(radius)
        let k = Double(self.k)
        func phi(_ p: Double, _ h: Double) -> Double { (erf((h - p) * k) + erf((h + p) * k)) / 2 }
        var value = phi(u, hw) * phi(v, hh)
        guard r > 0, u > Double(zoneU), v > Double(zoneV) else { return value }
        let reach = Double(self.reach)
        let phiFull = phi(u, hw)
        for centre in bothSides ? [v, -v] : [v] {
            let lo = max(hh - r, centre - reach)
            let hi = max(lo, min(hh, centre + reach))
            let n = Self.cornerSamples
            for j in 0 ..< n {
                let y0 = lo + (hi - lo) * Double(j) / Double(n)
                let y1 = lo + (hi - lo) * Double(j + 1) / Double(n)
                let mass = (erf((y1 - centre) * k) - erf((y0 - centre) * k)) / 2
                let q = (y0 + y1) / 2 - (hh - r)
                let row = hw - r + max(0, r * r - q * q).squareRoot()
                value -= mass * (phiFull - phi(u, row))
            }
        }
        return value
    }
}
