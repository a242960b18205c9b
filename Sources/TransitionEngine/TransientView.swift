import Primitives
import Timing
import SceneModel

/// A view that animates on its own during the transition (Shift's `ViewContext`):
/// a root, a matched pair, or a view with additional animations, an id or
/// `superview: container`. Everything else is drawn inside the snapshot of its
/// nearest transient ancestor.
public struct TransientView: Sendable {
    public enum Superview: Sendable, Equatable {
        /// Straight in the transition container (canvas coordinates).
        case container
        /// Inside another transient view (an index into the segment's views): moves and clips with it.
        case parent(Int)
    }

    /// What a view shows inside its bounds besides its background: its image and
    /// its non-transient subviews (as a snapshot), at the view's own size.
    struct Content: Sendable {
        var image: Int?
        var contentMode: ContentMode
        var imageSize: Size
        var snapshot: Int?
        /// Set when the snapshot holds only part of the content: the whole would
        /// be large and only that part can be seen (docs/snapshots.md).
        var snapshotGrid: SnapshotGrid?
        var size: Size
        /// A matched view's own background and border, which Shift's content
        /// snapshot holds (it zeroes only the corner radius, alpha and shadow
        /// before snapshotting), under and over the rest of the content.
        /// Unmatched views draw them as layer parts only.
        var frame: ContentFrame?
        /// The label's drawn text (an image index), covering the content's bounds.
        var text: Int? = nil
        /// Its size in points: the bounds rounded up to whole pixels.
        var textSize: Size = .zero
    }

    /// The background and border a matched view's content snapshot carries.
    /// An image view's snapshot is a copy of the image view: background, no border.
    struct ContentFrame: Sendable {
        var background: RGBAColor
        var borderWidth: Double
        var borderColor: RGBAColor
    }

    public let screen: Screen
    /// Where the view stands in the scene, e.g. `to.subviews[1]`.
    public let address: ViewAddress
    public let name: String?
    public let id: String?
    /// For a matched pair, the other screen's view.
    public let matchAddress: ViewAddress?
    public let isRoot: Bool
    public internal(set) var superview: Superview
    public let options: ShiftOptions
    /// Additional animations in effect (Shift's list plus the default animation on the source root).
    public internal(set) var animations: [AdditionalAnimation]
    var initial: ViewState
    var final: ViewState
    public internal(set) var duration: Double = 0
    /// Seconds before the view starts moving: its own `delay`, the transition's, or a cascade's.
    public internal(set) var delay: Double = 0
    /// The view's curve; Shift's for every view of a v1 scene.
    public internal(set) var easing: Easing = .standard
    /// Set when the view's position follows Hero's arc.
    var arc: ArcPath?
    /// Properties driven by keyframes instead of from/to interpolation.
    var keyframes = KeyframeAnimation([])
    /// The `from`-screen content for a matched pair with `contentAnimation: fade`.
    var initialContent: Content?
    var finalContent: Content

    public var isMatched: Bool { matchAddress != nil }

    /// How far the view's position travels, in points of its superview (drives its duration).
    public var travelDistance: Double { initial.position.distance(to: final.position) }

    /// Unit time (0 at the view's start, 1 at its end) at `time` seconds after the segment starts.
    func unitTime(at time: Double) -> Double {
        guard duration > 0 else { return time >= delay ? 1 : 0 }
        return min(max((time - delay) / duration, 0), 1)
    }

    /// Progress in curve time at `time` seconds after the segment starts: 0...1,
    /// or past either end where the curve overshoots (a spring, a back curve).
    func progress(at time: Double) -> Double { easing.value(at: unitTime(at: time)) }

    /// The state at `progress` (curve time): interpolated, then the arc's
    /// position and the keyframed properties, then held within each property's range.
    func state(at progress: Double) -> ViewState {
        var state = initial.interpolated(to: final, progress)
        if let arc { state.position = arc.point(at: progress) }
        keyframes.apply(to: &state, at: progress)
        // Inside 0...1 interpolation stays between two valid states: clamping
        // there could only move a value by a rounding error, and v1 keeps its bytes.
        if progress < 0 || progress > 1 || !keyframes.isEmpty { state = state.clampedToRanges() }
        return state
    }
}
