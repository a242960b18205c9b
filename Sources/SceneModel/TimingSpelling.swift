// The timing keys in Swift: the same words on a view (its own timing, the
// file's `shift.duration`...) and on a scene (the transition's, the default
// for every view), named as the scene format's keys and, for springs and
// cascades, as the systems they come from spell them:
//
//     View(frame: ...)
//         .duration(0.5).delay(0.1).curve(.easeOutBack)
//         .spring(response: 0.4, dampingFraction: 0.7)        // SwiftUI
//         .spring(stiffness: 250, damping: 30)                 // CASpringAnimation, Hero
//         .cascade(delta: 0.03, direction: .leftToRight)       // Hero
//         .arc()                                               // Hero, intensity 1
//         .keyframes(.cornerRadius([0: 20, 1: 0]), .alpha([0: 1, 0.5: 0.2, 1: 1]))
//
// Keyframes are written as `stop: value` literals (`KeyValuePairs`, which
// keep their order and allow a stop twice: a step). Each modifier sets one
// key and returns a copy; nothing is checked here (`SceneValidator` reports
// bad values at the places a file would name).

public import Primitives

extension View {
    /// Seconds the view animates for, replacing Shift's duration formula (nil: the transition's, else the formula).
    public func duration(_ seconds: Double?) -> View { with { $0.shift.timing.duration = seconds } }
    /// Seconds before the view starts (nil: the transition's, else 0).
    public func delay(_ seconds: Double?) -> View { with { $0.shift.timing.delay = seconds } }
    /// The view's timing curve (nil: the transition's, else Shift's `standard`).
    public func curve(_ curve: CurveSpec?) -> View { with { $0.shift.timing.curve = curve } }
    /// A named curve: `.curve(.easeInOutCubic)`.
    public func curve(_ name: NamedCurve) -> View { curve(.named(name)) }
    /// SwiftUI's `spring(response:dampingFraction:)`; Apple's defaults.
    public func spring(response: Double = 0.5, dampingFraction: Double = 0.825) -> View {
        curve(.spring(response: response, dampingFraction: dampingFraction))
    }
    /// SwiftUI's `spring(duration:bounce:)`; Apple's defaults.
    public func spring(duration: Double = 0.5, bounce: Double = 0) -> View { curve(.spring(duration: duration, bounce: bounce)) }
    /// CASpringAnimation's (Hero's `.spring(stiffness:damping:)`); Core Animation's defaults for mass and velocity.
    public func spring(stiffness: Double, damping: Double, mass: Double = 1, initialVelocity: Double = 0) -> View {
        curve(.spring(stiffness: stiffness, damping: damping, mass: mass, initialVelocity: initialVelocity))
    }
    /// UIViewPropertyAnimator's `init(duration:dampingRatio:)`: the spring takes the view's duration.
    public func spring(dampingRatio: Double) -> View { curve(.spring(dampingRatio: dampingRatio)) }
    /// Hero's cascade: the view's transient descendants start `delta` seconds apart; Hero's defaults.
    public func cascade(delta: Double = 0.02, direction: CascadeDirection = .topToBottom, delayMatchedViews: Bool = false) -> View {
        cascade(CascadeSpec(delta: delta, direction: direction, delayMatchedViews: delayMatchedViews))
    }
    /// A copy with `cascade` (nil: none).
    public func cascade(_ cascade: CascadeSpec?) -> View { with { $0.shift.timing.cascade = cascade } }
    /// Hero's arc: the position follows a curve of this intensity in 0...1 (nil: a straight line).
    public func arc(_ intensity: Double? = 1) -> View { with { $0.shift.timing.arc = intensity } }
    /// Properties as piecewise-linear functions of the view's curved progress, replacing the ones it had.
    public func keyframes(_ tracks: [KeyframeTrack]) -> View { with { $0.shift.timing.keyframes = tracks } }
    public func keyframes(_ tracks: KeyframeTrack...) -> View { keyframes(tracks) }
    /// A copy with every timing key replaced by `timing`.
    public func timing(_ timing: TimingOptions) -> View { with { $0.shift.timing = timing } }
}

// The transition's timing: the default for every view that does not set the key itself.
extension Scene {
    /// Every view's duration unless it sets its own, replacing Shift's formula.
    public func duration(_ seconds: Double?) -> Scene { with { $0.transition.timing.duration = seconds } }
    public func delay(_ seconds: Double?) -> Scene { with { $0.transition.timing.delay = seconds } }
    public func curve(_ curve: CurveSpec?) -> Scene { with { $0.transition.timing.curve = curve } }
    public func curve(_ name: NamedCurve) -> Scene { curve(.named(name)) }
    public func spring(response: Double = 0.5, dampingFraction: Double = 0.825) -> Scene {
        curve(.spring(response: response, dampingFraction: dampingFraction))
    }
    public func spring(duration: Double = 0.5, bounce: Double = 0) -> Scene { curve(.spring(duration: duration, bounce: bounce)) }
    public func spring(stiffness: Double, damping: Double, mass: Double = 1, initialVelocity: Double = 0) -> Scene {
        curve(.spring(stiffness: stiffness, damping: damping, mass: mass, initialVelocity: initialVelocity))
    }
    public func spring(dampingRatio: Double) -> Scene { curve(.spring(dampingRatio: dampingRatio)) }
    public func cascade(delta: Double = 0.02, direction: CascadeDirection = .topToBottom, delayMatchedViews: Bool = false) -> Scene {
        cascade(CascadeSpec(delta: delta, direction: direction, delayMatchedViews: delayMatchedViews))
    }
    public func cascade(_ cascade: CascadeSpec?) -> Scene { with { $0.transition.timing.cascade = cascade } }
    public func arc(_ intensity: Double? = 1) -> Scene { with { $0.transition.timing.arc = intensity } }
    public func keyframes(_ tracks: [KeyframeTrack]) -> Scene { with { $0.transition.timing.keyframes = tracks } }
    public func keyframes(_ tracks: KeyframeTrack...) -> Scene { keyframes(tracks) }
    public func timing(_ timing: TimingOptions) -> Scene { with { $0.transition.timing = timing } }
}

