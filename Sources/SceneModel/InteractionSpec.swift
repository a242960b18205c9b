/// A finger that drives the transition and then lets go (`transition.interaction`):
/// what TransitKit's InteractionLine, EasyTransitions' pan controller,
/// LiquidTransition's percent animator, seed 004's edge pan and Hero's
/// `update(progress)` / `finish()` / `cancel()` all script by hand.
///
/// The gesture is the finger's translation along `axis` over time. While it
/// moves, progress p = translation / the canvas extent on that axis seeks the
/// whole transition (every view at p x T); on release, `rule` decides whether
/// the transition finishes or snaps back, from p and the release velocity.
/// docs/interaction.md has the rules, their sources and where we differ.
public struct InteractionSpec: Sendable, Hashable {
    /// The canvas axis the finger drives, and which way is forward along it.
    /// `-x` and `-y` *(ours)*: a finger moving left (up) drives the
    /// transition forward, as EasyTransitions' `.regular(.fromRight)` pan does.
    public enum Axis: String, Sendable, Hashable, CaseIterable {
        case x, y
        case negativeX = "-x"
        case negativeY = "-y"

        /// +1 when a growing translation drives the transition forward, -1 when a shrinking one does.
        public var sign: Double { self == .x || self == .y ? 1 : -1 }
        public var isHorizontal: Bool { self == .x || self == .negativeX }
    }

    /// Where the finger is `time` seconds after it touched: `translation` points along the axis.
    public struct GesturePoint: Sendable, Hashable {
        public var time: Double
        public var translation: Double

        public init(time: Double, translation: Double) {
            self.time = time
            self.translation = translation
        }
    }

    public var axis: Axis
    /// The finger's positions, times strictly increasing, linear in between.
    public var gesture: [GesturePoint]
    /// Points per second along the axis at release, as the gesture's translation
    /// measures them; nil: the slope of the last gesture segment (0 for a one-point gesture).
    public var releaseVelocity: Double?
    public var rule: InteractionRule

    public init(
        axis: Axis = .x, gesture: [GesturePoint], releaseVelocity: Double? = nil, rule: InteractionRule = .easyTransitions
    ) {
        self.axis = axis
        self.gesture = gesture
        self.releaseVelocity = releaseVelocity
        self.rule = rule
    }

    /// The gesture's points as `[time, translation]` pairs, the way a file writes them.
    public init(
        axis: Axis = .x, points pairs: [(time: Double, translation: Double)], releaseVelocity: Double? = nil,
        rule: InteractionRule = .easyTransitions
    ) {
        self.init(
            axis: axis, gesture: pairs.map { GesturePoint(time: $0.0, translation: $0.1) }, releaseVelocity: releaseVelocity,
            rule: rule)
    }

    /// The canvas extent progress is measured over: its width for a horizontal axis, its height otherwise.
    public func extent(of canvas: CanvasSpec) -> Double { axis.isHorizontal ? canvas.width : canvas.height }
}

/// What decides, on release, whether the transition finishes or snaps back.
/// Each named rule is one library's, with its numbers (research/ANCHORS.md, section 2).
public enum InteractionRule: Sendable, Hashable {
    /// EasyTransitions' TransitionInteractiveController: p kept in [0, 0.99];
    /// finish when (p > 0.5 or v > 100) and v > -5; UIKit's completion (speed 1).
    case easyTransitions
    /// swiftui-navigation-transitions: finish when v > 675 or (p >= 0.2 and v > -200);
    /// completion speed min(max(0.99, v / 800), 2.25).
    case navigationTransitions
    /// LiquidTransition's PercentAnimator: finish when p > 0.4 if the finger
    /// stopped, else by the sign of its last speed; the remaining progress
    /// eased by the animator's default timing.
    case liquid
    /// Hero's examples: finish when p + velocity x v / extent > threshold
    /// (`velocity`, in seconds, weighs the release velocity: 1 in Hero's
    /// examples, 0 decides on position alone).
    case threshold(Double, velocity: Double)

    /// The rules a file names by a string.
    public static let names = ["easyTransitions", "navigationTransitions", "liquid"]

    public var name: String {
        switch self {
        case .easyTransitions: return "easyTransitions"
        case .navigationTransitions: return "navigationTransitions"
        case .liquid: return "liquid"
        case .threshold: return "threshold"
        }
    }

    public init?(name: String) {
        switch name {
        case "easyTransitions": self = .easyTransitions
        case "navigationTransitions": self = .navigationTransitions
        case "liquid": self = .liquid
        default: return nil
        }
    }
}
