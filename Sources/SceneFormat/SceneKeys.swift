import SceneModel

/// Every key the scene decoder knows, by kind of object. The decoder checks
/// objects against these lists (an unknown key is an error with a "did you
/// mean" hint), and a test compares them, both ways, with the `properties` of
/// schema/scene.schema.json, so the JSON Schema and the decoder cannot drift.
enum SceneKeys {
    /// The top-level object. `$schema` lets editors find the JSON Schema.
    static let scene = ["version", "canvas", "fps", "transition", "from", "to", "$schema"]
    static let canvas = ["width", "height", "scale", "background"]
    static let transition =
        ["direction", "baselineDuration", "viewOrder", "defaultAnimation", "hold", "roundtripPause"] + timing + [
            "navigation", "presentation", "interaction",
        ]
    static let hold = ["before", "after"]
    /// `transition.defaultAnimation` written as an object: `{"scale": "up" | "down" | number}`.
    static let defaultAnimation = ["scale"]
    static let view = [
        "name", "frame", "backgroundColor", "alpha", "cornerRadius", "masksToBounds", "borderWidth",
        "borderColor", "shadow", "transform", "anchorPoint", "zPosition", "isHidden", "image",
        "contentMode", "text", "shift", "subviews",
        "gradient", "doubleSided", "blur",
    ]
    /// A view's `text` written as an object (it may also be a bare string).
    static let text = [
        "string", "font", "color", "alignment", "numberOfLines", "lineBreakMode", "lineHeightMultiple", "letterSpacing",
    ]
    /// `text.font` written as an object (it may also be a text style's name).
    static let font = ["family", "file", "size", "weight", "italic"]
    static let shadow = ["color", "opacity", "radius", "offset"]
    /// CAGradientLayer's properties.
    static let gradient = ["type", "colors", "locations", "startPoint", "endPoint"]
    static let transform = ["translate", "scale", "rotate", "rotateX", "rotateY", "translateZ", "perspective", "matrix3D"]
    /// A view's backdrop blur (UIVisualEffectView with a UIBlurEffect).
    static let blur = ["style", "radius"]
    static let shift = ["id", "contentAnimation", "contentSizing", "superview", "position", "isHidden", "animations"] + timing
    /// The timing keys, the same on a view's `shift` and on `transition` (the default for every view).
    static let timing = ["duration", "delay", "curve", "cascade", "arc", "keyframes"]
    /// A `curve` written as an object: one of these keys.
    static let curveFunction = ["cubicBezier", "spring"]
    /// The four ways to spell a spring, by the system that spells it so; a spring uses the keys of one.
    static let springSpellings: [(system: String, keys: [String])] = [
        ("SwiftUI", ["response", "dampingFraction"]),
        ("SwiftUI", ["duration", "bounce"]),
        ("CASpringAnimation", ["stiffness", "damping", "mass", "initialVelocity"]),
        ("UIViewPropertyAnimator", ["dampingRatio"]),
    ]
    static let spring = springSpellings.flatMap(\.keys)
    /// `cascade` written as an object (Hero's `cascade(delta:direction:delayMatchedViews:)`).
    static let cascade = ["delta", "direction", "delayMatchedViews"]
    /// The properties `keyframes` may drive.
    static let keyframes = KeyframeProperty.allCases.map(\.rawValue)
    /// The animation names of `shift.animations` (Shift's vocabulary plus Hero's `rotate`).
    static let animationNames = [
        "fade", "scale", "move", "bounds", "alpha", "opacity", "cornerRadius", "anchorPoint", "zPosition",
        "masksToBounds", "borderColor", "borderWidth", "shadowColor", "shadowOffset", "shadowRadius",
        "shadowOpacity", "transform", "backgroundColor", "rotate",
    ]
    /// An entry of `shift.animations` written as an object: one animation name and an optional `when`.
    static let animation = animationNames + ["when"]
    static let move = ["up", "down", "left", "right", "x", "y"]

    /// `transition.navigation` written as a string.
    static let navigationNames = ["default", "slide", "zoom", "zoomOut"]
    /// `transition.navigation` written as an object naming a built-in: exactly one of these keys (seed 004's and Hero's).
    static let navigationBuiltIn = [
        "slide", "fade", "push", "pull", "cover", "uncover", "zoomSlide", "pageIn", "pageOut", "flip", "cube",
    ]
    /// Hero's types that take a direction.
    static let heroDirected = ["push", "pull", "cover", "uncover", "slide", "zoomSlide", "pageIn", "pageOut"]
    /// Our 3-D built-ins (docs/3d.md), which take a direction as Hero's types do.
    static let depthDirected = ["flip", "cube"]
    /// `transition.navigation` composed of atomic transitions, the same for push and pop (or mirrored).
    static let composedNavigation = ["insertion", "removal", "mirror"]
    /// `transition.navigation` composed per operation: `push` (an object here) and `pop`.
    static let asymmetricNavigation = ["push", "pop"]
    /// Every key a `transition.navigation` object may hold, in whichever form.
    static let navigation = navigationBuiltIn + composedNavigation + ["pop"]
    /// What the inserted and the removed root do (`push` and `pop` in the asymmetric form).
    static let rootTransitions = ["insertion", "removal"]
    /// seed 004's atomic transitions written as a string.
    static let atomicNames = ["opacity", "bringToFront", "sendToBack", "identity"]
    /// seed 004's atomic transitions written as an object: exactly one of these keys.
    static let atomic = ["move", "offset", "rotate", "rotate3D", "scale", "zPosition"]
    static let rotate3D = ["angle", "axis", "perspective"]
    static let presentation = ["style", "dimming"]
    /// A finger that drives the transition, then lets go.
    static let interaction = ["axis", "gesture", "releaseVelocity", "rule"]
    /// `interaction.rule` written as an object (Hero's examples' test).
    static let thresholdRule = ["threshold", "velocity"]
    /// `presentation.dimming` written as an object.
    static let dimming = ["color", "opacity"]
}
