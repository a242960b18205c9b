public import Primitives

/// How the two roots move in a push or pop (`transition.navigation`): the
/// system-like default, seed 004's built-ins, Hero's transition types, or a
/// composition of seed 004's atomic transitions. Matched views and additional
/// animations play on top. `direction` `present` reads as push, `dismiss` as pop.
public enum NavigationSpec: Sendable, Hashable {
    /// The system push (ours, after Hero's push and UIKit): docs/navigation.md.
    case `default`
    /// seed 004's `.slide(axis:)`: push moves the inserted root in from the
    /// trailing edge (bottom) and the removed one out to the leading edge (top); pop mirrors it.
    case slide(SlideAxis)
    /// seed 004's `.fade(.in | .out | .cross)`.
    case fade(FadeStyle)
    /// Hero's default animation types, with Hero's numbers.
    case hero(HeroNavigation)
    /// seed 004's `NavigationTransition` built from atomic transitions.
    case composed(ComposedNavigation)
    /// UIKit's `transitionFlipFrom...` look (ours: docs/3d.md): the roots turn
    /// about the canvas's centre line, in perspective, the new one on the back.
    case flip(HeroDirection)
    /// A cube turning toward `direction` (ours: docs/3d.md), the roots on two of its faces.
    case cube(HeroDirection)

    public enum SlideAxis: String, Sendable, Hashable, CaseIterable { case horizontal, vertical }
    public enum FadeStyle: String, Sendable, Hashable, CaseIterable {
        /// The inserted root fades in over the removed one.
        case `in`
        /// The removed root fades out over the inserted one.
        case out
        /// Both: one fades in while the other fades out.
        case cross
    }
}

/// Hero's `HeroDefaultAnimationType` cases that a scene can name.
public enum HeroNavigation: Sendable, Hashable {
    case push(HeroDirection)
    case pull(HeroDirection)
    case cover(HeroDirection)
    case uncover(HeroDirection)
    case slide(HeroDirection)
    case zoomSlide(HeroDirection)
    case pageIn(HeroDirection)
    case pageOut(HeroDirection)
    case zoom
    case zoomOut

    /// The type's name as a scene spells it.
    public var name: String {
        switch self {
        case .push: return "push"
        case .pull: return "pull"
        case .cover: return "cover"
        case .uncover: return "uncover"
        case .slide: return "slide"
        case .zoomSlide: return "zoomSlide"
        case .pageIn: return "pageIn"
        case .pageOut: return "pageOut"
        case .zoom: return "zoom"
        case .zoomOut: return "zoomOut"
        }
    }
}

/// Hero's `HeroDefaultAnimationType.Direction`.
public enum HeroDirection: String, Sendable, Hashable, CaseIterable { case left, right, up, down }

/// seed 004's composition: what the inserted and the removed root do on a
/// push, and on a pop (given, mirrored from the push, or the same as the push).
public struct ComposedNavigation: Sendable, Hashable {
    public var push: RootTransitions
    /// Nil: the pop uses `push` as it is (`{"insertion": ..., "removal": ...}`), or mirrored when `mirror`.
    public var pop: RootTransitions?
    /// seed 004's `MirrorPush`: the pop is the push mirrored (edges and offsets flipped).
    public var mirror: Bool

    public init(push: RootTransitions, pop: RootTransitions? = nil, mirror: Bool = false) {
        self.push = push
        self.pop = pop
        self.mirror = mirror
    }
}

/// What the inserted root starts as (and animates away from) and what the
/// removed root ends as: each a list of atomic transitions, combined.
public struct RootTransitions: Sendable, Hashable {
    public var insertion: [AtomicTransition]
    public var removal: [AtomicTransition]

    public init(insertion: [AtomicTransition] = [], removal: [AtomicTransition] = []) {
        self.insertion = insertion
        self.removal = removal
    }
}

/// seed 004's `AtomicTransition`: one change to one root, agnostic of push or pop.
public enum AtomicTransition: Sendable, Hashable {
    /// In from (or out to) an edge, by the container's width or height.
    case move(Edge)
    case offset(x: Double, y: Double)
    /// Alpha 0 at the far end.
    case opacity
    /// Degrees about the z axis.
    case rotate(Double)
    /// Degrees about `axis` with seed 004's relative perspective (|m34| = perspective / max(width, height)).
    case rotate3D(angle: Double, axis: Axis3D, perspective: Double)
    case scale(Double)
    case zPosition(Double)
    case bringToFront
    case sendToBack
    case identity

    public enum Edge: String, Sendable, Hashable, CaseIterable { case leading, trailing, top, bottom }

    public struct Axis3D: Sendable, Hashable {
        public var x: Double, y: Double, z: Double
        public init(x: Double, y: Double, z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// The transition's name as a scene spells it.
    public var name: String {
        switch self {
        case .move: return "move"
        case .offset: return "offset"
        case .opacity: return "opacity"
        case .rotate: return "rotate"
        case .rotate3D: return "rotate3D"
        case .scale: return "scale"
        case .zPosition: return "zPosition"
        case .bringToFront: return "bringToFront"
        case .sendToBack: return "sendToBack"
        case .identity: return "identity"
        }
    }
}

/// A modal presentation (`transition.presentation`): a presented root that
/// need not cover the canvas, over an optional dimming layer.
public struct PresentationSpec: Sendable, Hashable {
    public var style: PresentationStyle
    public var dimming: DimmingSpec?

    public init(style: PresentationStyle = .overFullScreen, dimming: DimmingSpec? = nil) {
        self.style = style
        self.dimming = dimming
    }
}

public enum PresentationStyle: String, Sendable, Hashable, CaseIterable {
    /// Slides up from below the canvas while the presenting root shrinks and rounds (ours: docs/navigation.md).
    case sheet
    /// Slides up over the dimming (EasyTransitions' PresentationControllerAnimator).
    case card
    /// No movement of its own: matched views and animations do the work.
    case overFullScreen
}

/// A full-canvas layer behind the presented root that fades in on present and out on dismiss.
public struct DimmingSpec: Sendable, Hashable {
    public var color: RGBAColor
    public var opacity: Double

    public init(color: RGBAColor = .black, opacity: Double = 0.5) {
        self.color = color
        self.opacity = opacity
    }
}
