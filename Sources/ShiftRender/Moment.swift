/// A point in a render to show as a still.
public enum Moment: Sendable, Hashable {
    /// Frame `n` (0-based) of the clip, holds and pauses included.
    case frame(Int)
    /// The frame showing `seconds` into the clip (rounded to the nearest frame).
    case time(Double)
    /// The transition's state at fraction 0...1 of its first motion (the
    /// present of a roundtrip), between frames as well as on them: what
    /// `UIPercentDrivenInteractiveTransition` shows at that progress.
    case progress(Double)
}
