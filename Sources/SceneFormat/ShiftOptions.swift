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

    public init() {}

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
}