extension CurveSpec {
    /// `cubic-bezier(x1, y1, x2, y2)`, as CSS and `CAMediaTimingFunction(controlPoints:)` write it.
    public static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> CurveSpec {
        .cubicBezier(TimingCurve(x1, y1, x2, y2))
    }
    public static func spring(response: Double, dampingFraction: Double) -> CurveSpec {
        .spring(.response(response: response, dampingFraction: dampingFraction))
    }
    public static func spring(duration: Double, bounce: Double) -> CurveSpec {
        .spring(.durationBounce(duration: duration, bounce: bounce))
    }
    public static func spring(stiffness: Double, damping: Double, mass: Double = 1, initialVelocity: Double = 0) -> CurveSpec {
        .spring(.physical(stiffness: stiffness, damping: damping, mass: mass, initialVelocity: initialVelocity))
    }
    public static func spring(dampingRatio: Double) -> CurveSpec { .spring(.dampingRatio(dampingRatio)) }
}

/// One track per property, its stops written `stop: value` in order:
/// `.alpha([0: 1, 0.5: 0.2, 1: 1])`, `.translate([0: .zero, 0.5: Point(x: 0, y: -40), 1: .zero])`.
extension KeyframeTrack {
    static func numbers(_ property: KeyframeProperty, _ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack {
        KeyframeTrack(property, stops.map { KeyframeStop(at: $0.key, .number($0.value)) })
    }
    static func points(_ property: KeyframeProperty, _ stops: KeyValuePairs<Double, Point>) -> KeyframeTrack {
        KeyframeTrack(property, stops.map { KeyframeStop(at: $0.key, .pair($0.value.x, $0.value.y)) })
    }
    static func sizes(_ property: KeyframeProperty, _ stops: KeyValuePairs<Double, Size>) -> KeyframeTrack {
        KeyframeTrack(property, stops.map { KeyframeStop(at: $0.key, .pair($0.value.width, $0.value.height)) })
    }
    static func colors(_ property: KeyframeProperty, _ stops: KeyValuePairs<Double, RGBAColor>) -> KeyframeTrack {
        KeyframeTrack(property, stops.map { KeyframeStop(at: $0.key, .color($0.value)) })
    }

    public static func alpha(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.alpha, stops) }
    public static func opacity(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.opacity, stops) }
    public static func cornerRadius(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.cornerRadius, stops) }
    public static func borderWidth(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.borderWidth, stops) }
    public static func borderColor(_ stops: KeyValuePairs<Double, RGBAColor>) -> KeyframeTrack { colors(.borderColor, stops) }
    public static func backgroundColor(_ stops: KeyValuePairs<Double, RGBAColor>) -> KeyframeTrack { colors(.backgroundColor, stops) }
    public static func shadowColor(_ stops: KeyValuePairs<Double, RGBAColor>) -> KeyframeTrack { colors(.shadowColor, stops) }
    public static func shadowOpacity(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.shadowOpacity, stops) }
    public static func shadowRadius(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.shadowRadius, stops) }
    public static func shadowOffset(_ stops: KeyValuePairs<Double, Size>) -> KeyframeTrack { sizes(.shadowOffset, stops) }
    /// `layer.position` in the view's transition superview, in points.
    public static func position(_ stops: KeyValuePairs<Double, Point>) -> KeyframeTrack { points(.position, stops) }
    /// The bounds' size, in points.
    public static func size(_ stops: KeyValuePairs<Double, Size>) -> KeyframeTrack { sizes(.size, stops) }
    /// The transform's translation, in points.
    public static func translate(_ stops: KeyValuePairs<Double, Point>) -> KeyframeTrack { points(.translate, stops) }
    /// The transform's scale, per axis.
    public static func scale(_ stops: KeyValuePairs<Double, Size>) -> KeyframeTrack { sizes(.scale, stops) }
    /// The transform's scale, the same factor on both axes.
    public static func scale(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack {
        KeyframeTrack(.scale, stops.map { KeyframeStop(at: $0.key, .pair($0.value, $0.value)) })
    }
    /// The transform's rotation, in degrees.
    public static func rotate(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.rotate, stops) }
    public static func anchorPoint(_ stops: KeyValuePairs<Double, Point>) -> KeyframeTrack { points(.anchorPoint, stops) }
    /// Degrees about the view's horizontal axis.
    public static func rotateX(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.rotateX, stops) }
    /// Degrees about the view's vertical axis.
    public static func rotateY(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.rotateY, stops) }
    /// Points toward the viewer.
    public static func translateZ(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.translateZ, stops) }
    /// The eye's distance in points.
    public static func perspective(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.perspective, stops) }
    /// The backdrop blur's radius in points.
    public static func blurRadius(_ stops: KeyValuePairs<Double, Double>) -> KeyframeTrack { numbers(.blurRadius, stops) }
}
