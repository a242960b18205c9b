import Primitives
import SceneModel

/// A view's map from its local coordinates to a target (its superview, the
/// canvas, a snapshot's pixels): the exact 2-D affine map while every view on
/// the way is 2-D, a homography once one of them is 3-D (Core Animation
/// flattens each layer onto its superlayer's plane, so the map of a deep
/// view is the product of the flattened homographies; docs/3d.md).
///
/// Keeping the affine case apart keeps every 2-D plan byte-identical: a
/// product of affine maps is computed as it always was.
///
/// Facing (for `doubleSided`): a flattened homography cannot tell a mirror
/// (`scale(-1, 1)`) from a half turn (`rotateY(180)`); both have determinant
/// -1. What tells them apart is the 3x3 linear part of each view's 4x4
/// before flattening: -1 for the mirror, +1 for the turn. So the map carries
/// `orientation`, the sign of the product of those determinants along the
/// chain, and the view faces the viewer unless `det(H) * orientation < 0`.
/// For a 2-D chain both are the same sign, so a 2-D view never faces away.
enum PlaneMap: Sendable, Equatable {
    case affine(AffineTransform2D)
    case projective(Homography, orientation: Double)

    var homography: Homography {
        switch self {
        case .affine(let t): return Homography(affine: t)
        case .projective(let h, _): return h
        }
    }

    var affine: AffineTransform2D? {
        if case .affine(let t) = self { return t }
        return nil
    }

    /// The sign of the chain's linear determinants (+1 or -1; 0 when one collapses).
    var orientation: Double {
        switch self {
        case .affine(let t): return Self.sign(t.a * t.d - t.b * t.c)
        case .projective(_, let o): return o
        }
    }

    /// Where a point lands; a point behind the eye (no image) stays where it
    /// is, so positions read through a 3-D ancestor stay finite.
    func apply(_ p: Point) -> Point {
        switch self {
        case .affine(let t): return t.apply(p)
        case .projective(let h, _): return h.apply(p) ?? p
        }
    }

    /// `self` first, then `parent`.
    func concatenating(_ parent: PlaneMap) -> PlaneMap {
        if case .affine(let a) = self, case .affine(let b) = parent { return .affine(a.concatenating(b)) }
        return .projective(homography.concatenating(parent.homography), orientation: orientation * parent.orientation)
    }

    /// False when the view's back faces the viewer (its flattened image is mirrored while its 3-D part is not, or
    /// the other way round). Edge-on (a determinant of 0) counts as facing: it draws nothing anyway.
    var isFacingViewer: Bool {
        switch self {
        case .affine: return true
        case .projective(let h, let o): return !(Self.sign(h.determinant) * o < 0)
        }
    }

    static func sign(_ v: Double) -> Double { v > 0 ? 1 : v < 0 ? -1 : 0 }
}

extension ViewGeometry {
    /// The view's map to its superview: `localToSuperview` for a 2-D
    /// transform, otherwise the flattened 4x4
    /// `translate(-anchor, -anchorZ) . body . translate(0, 0, anchorZ) . perspective . translate(position)`.
    /// `anchorZ` (Core Animation's anchorPointZ) is engine-internal (the cube
    /// turns its roots about an axis behind the screen); the perspective is
    /// applied after the turn is carried back, so the eye stays `d` in front
    /// of the screen. `decomposed`, when set, is the transform (an
    /// interpolated 3-D state) in place of `transform`.
    static func map(
        size: Size, anchorPoint: Point, anchorZ: Double = 0, position: Point, transform: TransformSpec,
        decomposed: DecomposedTransform? = nil
    ) -> PlaneMap {
        if decomposed == nil, !transform.is3D, anchorZ == 0 {
            return .affine(localToSuperview(size: size, anchorPoint: anchorPoint, position: position, transform: transform))
        }
        let body: Transform3D
        let perspective: Transform3D
        if let decomposed {
            (body, perspective) = (decomposed.body, decomposed.perspectiveMatrix)
        } else if transform.matrix3D != nil {
            // A matrix that is not 16 finite numbers draws nothing (the validator names it first).
            guard let matrix = self.body(of: transform) else { return .projective(Homography.zero, orientation: 0) }
            (body, perspective) = (matrix, .identity)
        } else {
            (body, perspective) = (componentBody(of: transform), .perspective(transform.perspective ?? 0))
        }
        let m = Transform3D.translation(-anchorPoint.x * size.width, -anchorPoint.y * size.height, -anchorZ)
            .concatenating(body).concatenating(.translation(0, 0, anchorZ)).concatenating(perspective)
            .concatenating(.translation(position.x, position.y, 0))
        let linear = body.r1.x * (body.r2.y * body.r3.z - body.r2.z * body.r3.y)
            - body.r1.y * (body.r2.x * body.r3.z - body.r2.z * body.r3.x)
            + body.r1.z * (body.r2.x * body.r3.y - body.r2.y * body.r3.x)
        let h = m.flattened
        guard h.isFinite, linear.isFinite else { return .projective(Homography.zero, orientation: 0) }
        return .projective(h, orientation: PlaneMap.sign(linear))
    }

    /// scale, rotateX, rotateY, rotate (z), translate (x, y, translateZ), in Core Animation's row-vector order.
    static func componentBody(of t: TransformSpec) -> Transform3D {
        Transform3D.scale(t.scale.width, t.scale.height, 1)
            .concatenating(.rotation(t.rotateX * .pi / 180, axis: 1, 0, 0))
            .concatenating(.rotation(t.rotateY * .pi / 180, axis: 0, 1, 0))
            .concatenating(.rotation(t.rotate * .pi / 180, axis: 0, 0, 1))
            .concatenating(.translation(t.translate.x, t.translate.y, t.translateZ))
    }

    /// A transform's whole matrix before the anchor and position: the
    /// components (identity in a valid scene when `matrix3D` is set; the
    /// engine's rotate3D may add a scale or a turn to it) followed by
    /// `matrix3D`. Nil when `matrix3D` is not 16 finite numbers.
    static func body(of t: TransformSpec) -> Transform3D? {
        let components = componentBody(of: t).concatenating(.perspective(t.perspective ?? 0))
        guard let values = t.matrix3D else { return components }
        guard let matrix = Transform3D(values), matrix.isFinite else { return nil }
        return components.concatenating(matrix)
    }
}

extension Homography {
    /// Collapses everything to one point: what an unusable matrix draws (nothing).
    static let zero = Homography(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0)
}
