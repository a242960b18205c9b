import Primitives
import SceneModel
import Timing

/// What the two roots do in one segment, whichever way the scene says it:
/// Shift's default animation, a navigation (seed 004's and Hero's push and
/// pop, or a composition of atomic transitions) or a presentation. One
/// mechanism for all of them: each root gets a list of Shift's property
/// changes, applied as additional animations are (the arriving root starts in
/// the changed state, the leaving root ends in it), an overlay colour, the
/// order of the two roots, and the timing the motion plays on unless the
/// scene's own keys say otherwise.
///
/// Rejected: a code path per system. Shift's fade, seed 004's `Opacity()` and
/// Hero's `.fade` are the same change to the same root; three paths would draw
/// the same thing three ways and drift.
struct RootMotions: Sendable {
    struct Motion: Sendable {
        var changes: [PropertyChange] = []
        /// Hero's `overlay(color, opacity)`: a colour over the root at the changed end of its motion.
        var overlay: RGBAColor?
        /// Hero's `beginWith(shadowState)`: a shadow the root has throughout; its `changes` fade it at the changed end.
        var shadow: ShadowSpec?
        /// A 3-D motion's transform, sidedness and pivot depth at both ends (`DepthMotions`).
        var depth: Depth?
    }

    /// Hero's shadowState: black, opacity 0.5, radius 5, no offset, on the root sliding over the other one.
    static let edgeShadow = ShadowSpec(color: .black, opacity: 0.5, radius: 5, offset: .zero)

    /// The `to` root: inserted on a push, shown again on a pop.
    var arriving = Motion()
    /// The `from` root.
    var leaving = Motion()
    /// Whether the arriving root draws above the leaving one; nil leaves it to `viewOrder`.
    var arrivingOnTop: Bool?
    /// The roots' curve and duration when the scene's keys give none (nil: Shift's).
    var timing = TimingOptions()
    /// A presentation's full-canvas layer between the roots, clear where the presented root is not shown.
    var dimming: DimmingSpec?
    /// What the scene asked for, for `info`: "defaultAnimation fade", "navigation push(left)", "presentation card".
    var name = ""

    /// Shift's `DefaultShiftAnimation` on the source root: the `to` root when
    /// presenting, the `from` root when dismissing.
    static func shiftDefault(_ animation: DefaultAnimation, isPresenting: Bool) -> RootMotions {
        var motions = RootMotions()
        let changes: [PropertyChange]
        switch animation {
        case .none: changes = []
        case .fade: changes = [.fade]
        case .scale(let k): changes = [.fade, .scale(k)]
        }
        if isPresenting { motions.arriving.changes = changes } else { motions.leaving.changes = changes }
        switch animation {
        case .none: motions.name = "defaultAnimation none"
        case .fade: motions.name = "defaultAnimation fade"
        case .scale(let k): motions.name = "defaultAnimation fade + scale(\(k))"
        }
        return motions
    }

    /// seed 004's atomic transitions on one root, as Shift's property changes
    /// (`move` by the canvas's size; leading is left), and the order they ask for.
    static func changes(
        _ transitions: [AtomicTransition], canvas: Size, removal: Bool = false
    ) -> (changes: [PropertyChange], front: Bool?) {
        var changes: [PropertyChange] = []
        var front: Bool?
        for transition in transitions {
            switch transition {
            case .move(.leading): changes.append(.move(dx: -canvas.width, dy: 0))
            case .move(.trailing): changes.append(.move(dx: canvas.width, dy: 0))
            case .move(.top): changes.append(.move(dx: 0, dy: -canvas.height))
            case .move(.bottom): changes.append(.move(dx: 0, dy: canvas.height))
            case .offset(let x, let y): changes.append(.move(dx: x, dy: y))
            case .opacity: changes.append(.fade)
            case .rotate(let degrees): changes.append(.rotate(degrees))
            case .rotate3D(let angle, let axis, let perspective):
                changes.append(rotate3D(degrees: angle, axis: axis, perspective: perspective, removal: removal, canvas: canvas))
            // seed 004's `Scale()` is leastNonzeroMagnitude: a scale of 0 is that, not a singular transform.
            case .scale(let s): changes.append(.scale(s == 0 ? .leastNonzeroMagnitude : s))
            case .zPosition(let z): changes.append(.zPosition(z))
            case .bringToFront: front = true
            case .sendToBack: front = false
            case .identity: break
            }
        }
        return (changes, front)
    }
}
