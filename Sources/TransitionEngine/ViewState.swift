import Primitives
import SceneModel

/// The animatable properties of a transient view at one instant, as Shift's
/// `ViewState`. `position` is in the coordinates of the view's transition
/// superview: the canvas for container views, the parent transient view's
/// bounds for `parent` views.
///
/// `alpha` is UIKit's `alpha`, which is Core Animation's `opacity`: one
/// property, so the `alpha` and `opacity` animations both set it and the later
/// in a view's list wins (as in Shift's view state); a product of the two
/// would fade twice.
struct ViewState: Sendable, Equatable {
    var position: Point
    var size: Size
    var alpha: Double
    var cornerRadius: Double
    var anchorPoint: Point
    var zPosition: Double
    var masksToBounds: Bool
    var borderWidth: Double
    var borderColor: RGBAColor
    var shadowColor: RGBAColor
    var shadowOpacity: Double
    var shadowRadius: Double
    var shadowOffset: Size
    var transform: TransformSpec
    var backgroundColor: RGBAColor
    /// CAGradientLayer over the background (locations written out), and under
    /// it, while a matched pair's two gradient types cross-fade, the leaving one.
    var gradient: GradientSpec?
    var leavingGradient: GradientSpec?
    /// Hero's overlay colour over the view (a navigation's dimming of the root underneath); clear for scene views.
    var overlay: RGBAColor = .clear
    /// The backdrop blur's radius in points (0: none) and its style's tint (clear: none), docs/blur.md.
    var blurRadius: Double
    var blurTint: RGBAColor
    /// Core Animation's `isDoubleSided` (discrete: the end's value at once).
    var doubleSided: Bool
    /// Core Animation's `anchorPointZ`: engine-internal (the cube's roots turn about an axis behind the screen).
    var anchorPointZ: Double = 0
    /// An interpolated 3-D transform, which stands for `transform` when set
    /// (`interpolated(to:)`); `transform` then holds the per-component
    /// interpolation, which a keyframed transform component falls back on.
    var decomposedTransform: DecomposedTransform?

    init(spec: View, size: Size, position: Point) {
        self.position = position
        self.size = size
        self.alpha = spec.alpha
        self.cornerRadius = spec.cornerRadius
        self.anchorPoint = spec.anchorPoint
        self.zPosition = spec.zPosition
        self.masksToBounds = spec.masksToBounds
        self.borderWidth = spec.borderWidth
        self.borderColor = spec.borderColor
        let shadow = spec.shadow ?? ShadowSpec()
        self.shadowColor = shadow.color
        self.shadowOpacity = spec.shadow == nil ? 0 : shadow.opacity
        self.shadowRadius = shadow.radius
        self.shadowOffset = shadow.offset
        self.transform = spec.transform
        self.backgroundColor = spec.backgroundColor ?? .clear
        self.gradient = spec.gradient?.resolved
        self.blurRadius = spec.blur?.radius ?? 0
        self.blurTint = spec.blur.map { BlurTint.color(of: $0.style) } ?? .clear
        self.doubleSided = spec.doubleSided
    }

    /// Applies one of Shift's additional animations (`Animations.swift`).
    mutating func apply(_ change: PropertyChange) {
        switch change {
        case .fade: alpha = 0
        case .scale(let k):
            transform.scale.width *= k
            transform.scale.height *= k
        case .move(let dx, let dy):
            position.x += dx
            position.y += dy
        case .bounds(let r): size = r.size
        case .alpha(let v), .opacity(let v): alpha = v
        case .cornerRadius(let v): cornerRadius = v
        case .anchorPoint(let p): anchorPoint = p
        case .zPosition(let z): zPosition = z
        case .masksToBounds(let m): masksToBounds = m
        case .borderColor(let c): borderColor = c
        case .borderWidth(let w): borderWidth = w
        case .shadowColor(let c): shadowColor = c
        case .shadowOffset(let o): shadowOffset = o
        case .shadowRadius(let r): shadowRadius = r
        case .shadowOpacity(let o): shadowOpacity = o
        case .transform(let t):
            transform = t
            decomposedTransform = nil
        case .backgroundColor(let c): backgroundColor = c
        case .rotate(let degrees): transform.rotate += degrees
        }
    }

