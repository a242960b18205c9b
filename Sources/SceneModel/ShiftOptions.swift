public import Primitives

/// Shift's per-view options (`view.shift`).
public struct ShiftOptions: Sendable, Hashable {
    public var id: String?
    public var contentAnimation: ContentAnimation = .fade
    public var contentSizing: ContentSizing = .stretch
    public var superview: SuperviewChoice = .parent
    public var position: Position = .auto
    public var isHidden: Bool = false
    public var animations: [AdditionalAnimation] = []
    /// The view's own duration, delay, curve, cascade, arc and keyframes (unset: the transition's).
    public var timing = TimingOptions()

    public init(
        id: String? = nil, contentAnimation: ContentAnimation = .fade, contentSizing: ContentSizing = .stretch,
        superview: SuperviewChoice = .parent, position: Position = .auto, isHidden: Bool = false,
        animations: [AdditionalAnimation] = [], timing: TimingOptions = TimingOptions()
    ) {
        self.id = id
        self.contentAnimation = contentAnimation
        self.contentSizing = contentSizing
        self.superview = superview
        self.position = position
        self.isHidden = isHidden
        self.animations = animations
        self.timing = timing
    }

    public enum ContentAnimation: String, Sendable, CaseIterable { case fade, final }
    public enum ContentSizing: String, Sendable, CaseIterable { case stretch, final }
    public enum SuperviewChoice: String, Sendable, CaseIterable { case parent, container }
    public enum Position: String, Sendable, CaseIterable { case auto, front, back }
}

/// One entry of `shift.animations`: a change to one property, under an optional condition.
public struct AdditionalAnimation: Sendable, Hashable {
    public var change: PropertyChange
    public var condition: Condition?

    public init(_ change: PropertyChange, when condition: Condition? = nil) {
        self.change = change
        self.condition = condition
    }

    /// Shift's `Condition`: which mode of the transition the animation applies in.
    public enum Condition: String, Sendable, CaseIterable { case onAppear, onDisappear }
}

/// Shift's animation vocabulary (`Animations.swift`), plus Hero's `rotate`.
public enum PropertyChange: Sendable, Hashable {
    case fade
    case scale(Double)
    /// Added to the position: Shift's `move(.right(150))` is `dx = -150`.
    case move(dx: Double, dy: Double)
    case bounds(Rect)
    case alpha(Double)
    case opacity(Double)
    case cornerRadius(Double)
    case anchorPoint(Point)
    case zPosition(Double)
    case masksToBounds(Bool)
    case borderColor(RGBAColor)
    case borderWidth(Double)
    case shadowColor(RGBAColor)
    case shadowOffset(Size)
    case shadowRadius(Double)
    case shadowOpacity(Double)
    case transform(TransformSpec)
    case backgroundColor(RGBAColor)
    /// Degrees added to the rotation.
    case rotate(Double)

    /// The property's name, as the scene format and Shift spell it.
    public var name: String {
        switch self {
        case .fade: return "fade"
        case .scale: return "scale"
        case .move: return "move"
        case .bounds: return "bounds"
        case .alpha: return "alpha"
        case .opacity: return "opacity"
        case .cornerRadius: return "cornerRadius"
        case .anchorPoint: return "anchorPoint"
        case .zPosition: return "zPosition"
        case .masksToBounds: return "masksToBounds"
        case .borderColor: return "borderColor"
        case .borderWidth: return "borderWidth"
        case .shadowColor: return "shadowColor"
        case .shadowOffset: return "shadowOffset"
        case .shadowRadius: return "shadowRadius"
        case .shadowOpacity: return "shadowOpacity"
        case .transform: return "transform"
        case .backgroundColor: return "backgroundColor"
        case .rotate: return "rotate"
        }
    }
}
