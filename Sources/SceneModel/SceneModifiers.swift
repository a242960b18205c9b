// The scene-level half of the Swift spelling: what Shift keeps on
// `viewController.shift` (`baselineDuration`, `viewOrder`,
// `defaultAnimation = DefaultAnimations.Scale(.down)`), plus what a video
// needs that a live transition does not (direction, holds, fps, canvas).
//
// A scene is written as one expression, the two screens first and the
// transition's options chained after, in the style of the view modifiers:
//
//     Scene(canvas: CanvasSpec(width: 390, height: 844, scale: 2), from: list, to: detail)
//         .baselineDuration(0.4)
//         .defaultAnimation(.scale(.down))
//
// Each modifier changes one property and returns a copy; the stored
// properties (`scene.transition.viewOrder = ...`) work as before. Nothing is
// checked here: `SceneValidator` reports bad values with their places.

public import Primitives

extension Scene {
    public func version(_ version: Int) -> Scene { with { $0.version = version } }
    public func canvas(_ canvas: CanvasSpec) -> Scene { with { $0.canvas = canvas } }
    /// Frames per second of the output.
    public func fps(_ fps: Double) -> Scene { with { $0.fps = fps } }
    /// A copy with the whole transition replaced.
    public func transition(_ transition: TransitionSpec) -> Scene { with { $0.transition = transition } }
    public func direction(_ direction: TransitionDirection) -> Scene { with { $0.transition.direction = direction } }
    /// Shift's `baselineDuration`, in seconds.
    public func baselineDuration(_ seconds: Double) -> Scene { with { $0.transition.baselineDuration = seconds } }
    /// Shift's `viewOrder`.
    public func viewOrder(_ order: ViewOrder) -> Scene { with { $0.transition.viewOrder = order } }
    /// Shift's `defaultAnimation`: `.fade`, `.none`, `.scale(.down)`, `.scale(.up)` or `.scale(1.3)`.
    public func defaultAnimation(_ animation: DefaultAnimation) -> Scene {
        with { $0.transition.defaultAnimation = animation }
    }
    /// Still time before and after the motion, in seconds; only the ones given change.
    public func hold(before: Double? = nil, after: Double? = nil) -> Scene {
        with { scene in
            if let before { scene.transition.holdBefore = before }
            if let after { scene.transition.holdAfter = after }
        }
    }
    /// For a roundtrip: still time between the present and the dismiss, in seconds.
    public func roundtripPause(_ seconds: Double) -> Scene { with { $0.transition.roundtripPause = seconds } }
    /// A finger that drives the transition, then lets go (docs/interaction.md); nil: it plays by itself.
    public func interaction(_ interaction: InteractionSpec?) -> Scene { with { $0.transition.interaction = interaction } }
    /// The folder relative image paths resolve against (nil: the current directory).
    public func directory(_ directory: String?) -> Scene { with { $0.directory = directory } }

    /// The same two screens played the other way round, so that one scene
    /// gives both halves of a push: a `present` from `list` to `detail`
    /// becomes a `dismiss` from `detail` to `list`, and the other way. `from`
    /// and `to` stay Shift's Animator arguments (the screen left, the screen
    /// arrived at), so the reversed scene is exactly the one a person would
    /// write by hand for the other direction.
    ///
    /// The holds swap (`hold.before` becomes `hold.after`), because each still
    /// shows a screen: the screen that was held at the end is now held at the
    /// start, for as long. A `roundtrip` (from -> to -> from) reads the same
    /// both ways, so only its holds swap. Reversing twice gives the scene back.
    /// Keyframes play backward (`KeyframeTrack.playsBackward`: evaluated at
    /// 1 - progress), so a keyframed transition and its way back are mirror
    /// images where the curve is symmetric; a roundtrip's dismiss already
    /// plays them so. Everything else (view order, default animation,
    /// timing) is an option of the pair, not of a direction, and stays as written.
    public func reversed() -> Scene {
        with { scene in
            swap(&scene.transition.holdBefore, &scene.transition.holdAfter)
            switch scene.transition.direction {
            case .present, .dismiss:
                swap(&scene.from, &scene.to)
                scene.transition.direction = scene.transition.direction == .present ? .dismiss : .present
                scene.transition.timing.keyframes = scene.transition.timing.keyframes.map(\.playedBackward)
                Self.playKeyframesBackward(in: &scene.from)
                Self.playKeyframesBackward(in: &scene.to)
            case .roundtrip:
                break
            }
        }
    }

