public import Primitives
@_exported public import Timing

/// When and how a view moves: the keys of the contract's "Timing" section.
/// On a view's `shift` they are the view's own; on `transition` they are the
/// default for every view (a view's own value wins, key by key). All nil
/// (and `cascade`, `arc`, `keyframes` absent) is format v1: Shift's duration
/// formula, no delay, Shift's curve.
public struct TimingOptions: Sendable, Hashable {
    /// Seconds; replaces Shift's duration formula.
    public var duration: Double?
    /// Seconds before the view starts.
    public var delay: Double?
    public var curve: CurveSpec?
    /// Hero's cascade: the view's transient descendants start one after another.
    public var cascade: CascadeSpec?
    /// Hero's arc intensity in 0...1 (`true` in a file is 1): the position
    /// follows a quadratic Bézier instead of a straight line.
    public var arc: Double?
    /// Properties as piecewise-linear functions of the view's curved progress.
    public var keyframes: [KeyframeTrack]

    public init(
        duration: Double? = nil, delay: Double? = nil, curve: CurveSpec? = nil, cascade: CascadeSpec? = nil,
        arc: Double? = nil, keyframes: [KeyframeTrack] = []
    ) {
        self.duration = duration
        self.delay = delay
        self.curve = curve
        self.cascade = cascade
        self.arc = arc
        self.keyframes = keyframes
    }

    /// Whether nothing is set (a v1 view or transition).
    public var isEmpty: Bool { self == TimingOptions() }

    /// These options with every unset key taken from `defaults`.
    public func over(_ defaults: TimingOptions) -> TimingOptions {
        TimingOptions(
            duration: duration ?? defaults.duration, delay: delay ?? defaults.delay, curve: curve ?? defaults.curve,
            cascade: cascade ?? defaults.cascade, arc: arc ?? defaults.arc,
            keyframes: keyframes.isEmpty ? defaults.keyframes : keyframes)
    }
}

/// Hero's `cascade(delta:direction:delayMatchedViews:)`.
public struct CascadeSpec: Sendable, Hashable {
    /// Seconds between one view's start and the next one's.
    public var delta: Double
    public var direction: CascadeDirection
    /// Whether matched views wait until the whole cascade has started (Hero).
    public var delayMatchedViews: Bool

    public init(delta: Double = 0.02, direction: CascadeDirection = .topToBottom, delayMatchedViews: Bool = false) {
        self.delta = delta
        self.direction = direction
        self.delayMatchedViews = delayMatchedViews
    }
}

/// Hero's `CascadeDirection`: the order in which a cascade starts its views.
public enum CascadeDirection: String, Sendable, Hashable, CaseIterable {
    /// By frame minY, smallest first.
    case topToBottom
    /// By frame maxY, largest first (ties: larger maxX first).
    case bottomToTop
    /// By frame minX, smallest first.
    case leftToRight
    /// By frame maxX, largest first.
    case rightToLeft
    /// By the distance of the view's centre from the cascading view's centre, nearest first.
    case radial
    /// Farthest first.
    case inverseRadial
}

/// One property's keyframes: (stop, value) pairs with stops in 0...1, in order.
public struct KeyframeTrack: Sendable, Hashable {
    public var property: KeyframeProperty
    public var stops: [KeyframeStop]
    /// Whether the track plays from its last stop to its first: evaluated at
    /// 1 - progress, as LiquidTransition hands `addCustomAnimation` 1 - p on
    /// the way back. `Scene.reversed()` sets it; a flag rather than mirrored
    /// stops keeps a step's instant exact and reversing twice lossless
    /// (1 - (1 - 0.1) is not 0.1 in binary).
    public var playsBackward: Bool

    public init(_ property: KeyframeProperty, _ stops: [KeyframeStop], playsBackward: Bool = false) {
        self.property = property
        self.stops = stops
        self.playsBackward = playsBackward
    }

    /// The same track played the other way.
    public var playedBackward: KeyframeTrack {
        KeyframeTrack(property, stops, playsBackward: !playsBackward)
    }

    /// The stops as they play: mirrored (1 - stop, last first) when the track plays backward,
    /// which is how a scene written by hand for the way back would give them.
    public var stopsAsPlayed: [KeyframeStop] {
        playsBackward ? stops.reversed().map { KeyframeStop(at: 1 - $0.at, $0.value) } : stops
    }
}

public struct KeyframeStop: Sendable, Hashable {
    /// Where in the view's curved progress (0...1) the value holds.
    public var at: Double
    public var value: KeyframeValue

    public init(at: Double, _ value: KeyframeValue) {
        self.at = at
        self.value = value
    }
}

/// A keyframe's value: the kind its property takes (`KeyframeProperty.kind`).
public enum KeyframeValue: Sendable, Hashable {
    case number(Double)
    /// A point or a size: position, translate, anchorPoint, size, shadowOffset, scale (x, y).
    case pair(Double, Double)
    case color(RGBAColor)
}

/// The properties keyframes may drive, named as the view's keys and Shift's animations.
public enum KeyframeProperty: String, Sendable, Hashable, CaseIterable {
    case alpha, opacity, cornerRadius, borderWidth, borderColor, backgroundColor
    case shadowColor, shadowOpacity, shadowRadius, shadowOffset
    /// `layer.position` in the view's transition superview (the canvas for container views), in points.
    case position
    /// The bounds' size, in points.
    case size
    /// The transform's components: translation in points, scale factors, rotation in degrees.
    case translate, scale, rotate
    case anchorPoint
    /// The transform's 3-D components (`TransformSpec`): degrees, points, the eye's distance in points.
    case rotateX, rotateY, translateZ, perspective
    /// The backdrop blur's radius in points (`BlurSpec.radius`).
    case blurRadius

    public enum Kind: Sendable { case number, pair, color }

    public var kind: Kind {
        switch self {
        case .alpha, .opacity, .cornerRadius, .borderWidth, .shadowOpacity, .shadowRadius, .rotate: return .number
        case .rotateX, .rotateY, .translateZ, .perspective, .blurRadius: return .number
        case .borderColor, .backgroundColor, .shadowColor: return .color
        case .shadowOffset, .position, .size, .translate, .scale, .anchorPoint: return .pair
        }
    }
}