    /// The state `progress` of the way (in curve time) from `self` to `end`.
    /// Numbers interpolate linearly, colours per sRGB component, transforms per
    /// component, gradients as `GradientSpec.between` says. `masksToBounds` and `zPosition` take their final values at
    /// once, as Shift sets them without animation.
    func interpolated(to end: ViewState, _ progress: Double) -> ViewState {
        if progress == 0 { return withDiscreteValues(of: end) }
        if progress == 1 { return end }
        var s = self
        let p = progress
        s.position = Point(x: lerp(position.x, end.position.x, p), y: lerp(position.y, end.position.y, p))
        s.size = Size(width: lerp(size.width, end.size.width, p), height: lerp(size.height, end.size.height, p))
        s.alpha = lerp(alpha, end.alpha, p)
        s.cornerRadius = lerp(cornerRadius, end.cornerRadius, p)
        s.anchorPoint = Point(x: lerp(anchorPoint.x, end.anchorPoint.x, p), y: lerp(anchorPoint.y, end.anchorPoint.y, p))
        s.borderWidth = lerp(borderWidth, end.borderWidth, p)
        s.borderColor = borderColor.interpolated(to: end.borderColor, p)
        s.shadowColor = shadowColor.interpolated(to: end.shadowColor, p)
        s.shadowOpacity = lerp(shadowOpacity, end.shadowOpacity, p)
        s.shadowRadius = lerp(shadowRadius, end.shadowRadius, p)
        s.shadowOffset = Size(
            width: lerp(shadowOffset.width, end.shadowOffset.width, p),
            height: lerp(shadowOffset.height, end.shadowOffset.height, p))
        s.transform = TransformSpec(
            translate: Point(
                x: lerp(transform.translate.x, end.transform.translate.x, p),
                y: lerp(transform.translate.y, end.transform.translate.y, p)),
            scale: Size(
                width: lerp(transform.scale.width, end.transform.scale.width, p),
                height: lerp(transform.scale.height, end.transform.scale.height, p)),
            rotate: lerp(transform.rotate, end.transform.rotate, p),
            rotateX: lerp(transform.rotateX, end.transform.rotateX, p), rotateY: lerp(transform.rotateY, end.transform.rotateY, p),
            translateZ: lerp(transform.translateZ, end.transform.translateZ, p),
            perspective: p < 0.5 ? transform.perspective : end.transform.perspective,
            matrix3D: p < 0.5 ? transform.matrix3D : end.transform.matrix3D)
        s.decomposedTransform = Self.interpolated3D(transform, end.transform, p)
        s.anchorPointZ = lerp(anchorPointZ, end.anchorPointZ, p)
        s.blurRadius = lerp(blurRadius, end.blurRadius, p)
        // A tint fading in or out keeps its colour and changes only its alpha.
        let (tintFrom, tintTo) = (
            blurTint.alpha > 0 ? blurTint : end.blurTint.with(alpha: 0), end.blurTint.alpha > 0 ? end.blurTint : blurTint.with(alpha: 0)
        )
        s.blurTint = tintFrom.interpolated(to: tintTo, p)
        s.backgroundColor = backgroundColor.interpolated(to: end.backgroundColor, p)
        s.overlay = overlay.interpolated(to: end.overlay, p)
        // Gradient stops and colours have no room to overshoot: they follow the progress held to 0...1.
        (s.gradient, s.leavingGradient) = GradientSpec.between(gradient, end.gradient, min(max(p, 0), 1))
        return s.withDiscreteValues(of: end)
    }

    private func withDiscreteValues(of end: ViewState) -> ViewState {
        var s = self
        s.masksToBounds = end.masksToBounds
        s.zPosition = end.zPosition
        s.doubleSided = end.doubleSided
        return s
    }

    /// The state with every property inside its range: a spring or a back
    /// curve carries interpolated values past their ends, which positions,
    /// sizes, scales, radii and rotations may go (they overshoot, as on a
    /// device), but opacities and colour components stay in 0...1 and sizes,
    /// radii and widths at 0 or more. Between two valid states at progress in
    /// 0...1 nothing changes, so v1 scenes keep their bytes.
    func clampedToRanges() -> ViewState {
        func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
        func color(_ c: RGBAColor) -> RGBAColor {
            RGBAColor(red: unit(c.red), green: unit(c.green), blue: unit(c.blue), alpha: unit(c.alpha))
        }
        var s = self
        s.alpha = unit(alpha)
        s.shadowOpacity = unit(shadowOpacity)
        s.size = Size(width: max(size.width, 0), height: max(size.height, 0))
        s.cornerRadius = max(cornerRadius, 0)
        s.borderWidth = max(borderWidth, 0)
        s.shadowRadius = max(shadowRadius, 0)
        s.blurRadius = max(blurRadius, 0)
        s.blurTint = color(blurTint)
        s.borderColor = color(borderColor)
        s.shadowColor = color(shadowColor)
        s.backgroundColor = color(backgroundColor)
        s.overlay = color(overlay)
        return s
    }

    /// Maps the view's local coordinates to its transition superview's.
    var map: PlaneMap {
        ViewGeometry.map(
            size: size, anchorPoint: anchorPoint, anchorZ: anchorPointZ, position: position, transform: transform,
            decomposed: decomposedTransform)
    }

    /// Core Animation's 3-D interpolation (docs/3d.md): when either end is
    /// 3-D, the decomposed parts, the rotation by slerp; nil for two 2-D ends
    /// (Shift's per-component path, so a 720-degree rotate still spins
    /// twice). An end that cannot be decomposed (a singular `matrix3D`)
    /// switches at half way (the per-component `transform`), as no interpolation exists.
    static func interpolated3D(_ a: TransformSpec, _ b: TransformSpec, _ p: Double) -> DecomposedTransform? {
        guard a.is3D || b.is3D else { return nil }
        guard let from = DecomposedTransform(a), let to = DecomposedTransform(b) else {
            return nil  // `transform` holds the nearer end's matrix
        }
        return from.interpolated(to: to, p)
    }

    var effectiveOpacity: Double { min(max(alpha, 0), 1) }
}