    private static func playKeyframesBackward(in view: inout View) {
        view.shift.timing.keyframes = view.shift.timing.keyframes.map(\.playedBackward)
        for i in view.subviews.indices { playKeyframesBackward(in: &view.subviews[i]) }
    }

    /// A copy changed by `change`, for anything set imperatively.
    public func with(_ change: (inout Scene) -> Void) -> Scene {
        var copy = self
        change(&copy)
        return copy
    }
}

extension DefaultAnimation {
    /// Shift's `DefaultAnimations.Scale.Direction`.
    public enum ScaleDirection: Sendable, Hashable {
        /// Shift's `.up`: `DefaultAnimation.scaleUp`, factor 0.7.
        case up
        /// Shift's `.down`: `DefaultAnimation.scaleDown`, factor 1.7.
        case down
    }

    /// Shift's `DefaultAnimations.Scale(.down)` and `.Scale(.up)`: `.scale(.down)`.
    public static func scale(_ direction: ScaleDirection) -> DefaultAnimation {
        direction == .down ? .scaleDown : .scaleUp
    }
}

extension TransformSpec {
    /// The same factor on both axes.
    public init(scale factor: Double) {
        self.init(scale: Size(width: factor, height: factor))
    }

    /// UIKit's `CGAffineTransform(scaleX:y:)`.
    public init(scaleX: Double, y: Double) {
        self.init(scale: Size(width: scaleX, height: y))
    }

    /// UIKit's `CGAffineTransform(translationX:y:)`, in points.
    public init(translationX: Double, y: Double) {
        self.init(translate: Point(x: translationX, y: y))
    }

    /// A rotation by `degrees`, clockwise on screen. Degrees, not UIKit's
    /// radians, because the scene format and its messages use degrees.
    public init(rotationDegrees degrees: Double) {
        self.init(rotate: degrees)
    }

    /// A turn of `degrees` about the view's horizontal axis (a positive angle brings the bottom edge
    /// toward the viewer), seen from `perspective` points away (nil: orthographic, the turn only squashes).
    public init(rotationXDegrees degrees: Double, perspective: Double? = nil) {
        self.init(rotateX: degrees, perspective: perspective)
    }

    /// A turn of `degrees` about the view's vertical axis (a positive angle takes the right edge away),
    /// seen from `perspective` points away: `TransformSpec(rotationYDegrees: 30, perspective: 500)`.
    public init(rotationYDegrees degrees: Double, perspective: Double? = nil) {
        self.init(rotateY: degrees, perspective: perspective)
    }

    /// Core Animation's `CATransform3DMakeTranslation(tx, ty, tz)`, in points (z toward the viewer).
    public init(translationX: Double, y: Double, z: Double) {
        self.init(translate: Point(x: translationX, y: y), translateZ: z)
    }

    /// The whole transform as a `CATransform3D` (`Transform3D`: row-vector order, m11 ... m44).
    public init(matrix3D: Transform3D) {
        self.init(matrix3D: matrix3D.values)
    }

    /// A copy seen from `distance` points away (`m34 = -1 / distance`; nil: none), as Core Animation
    /// code sets `transform.m34` by hand before rotating.
    public func perspective(_ distance: Double?) -> TransformSpec {
        var copy = self
        copy.perspective = distance
        return copy
    }
}

extension RGBAColor {
    /// A colour from a hex literal, `RGBAColor(rgb: 0xF2F2F7)`: sRGB, opaque
    /// unless `alpha` says otherwise. The hex form that cannot be mistyped
    /// into a crash; `RGBAColor(hex: "#F2F2F7")` reads strings and returns nil
    /// for bad ones. A value over 0xFFFFFF (a digit too many) gives an invalid
    /// colour (NaN components), which `SceneValidator` reports at its place.
    public init(rgb: UInt32, alpha: Double = 1) {
        guard rgb <= 0xFF_FFFF else {
            self.init(red: .nan, green: .nan, blue: .nan, alpha: alpha)
            return
        }
        self.init(
            red: Double(rgb >> 16 & 0xFF) / 255, green: Double(rgb >> 8 & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    /// A colour from `0xRRGGBBAA`, as the format's `#RRGGBBAA`.
    public init(rgba: UInt32) {
        self.init(
            red: Double(rgba >> 24 & 0xFF) / 255, green: Double(rgba >> 16 & 0xFF) / 255,
            blue: Double(rgba >> 8 & 0xFF) / 255, alpha: Double(rgba & 0xFF) / 255)
    }

    /// UIKit's `UIColor(white:alpha:)`: a grey, 0 black to 1 white.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }
}
