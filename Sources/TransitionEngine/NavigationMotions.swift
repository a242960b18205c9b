import Primitives
import SceneModel
import Timing

/// `transition.navigation` as root motions (docs/navigation.md). A push is
/// `present`, a pop `dismiss`; the arriving root is always `to`.
extension RootMotions {
    /// seed 004's default animation (`.default` = easeInOut over 0.35 s), also our system push's.
    static let seed004Timing = TimingOptions(duration: 0.35, curve: .named(.easeInOut))

    static func navigation(_ navigation: NavigationSpec, isPush: Bool, canvas: Size) -> RootMotions {
        var motions = resolve(navigation, isPush: isPush, canvas: canvas)
        motions.name = "navigation " + describe(navigation) + (isPush ? " (push)" : " (pop)")
        return motions
    }

    static func describe(_ navigation: NavigationSpec) -> String {
        switch navigation {
        case .default: return "default"
        case .slide(let axis): return "slide(\(axis.rawValue))"
        case .fade(let style): return "fade(\(style.rawValue))"
        case .hero(let type):
            switch type {
            case .push(let d), .pull(let d), .cover(let d), .uncover(let d), .slide(let d), .zoomSlide(let d), .pageIn(let d),
                .pageOut(let d):
                return "\(type.name)(\(d.rawValue))"
            case .zoom, .zoomOut: return type.name
            }
        case .composed(let c):
            return c.pop != nil ? "composed (push and pop)" : c.mirror ? "composed (pop mirrored)" : "composed"
        case .flip(let d): return "flip(\(d.rawValue))"
        case .cube(let d): return "cube(\(d.rawValue))"
        }
    }

    private static func resolve(_ navigation: NavigationSpec, isPush: Bool, canvas: Size) -> RootMotions {
        switch navigation {
        case .default:
            return systemPush(isPush: isPush, canvas: canvas)
        case .flip(let d):
            return flip(d, isPush: isPush, canvas: canvas)
        case .cube(let d):
            return cube(d, isPush: isPush, canvas: canvas)
        case .slide(let axis):
            let (forward, back): (AtomicTransition.Edge, AtomicTransition.Edge) =
                axis == .horizontal ? (.trailing, .leading) : (.bottom, .top)
            let push = RootTransitions(insertion: [.move(forward)], removal: [.move(back)])
            return composed(ComposedNavigation(push: push, mirror: true), isPush: isPush, canvas: canvas)
        case .fade(let style):
            // seed 004: fade(.in) = MirrorPush { OnInsertion { ZPosition(1); Opacity() } }, .out on removal, .cross both.
            var motions = RootMotions(timing: seed004Timing)
            switch style {
            case .in:
                motions.arriving.changes = [.fade]
                motions.arrivingOnTop = true
            case .out:
                motions.leaving.changes = [.fade]
                motions.arrivingOnTop = false
            case .cross:
                motions.arriving.changes = [.fade]
                motions.leaving.changes = [.fade]
                motions.arrivingOnTop = isPush
            }
            return motions
        case .hero(let type):
            return hero(type, canvas: canvas)
        case .composed(let composed):
            return self.composed(composed, isPush: isPush, canvas: canvas)
        }
    }

