import Primitives
import SceneModel
import Timing

/// The roots' 3-D motions (docs/3d.md): seed 004's `rotate3D` atomic
/// transition and our `flip` and `cube` navigations, as root motions whose
/// transforms Core Animation's 3-D interpolation carries (decomposed, the
/// turn by slerp, `ViewState.interpolated3D`).
extension RootMotions {
    /// What a root keeps at both ends of a 3-D motion, before its changes.
    struct Depth: Sendable {
        /// The transform at both ends (nil: the root's own); the changed end's comes in `changes`.
        var transform: TransformSpec?
        var doubleSided = true
        /// Core Animation's anchorPointZ: the axis the root turns about lies this far along z (negative: behind).
        var anchorPointZ = 0.0
    }

    /// Ours for flip and cube: easeInOut over 0.5 s (UIKit's flip lasts what its caller says).
    static let depthTiming = TimingOptions(duration: 0.5, curve: .named(.easeInOut))

    /// The eye's distance for flip and cube: 4/3 of the canvas's extent along
    /// the turn (width for left and right, height for up and down), Core
    /// Animation's common m34 = -1/500 on a 375-point-wide screen, scaled to the canvas.
    static func eyeDistance(_ d: HeroDirection, canvas: Size) -> Double { 4.0 / 3.0 * extent(d, canvas: canvas) }

    static func extent(_ d: HeroDirection, canvas: Size) -> Double {
        d == .left || d == .right ? canvas.width : canvas.height
    }

    /// A turn of `degrees` toward `d`: the edge on `d`'s side goes away from the viewer
    /// (left: rotateY < 0; right: rotateY > 0; up: rotateX > 0, the bottom edge comes forward; down: rotateX < 0).
    static func turn(toward d: HeroDirection, _ degrees: Double, perspective: Double) -> TransformSpec {
        switch d {
        case .left: return TransformSpec(rotateY: -degrees, perspective: perspective)
        case .right: return TransformSpec(rotateY: degrees, perspective: perspective)
        case .up: return TransformSpec(rotateX: degrees, perspective: perspective)
        case .down: return TransformSpec(rotateX: -degrees, perspective: perspective)
        }
    }

    static func opposite(_ d: HeroDirection) -> HeroDirection {
        switch d {
        case .left: return .right
        case .right: return .left
        case .up: return .down
        case .down: return .up
        }
    }

    /// Both roots turn 180 degrees about the canvas's centre line toward `d`
    /// (a pop turns back) in perspective, the arriving root on the back face;
    /// each is single-sided, so it shows only while it faces the viewer.
    /// flip(left) looks like UIKit's transitionFlipFromRight, flip(right) like transitionFlipFromLeft.
    static func flip(_ d: HeroDirection, isPush: Bool, canvas: Size) -> RootMotions {
        let d = isPush ? d : opposite(d)
        let eye = eyeDistance(d, canvas: canvas)
        var m = RootMotions(timing: depthTiming)
        let rest = TransformSpec(perspective: eye)
        m.leaving.depth = Depth(transform: rest, doubleSided: false)
        m.arriving.depth = Depth(transform: rest, doubleSided: false)
        m.leaving.changes = [.transform(turn(toward: d, 180, perspective: eye))]
        m.arriving.changes = [.transform(turn(toward: d, -180, perspective: eye))]
        m.arrivingOnTop = isPush
        return m
    }

    /// The roots on two adjacent faces of a cube as wide (or high) as the
    /// canvas, turning 90 degrees toward `d` (a pop turns back) about the
    /// cube's axis, half the extent behind the screen (anchorPointZ). Both
    /// faces are single-sided: a face seen from inside the cube (the arriving
    /// one at the start, when the eye looks at its inner side past the front
    /// face's edge) is culled, as a cube's hidden faces are, since Core
    /// Animation's flattening draws in tree order without depth sorting.
    static func cube(_ d: HeroDirection, isPush: Bool, canvas: Size) -> RootMotions {
        let d = isPush ? d : opposite(d)
        let eye = eyeDistance(d, canvas: canvas)
        var m = RootMotions(timing: depthTiming)
        let depth = Depth(
            transform: TransformSpec(perspective: eye), doubleSided: false, anchorPointZ: -extent(d, canvas: canvas) / 2)
        m.leaving.depth = depth
        m.arriving.depth = depth
        m.leaving.changes = [.transform(turn(toward: d, 90, perspective: eye))]
        m.arriving.changes = [.transform(turn(toward: d, -90, perspective: eye))]
        m.arrivingOnTop = isPush
        return m
    }

    /// seed 004's `Rotate3D(angle, axis, perspective)` on one root, as
    /// swiftui-navigation-transitions writes it: the transform
    /// `rotation(angle, axis)` then m34 = +perspective / max(width, height)
    /// on insertion (the arriving root starts there) and -perspective /
    /// max(width, height) on removal (the leaving root ends there); the root is
    /// single-sided. Its mirror (a pop of `MirrorPush`) negates the
    /// perspective and keeps the angle.
    static func rotate3D(degrees: Double, axis: AtomicTransition.Axis3D, perspective: Double, removal: Bool, canvas: Size)
        -> PropertyChange
    {
        let k = perspective / max(canvas.width, canvas.height, 1)
        var p = Transform3D.identity
        p.r3.w = removal ? -k : k
        let matrix = Transform3D.rotation(degrees * .pi / 180, axis: axis.x, axis.y, axis.z).concatenating(p)
        return .transform(TransformSpec(matrix3D: matrix.values))
    }
}

extension TransitionSegment {
    /// Whether view `index` or a transient ancestor can have a 3-D map during the segment.
    func turnsInDepth(_ index: Int) -> Bool {
        var current: Int? = index
        while let i = current {
            let view = views[i]
            let depthTracks: [KeyframeProperty] = [.rotateX, .rotateY, .translateZ, .perspective]
            if view.initial.transform.is3D || view.final.transform.is3D || view.initial.anchorPointZ != 0
                || view.final.anchorPointZ != 0 || depthTracks.contains(where: { view.keyframes.track($0) != nil })
            {
                return true
            }
            if case .parent(let p) = view.superview { current = p } else { current = nil }
        }
        return false
    }
}
