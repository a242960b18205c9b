// Shift's additional animations, spelled as Shift spells them.
//
// Shift writes `view.shift.animations.fade().move(.right(150))` on a class
// (`Animations`) whose methods append and return `self`. The model keeps
// `shift.animations` a plain `[AdditionalAnimation]` (a value, comparable and
// `Sendable`), so the same words come in two value forms:
//
//   - a list:   `animations: [.fade, .move(.right(150)), .scale(2, .onAppear)]`
//   - a chain:  `view.shift.animations = .init().fade().move(.right(150))`
//
// The chain's methods return a new array instead of appending in place: an
// in-place chain is impossible on a value (a call's result is not a
// variable), and a bare `view.shift.animations.fade()` statement, which in
// Shift appends, here gets the compiler's "result unused" warning instead
// of silently doing nothing. `+=` appends: `view.shift.animations += [.fade]`.
//
// Directions follow Shift: `.move(.right(150))` means the view travels 150
// points to the right, so it comes FROM 150 points to the left:
// `.move(dx: -150, dy: 0)`; up adds to y, down subtracts, left adds to x.

public import Primitives

extension AdditionalAnimation {
    /// Shift's `Animations.Direction`: which way the view travels, and how far, in points.
    public enum Direction: Sendable, Hashable {
        case up(Double)
        case down(Double)
        case left(Double)
        case right(Double)

        /// What `move` adds to the position (Shift's arithmetic: right 150 is x - 150).
        public var offset: (dx: Double, dy: Double) {
            switch self {
            case .up(let n): return (0, n)
            case .down(let n): return (0, -n)
            case .left(let n): return (n, 0)
            case .right(let n): return (-n, 0)
            }
        }
    }

    /// Fades the view in or out, in every mode.
    public static var fade: AdditionalAnimation { AdditionalAnimation(.fade) }
    /// Fades the view in or out when `condition` holds.
    public static func fade(_ condition: Condition?) -> AdditionalAnimation { AdditionalAnimation(.fade, when: condition) }
    public static func scale(_ factor: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.scale(factor), when: condition)
    }
    public static func move(_ direction: Direction, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.move(direction), when: condition)
    }
    /// Adds `x` and `y` to the position (Shift's `move(x:y:)`).
    public static func move(x: Double, y: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.move(dx: x, dy: y), when: condition)
    }
    public static func bounds(_ bounds: Rect, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.bounds(bounds), when: condition)
    }
    /// Bounds of `size` at the origin (the file's `[width, height]` form).
    public static func bounds(_ size: Size, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.bounds(Rect(origin: .zero, size: size)), when: condition)
    }
    public static func alpha(_ alpha: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.alpha(alpha), when: condition)
    }
    public static func opacity(_ opacity: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.opacity(opacity), when: condition)
    }
    public static func cornerRadius(_ radius: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.cornerRadius(radius), when: condition)
    }
    public static func anchorPoint(_ point: Point, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.anchorPoint(point), when: condition)
    }
    public static func zPosition(_ z: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.zPosition(z), when: condition)
    }
    public static func masksToBounds(_ masks: Bool, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.masksToBounds(masks), when: condition)
    }
    public static func borderColor(_ color: RGBAColor, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.borderColor(color), when: condition)
    }
    public static func borderWidth(_ width: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.borderWidth(width), when: condition)
    }
    public static func shadowColor(_ color: RGBAColor, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.shadowColor(color), when: condition)
    }
    public static func shadowOffset(_ offset: Size, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.shadowOffset(offset), when: condition)
    }
    public static func shadowRadius(_ radius: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.shadowRadius(radius), when: condition)
    }
    public static func shadowOpacity(_ opacity: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.shadowOpacity(opacity), when: condition)
    }
    public static func transform(_ transform: TransformSpec, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.transform(transform), when: condition)
    }
    public static func backgroundColor(_ color: RGBAColor, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.backgroundColor(color), when: condition)
    }
    /// Degrees added to the rotation (Hero's `rotate`; Shift has none).
    public static func rotate(_ degrees: Double, _ condition: Condition? = nil) -> AdditionalAnimation {
        AdditionalAnimation(.rotate(degrees), when: condition)
    }
}

extension PropertyChange {
    /// Shift's `move(.right(150))` as a change: `.move(dx: -150, dy: 0)`.
    public static func move(_ direction: AdditionalAnimation.Direction) -> PropertyChange {
        let offset = direction.offset
        return .move(dx: offset.dx, dy: offset.dy)
    }
}

/// Shift's chained form, on the value the model keeps: each method returns
/// the list with one more animation (`.init().fade().move(.right(150))`).
extension Array where Element == AdditionalAnimation {
    public func fade(_ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] { self + [.fade(condition)] }
    public func scale(_ factor: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.scale(factor, condition)]
    }
    public func move(
        _ direction: AdditionalAnimation.Direction,
        _ condition: AdditionalAnimation.Condition? = nil
    ) -> [AdditionalAnimation] {
        self + [.move(direction, condition)]
    }
    public func move(x: Double, y: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.move(x: x, y: y, condition)]
    }
    public func bounds(_ bounds: Rect, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.bounds(bounds, condition)]
    }
    public func bounds(_ size: Size, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.bounds(size, condition)]
    }
    public func alpha(_ alpha: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.alpha(alpha, condition)]
    }
    public func opacity(_ opacity: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.opacity(opacity, condition)]
    }
    public func cornerRadius(_ radius: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.cornerRadius(radius, condition)]
    }
    public func anchorPoint(_ point: Point, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.anchorPoint(point, condition)]
    }
    public func zPosition(_ z: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.zPosition(z, condition)]
    }
    public func masksToBounds(_ masks: Bool, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.masksToBounds(masks, condition)]
    }
    public func borderColor(_ color: RGBAColor, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.borderColor(color, condition)]
    }
    public func borderWidth(_ width: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.borderWidth(width, condition)]
    }
    public func shadowColor(_ color: RGBAColor, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.shadowColor(color, condition)]
    }
    public func shadowOffset(_ offset: Size, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.shadowOffset(offset, condition)]
    }
    public func shadowRadius(_ radius: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.shadowRadius(radius, condition)]
    }
    public func shadowOpacity(_ opacity: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.shadowOpacity(opacity, condition)]
    }
    public func transform(_ transform: TransformSpec, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.transform(transform, condition)]
    }
    public func backgroundColor(_ color: RGBAColor, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.backgroundColor(color, condition)]
    }
    public func rotate(_ degrees: Double, _ condition: AdditionalAnimation.Condition? = nil) -> [AdditionalAnimation] {
        self + [.rotate(degrees, condition)]
    }
}