    /// Ours, after Hero's push and UIKit's: the `to` root comes in from the
    /// trailing edge over the `from` root, which moves a third of the width
    /// toward the leading edge under a black overlay of 0.1; a pop mirrors it.
    private static func systemPush(isPush: Bool, canvas: Size) -> RootMotions {
        var motions = RootMotions(timing: seed004Timing)
        let parallax = PropertyChange.move(dx: -canvas.width / 3, dy: 0)
        let under = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.1)
        if isPush {
            motions.arriving.changes = [.move(dx: canvas.width, dy: 0), .shadowOpacity(0)]
            motions.arriving.shadow = edgeShadow
            motions.leaving.changes = [parallax]
            motions.leaving.overlay = under
        } else {
            motions.arriving.changes = [parallax]
            motions.arriving.overlay = under
            motions.leaving.changes = [.move(dx: canvas.width, dy: 0), .shadowOpacity(0)]
            motions.leaving.shadow = edgeShadow
        }
        motions.arrivingOnTop = isPush
        return motions
    }

    /// seed 004's composition: insertion to the arriving root, removal to the
    /// leaving one; a push inserts above, a pop below, unless a side brings
    /// itself to the front or sends itself back.
    static func composed(_ composed: ComposedNavigation, isPush: Bool, canvas: Size) -> RootMotions {
        let transitions = isPush ? composed.push : composed.pop ?? (composed.mirror ? mirrored(composed.push) : composed.push)
        let insertion = changes(transitions.insertion, canvas: canvas)
        let removal = changes(transitions.removal, canvas: canvas, removal: true)
        var motions = RootMotions(timing: seed004Timing)
        motions.arriving.changes = insertion.changes
        motions.leaving.changes = removal.changes
        // seed 004's Rotate3D makes its root single-sided.
        func turns(_ list: [AtomicTransition]) -> Bool { list.contains { if case .rotate3D = $0 { true } else { false } } }
        if turns(transitions.insertion) { motions.arriving.depth = Depth(doubleSided: false) }
        if turns(transitions.removal) { motions.leaving.depth = Depth(doubleSided: false) }
        motions.arrivingOnTop = insertion.front ?? removal.front.map { !$0 } ?? isPush
        return motions
    }

    /// seed 004's `MirrorPush`: the pop plays the push's edges, offsets and turns the other way.
    static func mirrored(_ transitions: RootTransitions) -> RootTransitions {
        func mirror(_ t: AtomicTransition) -> AtomicTransition {
            switch t {
            case .move(.leading): return .move(.trailing)
            case .move(.trailing): return .move(.leading)
            case .move(.top): return .move(.bottom)
            case .move(.bottom): return .move(.top)
            case .offset(let x, let y): return .offset(x: -x, y: -y)
            case .rotate(let degrees): return .rotate(-degrees)
            // As the library's Rotate3D.mirrored(): the same angle, the perspective negated.
            case .rotate3D(let angle, let axis, let perspective): return .rotate3D(angle: angle, axis: axis, perspective: -perspective)
            default: return t
            }
        }
        return RootTransitions(insertion: transitions.insertion.map(mirror), removal: transitions.removal.map(mirror))
    }

    /// Hero's `DefaultAnimationPreprocessor` (d7a72e1): both roots on Hero's
    /// standard curve over 0.35 s, deceleration where Hero sets it; modifiers
    /// on Hero's toView are the arriving root's, on its fromView the leaving root's.
    private static func hero(_ type: HeroNavigation, canvas: Size) -> RootMotions {
        // Hero's shift(direction:appearing:): where a root comes from (appearing) or goes (not).
        func shift(_ d: HeroDirection, appearing: Bool, by fraction: Double = 1) -> PropertyChange {
            switch d {
            case .left, .right:
                return .move(dx: ((d == .right) == appearing ? -canvas.width : canvas.width) * fraction, dy: 0)
            case .up, .down:
                return .move(dx: 0, dy: ((d == .down) == appearing ? -canvas.height : canvas.height) * fraction)
            }
        }
        let under = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.1)
        var m = RootMotions(timing: TimingOptions(duration: 0.35, curve: .named(.standard)))
        let decelerate = TimingOptions(duration: 0.35, curve: .named(.deceleration))
        switch type {
        case .push(let d):
            m.arriving.changes = [shift(d, appearing: true), .shadowOpacity(0)]
            m.arriving.shadow = edgeShadow
            m.leaving.changes = [shift(d, appearing: false, by: 1.0 / 3)]
            m.leaving.overlay = under
            (m.arrivingOnTop, m.timing) = (true, decelerate)
        case .pull(let d):
            m.leaving.changes = [shift(d, appearing: false), .shadowOpacity(0)]
            m.leaving.shadow = edgeShadow
            m.arriving.changes = [shift(d, appearing: true, by: 1.0 / 3)]
            m.arriving.overlay = under
            m.arrivingOnTop = false
        case .slide(let d):
            m.leaving.changes = [shift(d, appearing: false)]
            m.arriving.changes = [shift(d, appearing: true)]
            m.arrivingOnTop = true  // Hero's insertToViewFirst is false unless a type sets it
        case .zoomSlide(let d):
            m.leaving.changes = [shift(d, appearing: false), .scale(0.8)]
            m.arriving.changes = [shift(d, appearing: true), .scale(0.8)]
            m.arrivingOnTop = true
        case .cover(let d):
            m.arriving.changes = [shift(d, appearing: true), .shadowOpacity(0)]
            m.arriving.shadow = edgeShadow
            m.leaving.overlay = under
            (m.arrivingOnTop, m.timing) = (true, decelerate)
        case .uncover(let d):
            m.leaving.changes = [shift(d, appearing: false), .shadowOpacity(0)]
            m.leaving.shadow = edgeShadow
            m.arriving.overlay = under
            m.arrivingOnTop = false
        case .pageIn(let d):
            m.arriving.changes = [shift(d, appearing: true), .shadowOpacity(0)]
            m.arriving.shadow = edgeShadow
            m.leaving.changes = [.scale(0.7)]
            m.leaving.overlay = under
            (m.arrivingOnTop, m.timing) = (true, decelerate)
        case .pageOut(let d):
            m.leaving.changes = [shift(d, appearing: false), .shadowOpacity(0)]
            m.leaving.shadow = edgeShadow
            m.arriving.changes = [.scale(0.7)]
            m.arriving.overlay = under
            m.arrivingOnTop = false
        case .zoom:
            m.leaving.changes = [.scale(1.3), .fade]
            m.arriving.changes = [.scale(0.7)]
            m.arrivingOnTop = false
        case .zoomOut:
            m.arriving.changes = [.scale(1.3), .fade]
            m.leaving.changes = [.scale(0.7)]
            m.arrivingOnTop = true
        }
        return m
    }
}
