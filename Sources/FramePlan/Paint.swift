public import Primitives

// Everything the plan says about a paint kind is in this file, so a new kind is
// decided in one place: its case (fields and meaning), its JSON (`json`), how
// far beyond its shape it can draw (`reach`) and, for a paint that samples a
// bitmap, which one (`bitmapReference`). Each is an exhaustive switch without
// `default`, so the compiler lists what a new case still needs. The recipe
// for the whole pipeline is in `FramePlan.swift`.

/// What fills a shape.
public enum Paint: Sendable, Hashable {
    /// A flat colour (straight alpha, sRGB).
    case solid(RGBAColor)
    /// A bitmap stretched so that its full extent covers `shape.rect`,
    /// sampled bilinearly (with area filtering where it is drawn smaller).
    case bitmap(BitmapReference)
    /// A border as Core Animation draws one: the ring between `shape` and
    /// `shape` inset by `width` on every side (inner corner radius
    /// `max(0, cornerRadius - width)`), filled with `color`. Local units.
    case border(width: Double, color: RGBAColor)
    /// A drop shadow: `shape` filled with `color` and blurred by a Gaussian of
    /// standard deviation `sigma` (local units; scaled by the transform like
    /// the shape), drawn as `ShadowBlur` says. The engine has already offset
    /// `shape` by the shadow offset and folded the shadow opacity into
    /// `color`'s alpha.
    case shadow(color: RGBAColor, sigma: Double)
    /// CAGradientLayer's gradient filling `shape` (`GradientPaint`): points in
    /// local units, evaluated in the unit square of `shape.rect` as Core
    /// Animation lays a gradient out in its layer's bounds.
    case gradient(GradientPaint)
    /// Group opacity, as Core Animation composites a view whose alpha is below 1:
    /// the nested items (in the same target space as this item) are drawn onto
    /// a transparent layer, and the layer is drawn with this item's `opacity`,
    /// inside `shape` (under `transform`) and every clip. Overlapping parts of
    /// the view then do not show through each other. `shape` bounds the layer.
    indirect case group(DisplayList)
    /// UIVisualEffectView's blur: what the target shows under the item when it
    /// is reached (every earlier item drawn), blurred by a Gaussian of
    /// standard deviation `sigma` (local units, scaled by the transform like a
    /// shadow's), replaces the target inside `shape` and the clips, blended at
    /// the item's opacity. The style's tint is a separate `.solid` item after
    /// it. The blur reads up to `ShadowBlur.cutoff * sigma` beyond the shape,
    /// so a compositor must finish everything before it there first (a pass
    /// boundary). Inside a group's layer there is no backdrop to read and it
    /// draws nothing (UIKit: a visual effect view under an ancestor with alpha
    /// below 1 does not render its effect).
    case backdropBlur(sigma: Double)
}

/// Which bitmap a `.bitmap` paint samples.
public enum BitmapReference: Sendable, Hashable {
    /// An index into `FramePlanSource.images`.
    case image(Int)
    /// An index into `FramePlanSource.snapshots` (rasterized by the compositor).
    case snapshot(Int)
}

extension Paint {
    /// The paint's JSON object (`docs/frame-plan.md`, "Paints").
    public var json: String {
        typealias J = FramePlanJSON
        switch self {
        case .solid(let c): return "{\"solid\": \(J.color(c))}"
        case .bitmap(.image(let i)): return "{\"image\": \(i)}"
        case .bitmap(.snapshot(let i)): return "{\"snapshot\": \(i)}"
        case .border(let width, let c): return "{\"border\": {\"width\": \(J.number(width)), \"color\": \(J.color(c))}}"
        case .shadow(let c, let sigma): return "{\"shadow\": {\"color\": \(J.color(c)), \"sigma\": \(J.number(sigma))}}"
        case .gradient(let g):
            return "{\"gradient\": {\"type\": \(J.string(g.kind.rawValue)), \"colors\": [\(g.colors.map(J.color).joined(separator: ", "))], "
                + "\"locations\": \(J.array(g.locations)), \"start\": \(J.array([g.start.x, g.start.y])), "
                + "\"end\": \(J.array([g.end.x, g.end.y]))}}"
        case .group(let list): return "{\"group\": [" + list.items.map(J.item).joined(separator: ", ") + "]}"
        case .backdropBlur(let sigma): return "{\"backdropBlur\": {\"sigma\": \(J.number(sigma))}}"
        }
    }

    /// How far beyond `shape.rect`, on every side and in the item's local
    /// units, this paint can put a non-zero alpha when drawn under `transform`:
    /// the one definition of a paint's extent. The compositor draws a paint
    /// inside `DrawItem.paintRect` (plus its half-pixel anti-aliasing fringe);
    /// the engine sizes a group's layer to hold it (`DrawItem.paintBounds`).
    public func reach(under transform: AffineTransform2D) -> Double {
        switch self {
        case .solid, .bitmap, .border, .gradient: return 0
        case .shadow(_, let sigma): return ShadowBlur(sigma: sigma, transform: transform)?.reach ?? 0
        case .group: return 0  // its layer is drawn inside `shape`
        case .backdropBlur: return 0  // it reads beyond its shape, but draws only inside it
        }
    }

    /// The bitmap this paint samples, if any (so a compositor can prepare only what a list uses).
    public var bitmapReference: BitmapReference? {
        switch self {
        case .bitmap(let reference): return reference
        case .solid, .border, .shadow, .gradient, .group, .backdropBlur: return nil
        }
    }
}

