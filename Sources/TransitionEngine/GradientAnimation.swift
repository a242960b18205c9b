import FramePlan
import Primitives
import SceneModel

/// How a view's gradient (`View.gradient`, CAGradientLayer's model) is laid
/// out and animated: every frame it is laid into the view's current bounds
/// (`paint(in:)`); on a matched pair it goes from the `from` gradient to the
/// `to` one (`GradientSpec.between`), as Core Animation animates
/// `colors`, `locations`, `startPoint` and `endPoint`:
/// - same type, same number of colours: each stop's colour (per sRGB
///   component with straight alpha, as `backgroundColor`), location and the
///   two points interpolate;
/// - same type, different numbers of colours: both are first resampled to the
///   union of their locations (each drawn exactly as before, with more stops),
///   then interpolated stop by stop, so the picture changes continuously;
/// - different types: the two cross-fade, the `to` gradient drawn over the
///   `from` one with their colours' alphas scaled by q and 1 - q;
/// - a gradient on one side only fades in or out: the missing side is the
///   same gradient with every colour transparent (its rgb kept, so it fades
///   without darkening towards black).
extension GradientSpec {
    /// CAGradientLayer's nil locations: evenly spread (one colour at 0).
    var resolvedLocations: [Double] {
        if let locations, locations.count == colors.count { return locations }
        guard colors.count > 1 else { return [0] }
        return colors.indices.map { Double($0) / Double(colors.count - 1) }
    }

    /// The same gradient with its locations written out.
    var resolved: GradientSpec {
        var g = self
        g.locations = resolvedLocations
        return g
    }

    /// Every colour's alpha multiplied by `k`.
    func faded(_ k: Double) -> GradientSpec {
        var g = self
        g.colors = colors.map { c in
            var c = c
            c.alpha *= k
            return c
        }
        return g
    }

    /// The colour drawn at `t` (`GradientPaint`'s rule: premultiplied
    /// interpolation, the later stop at a repeated location), straight alpha.
    func color(at t: Double) -> RGBAColor {
        let l = resolvedLocations
        guard !colors.isEmpty else { return .clear }
        if t < l[0] { return colors[0] }
        if t >= l[l.count - 1] { return colors[colors.count - 1] }
        var i = 0
        while l[i + 1] <= t { i += 1 }
        let w = (t - l[i]) / (l[i + 1] - l[i])
        let (a, b) = (colors[i], colors[i + 1])
        let alpha = a.alpha + (b.alpha - a.alpha) * w
        guard alpha > 0 else { return a.interpolated(to: b, w) }
        func channel(_ x: Double, _ y: Double) -> Double { (x * a.alpha + (y * b.alpha - x * a.alpha) * w) / alpha }
        return RGBAColor(
            red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue), alpha: alpha)
    }

    /// The same picture with a stop at each of `locations` (sorted; a value
    /// repeated `m` times is a hard stop there): where this gradient has stops
    /// at a value it keeps them (the last repeated to make up `m`), elsewhere
    /// it takes its colour there.
    func resampled(at locations: [Double]) -> GradientSpec {
        let own = resolvedLocations
        var out: [RGBAColor] = []
        var i = 0
        while i < locations.count {
            let x = locations[i]
            var m = 1
            while i + m < locations.count && locations[i + m] == x { m += 1 }
            let here = own.indices.filter { own[$0] == x }.map { colors[$0] }
            if let last = here.last {
                out += here + Array(repeating: last, count: max(0, m - here.count))
            } else {
                out += Array(repeating: color(at: x), count: m)
            }
            i += m
        }
        var g = self
        g.colors = out
        g.locations = locations
        return g
    }

    /// Both gradients' locations, each value as often as the one that repeats it more.
    static func unionOfLocations(_ a: [Double], _ b: [Double]) -> [Double] {
        var union: [Double] = []
        for x in Set(a + b).sorted() {
            union += Array(repeating: x, count: max(a.count { $0 == x }, b.count { $0 == x }))
        }
        return union
    }

    /// `progress` of the way to `end`, a gradient of the same type.
    func interpolated(to end: GradientSpec, _ progress: Double) -> GradientSpec {
        var (a, b) = (resolved, end.resolved)
        if a.colors.count != b.colors.count {
            let union = Self.unionOfLocations(a.resolvedLocations, b.resolvedLocations)
            (a, b) = (a.resampled(at: union), b.resampled(at: union))
        }
        let p = progress
        var g = a
        g.colors = zip(a.colors, b.colors).map { $0.interpolated(to: $1, p) }
        g.locations = zip(a.resolvedLocations, b.resolvedLocations).map { $0 + ($1 - $0) * p }
        g.startPoint = Point(x: a.startPoint.x + (b.startPoint.x - a.startPoint.x) * p, y: a.startPoint.y + (b.startPoint.y - a.startPoint.y) * p)
        g.endPoint = Point(x: a.endPoint.x + (b.endPoint.x - a.endPoint.x) * p, y: a.endPoint.y + (b.endPoint.y - a.endPoint.y) * p)
        return g
    }

    /// What a view draws `progress` of the way from gradient `a` to `b`:
    /// the gradient, and under it a leaving one while two types cross-fade.
    static func between(_ a: GradientSpec?, _ b: GradientSpec?, _ progress: Double) -> (gradient: GradientSpec?, leaving: GradientSpec?) {
        switch (a, b) {
        case (nil, nil): return (nil, nil)
        case (let a?, nil): return (a.interpolated(to: a.faded(0), progress), nil)
        case (nil, let b?): return (b.faded(0).interpolated(to: b, progress), nil)
        case (let a?, let b?) where a.type == b.type: return (a.interpolated(to: b, progress), nil)
        case (let a?, let b?): return (b.resolved.faded(progress), a.resolved.faded(1 - progress))
        }
    }

    /// The plan's paint, laid into `bounds` (unit points to local units).
    func paint(in bounds: Rect) -> GradientPaint {
        let kind: GradientPaint.Kind
        switch type {
        case .axial: kind = .axial
        case .radial: kind = .radial
        case .conic: kind = .conic
        }
        func local(_ p: Point) -> Point { Point(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height) }
        return GradientPaint(
            kind: kind, colors: colors, locations: resolvedLocations, start: local(startPoint), end: local(endPoint))
    }
}