/// What a `.gradient` paint draws: CAGradientLayer's model with its points
/// resolved to the item's local units. The value at a local point `p` (a
/// pixel centre under the inverse transform):
///
/// 1. Unit coordinates of `shape.rect`, as Core Animation lays a gradient out
///    in a unit square stretched to the bounds (so an axial gradient's
///    isolines are perpendicular to start -> end in that square, not on
///    screen, and radial ones are ellipses): `q = ((p.x - minX) / width,
///    (p.y - minY) / height)`; `s`, `e` are `start`, `end` the same way, `d = e - s`.
/// 2. The gradient parameter `t`:
///    - axial: `t = (q - s) . d / |d|^2` (1 everywhere when `d` is zero);
///    - radial: `t = |((q - s).x / d.x, (q - s).y / d.y)|`, ellipses around
///      `start` whose radii are `|d.x|`, `|d.y|` (1 everywhere when either is zero);
///    - conic: `t = (angle(q - s) - angle(d)) / 2 pi`, wrapped into `0 ..< 1`,
///      angles by `atan2(y, x)` with y down, so clockwise on screen (`d`
///      zero: from the +x direction).
/// 3. The colour at `t`: `colors[0]` up to `locations[0]`, the last colour
///    from the last location on, and in between linear interpolation of the
///    neighbouring stops in premultiplied sRGB (at a repeated location, a
///    hard stop, the later stop's colour applies from that location on).
///    No dithering, so output stays deterministic.
public struct GradientPaint: Sendable, Hashable {
    /// CAGradientLayerType.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case axial, radial, conic
    }

    public var kind: Kind
    /// Straight alpha, sRGB; at least one.
    public var colors: [RGBAColor]
    /// One per colour, in 0...1, never decreasing.
    public var locations: [Double]
    /// Local units (already laid into `shape.rect`).
    public var start: Point
    public var end: Point

    public init(kind: Kind, colors: [RGBAColor], locations: [Double], start: Point, end: Point) {
        self.kind = kind
        self.colors = colors
        self.locations = locations
        self.start = start
        self.end = end
    }
}

/// A `.shadow` paint's blur as drawn under a transform: what the compositor
/// evaluates and how far the engine must leave room for it, from one formula.
///
/// The Gaussian's standard deviation is widened by the pixel's own box filter
/// (`sigma^2 + p^2 / 12`, `p` the local units per target pixel), so a tiny
/// blur meets the anti-aliased hard edge smoothly, and it is cut at
/// `cutoff` standard deviations beyond the shape.
public struct ShadowBlur: Sendable, Hashable {
    /// Where the Gaussian is cut, in standard deviations: beyond 3 lies 0.13 %
    /// of an edge's energy, less than half a level of 8-bit alpha.
    public static let cutoff = 3.0

    /// The standard deviation drawn (local units).
    public let sigma: Double
    /// `cutoff * sigma`: how far beyond the shape the shadow draws (local units).
    public let reach: Double
    /// Local units per target pixel (geometric mean of the two axes).
    public let localPerPixel: Double

    /// Nil when the shadow is not blurred: `sigma` not positive, not finite or
    /// absurdly large (the compositor then draws the hard shape), or a
    /// transform that collapses the plane (nothing is drawn).
    public init?(sigma: Double, transform: AffineTransform2D) {
        guard sigma > 0, sigma.isFinite, sigma < 1e7, let inverse = transform.inverted else { return nil }
        let perPixel = abs(inverse.determinant).squareRoot()
        guard perPixel.isFinite, perPixel > 0 else { return nil }
        localPerPixel = perPixel
        self.sigma = (sigma * sigma + perPixel * perPixel / 12).squareRoot()
        reach = Self.cutoff * self.sigma
    }
}

extension DrawItem {
    /// The local rectangle the paint can draw in: `shape.rect` grown by
    /// `paint.reach(under: transform)` on every side (`shape.rect` itself for
    /// most paints; a shadow's blurred extent).
    public var paintRect: Rect {
        let r = shape.rect
        let reach = paint.reach(under: transform)
        guard reach > 0 else { return r }
        return Rect(x: r.minX - reach, y: r.minY - reach, width: r.width + 2 * reach, height: r.height + 2 * reach)
    }

    /// The corners of `paintRect` under `transform`, in target pixels. Under a
    /// `projection`, the polygon its plane bounds map to, cut at the eye plane
    /// (empty when all of it is behind the eye).
    public var paintCorners: [Point] {
        let r = paintRect
        let t = transform
        let corners = [
            Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
            Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY),
        ].map(t.apply)
        guard let projection else { return corners }
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for p in corners where p.x.isFinite && p.y.isFinite {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        guard minX <= maxX, minY <= maxY else { return [] }
        return projection.visiblePolygon(of: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
    }

    /// The axis-aligned box, in target pixels, around the finite `paintCorners`
    /// (nil when none is finite). The compositor touches no pixel whose centre
    /// is more than half a pixel outside the transformed `paintRect`, so none
    /// whose centre is more than `sqrt(1/2)` pixel outside this box.
    public var paintBounds: Rect? {
        let finite = paintCorners.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = finite.first else { return nil }
        var minX = first.x
        var minY = first.y
        var maxX = first.x
        var maxY = first.y
        for p in finite.dropFirst() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
