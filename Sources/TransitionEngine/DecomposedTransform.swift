import Primitives
import SceneModel

/// A 3-D transform split into the parts Core Animation interpolates
/// (docs/3d.md, "Interpolation"): scale, skew, rotation as a unit quaternion,
/// translation and perspective, so that `matrix` is, in Core Animation's
/// row-vector order, `scale . skew . rotation . translation . perspective`
/// (the order `TransformSpec` spells its components in).
///
/// A matrix is split by the W3C / Graphics Gems "unmatrix" decomposition.
/// A transform spelled as components gives its parts directly: the
/// quaternion of rotateX, then rotateY, then rotate (z) is composed from the
/// angles, so a 180-degree turn keeps its sign (a matrix cannot tell +180
/// from -180, and the slerp toward 0 would turn the other way).
///
/// Invariants: `quaternion` has length 1 (x, y, z, w; `w = cos(angle / 2)`
/// of the column-vector rotation, `Transform3D.rotation(angle, axis)` being
/// `(axis * sin(angle / 2), cos(angle / 2))`); every field is finite.
struct DecomposedTransform: Sendable, Equatable {
    var scale: SIMD3<Double>
    /// Shears xy, xz, yz (the Graphics Gems order).
    var skew: SIMD3<Double>
    var quaternion: SIMD4<Double>
    var translation: SIMD3<Double>
    /// The matrix's fourth column (m14, m24, m34, m44) once the rest is taken out; (0, 0, 0, 1) without perspective.
    var perspective: SIMD4<Double>

    static let identity = DecomposedTransform(
        scale: SIMD3(1, 1, 1), skew: .zero, quaternion: SIMD4(0, 0, 0, 1), translation: .zero, perspective: SIMD4(0, 0, 0, 1))

    /// The parts of a transform spelled as components; a `matrix3D` is
    /// decomposed (nil when it cannot be: singular or not finite).
    init?(_ spec: TransformSpec) {
        if spec.matrix3D != nil {
            guard let matrix = ViewGeometry.body(of: spec) else { return nil }
            self.init(matrix: matrix)
            return
        }
        func turn(_ degrees: Double, _ axis: SIMD3<Double>) -> SIMD4<Double> {
            let half = degrees * .pi / 360
            return SIMD4(axis * sin(half), cos(half))
        }
        // rotateX first, then rotateY, then z: in Hamilton products the later turn stands on the left.
        let q = Self.product(
            turn(spec.rotate, SIMD3(0, 0, 1)),
            Self.product(turn(spec.rotateY, SIMD3(0, 1, 0)), turn(spec.rotateX, SIMD3(1, 0, 0))))
        let m34 = spec.perspective.map { $0 > 0 && $0.isFinite ? -1 / $0 : 0 } ?? 0
        self.init(
            scale: SIMD3(spec.scale.width, spec.scale.height, 1), skew: .zero, quaternion: q,
            translation: SIMD3(spec.translate.x, spec.translate.y, spec.translateZ), perspective: SIMD4(0, 0, m34, 1))
        guard isFinite else { return nil }
    }

    init(scale: SIMD3<Double>, skew: SIMD3<Double>, quaternion: SIMD4<Double>, translation: SIMD3<Double>, perspective: SIMD4<Double>) {
        self.scale = scale
        self.skew = skew
        self.quaternion = quaternion
        self.translation = translation
        self.perspective = perspective
    }

    /// The unmatrix decomposition; nil when `m44` is 0, the matrix without
    /// its perspective column is singular, or anything is not finite.
    init?(matrix: Transform3D) {
        guard matrix.isFinite, matrix.r4.w != 0 else { return nil }
        let m = [matrix.r1, matrix.r2, matrix.r3, matrix.r4].map { $0 / matrix.r4.w }
        // The matrix with its perspective column cleared: the affine part.
        var affine = Transform3D(m[0], m[1], m[2], m[3])
        affine.r1.w = 0
        affine.r2.w = 0
        affine.r3.w = 0
        affine.r4.w = 1
        guard let inverse = Self.inverse(affine) else { return nil }
        // M = affine . P with P the identity but for its fourth column p: M's fourth column is affine . p.
        let column = SIMD4(m[0].w, m[1].w, m[2].w, m[3].w)
        let p = [inverse.r1, inverse.r2, inverse.r3, inverse.r4].map { ($0 * column).sum() }
        perspective = m[0].w == 0 && m[1].w == 0 && m[2].w == 0 ? SIMD4(0, 0, 0, 1) : SIMD4(p[0], p[1], p[2], p[3])
        translation = SIMD3(m[3].x, m[3].y, m[3].z)
        var rows = (0 ..< 3).map { SIMD3(m[$0].x, m[$0].y, m[$0].z) }
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        var s = SIMD3<Double>(repeating: 0)
        var k = SIMD3<Double>(repeating: 0)
        s.x = length(rows[0])
        guard s.x > 0 else { return nil }
        rows[0] /= s.x
        k.x = dot(rows[0], rows[1])
        rows[1] -= k.x * rows[0]
        s.y = length(rows[1])
        guard s.y > 0 else { return nil }
        rows[1] /= s.y
        k.x /= s.y
        k.y = dot(rows[0], rows[2])
        rows[2] -= k.y * rows[0]
        k.z = dot(rows[1], rows[2])
        rows[2] -= k.z * rows[1]
        s.z = length(rows[2])
        guard s.z > 0 else { return nil }
        rows[2] /= s.z
        k.y /= s.z
        k.z /= s.z
        // A left-handed frame: the mirror goes into the scale, the rest is a rotation.
        let cross = SIMD3(
            rows[1].y * rows[2].z - rows[1].z * rows[2].y, rows[1].z * rows[2].x - rows[1].x * rows[2].z,
            rows[1].x * rows[2].y - rows[1].y * rows[2].x)
        if dot(rows[0], cross) < 0 {
            s = -s
            rows = rows.map { -$0 }
        }
        scale = s
        skew = k
        // Rows are the row-vector rotation, the transpose of the column-vector one the quaternion names.
        let (r, u) = (rows, 0.5)
        var q = SIMD4(
            u * max(1 + r[0].x - r[1].y - r[2].z, 0).squareRoot(), u * max(1 - r[0].x + r[1].y - r[2].z, 0).squareRoot(),
            u * max(1 - r[0].x - r[1].y + r[2].z, 0).squareRoot(), u * max(1 + r[0].x + r[1].y + r[2].z, 0).squareRoot())
        if r[2].y > r[1].z { q.x = -q.x }
        if r[0].z > r[2].x { q.y = -q.y }
        if r[1].x > r[0].y { q.z = -q.z }
        quaternion = q / (q * q).sum().squareRoot()
        guard isFinite else { return nil }
    }

    var isFinite: Bool {
        scale.x.isFinite && scale.y.isFinite && scale.z.isFinite && skew.x.isFinite && skew.y.isFinite && skew.z.isFinite
            && quaternion.x.isFinite && quaternion.y.isFinite && quaternion.z.isFinite && quaternion.w.isFinite
            && translation.x.isFinite && translation.y.isFinite && translation.z.isFinite
            && perspective.x.isFinite && perspective.y.isFinite && perspective.z.isFinite && perspective.w.isFinite
    }

    /// `progress` of the way to `end`: every part linearly, the quaternion by
    /// spherical interpolation along the shorter arc (as Core Animation).
    func interpolated(to end: DecomposedTransform, _ progress: Double) -> DecomposedTransform {
        func mix<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar == Double { a + (b - a) * progress }
        return DecomposedTransform(
            scale: mix(scale, end.scale), skew: mix(skew, end.skew),
            quaternion: Self.slerp(quaternion, end.quaternion, progress),
            translation: mix(translation, end.translation), perspective: mix(perspective, end.perspective))
    }

    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        var b = b
        var cosine = (a * b).sum()
        if cosine < 0 {  // q and -q are one rotation: take the shorter way round
            b = -b
            cosine = -cosine
        }
        cosine = min(cosine, 1)
        let sine = (1 - cosine * cosine).squareRoot()
        // Nearly the same rotation: the arc is a line (and the formula divides by ~0).
        guard sine > 1e-9 else {
            let q = a + (b - a) * t
            return q / (q * q).sum().squareRoot()
        }
        let angle = acos(cosine)
        return a * (sin((1 - t) * angle) / sine) + b * (sin(t * angle) / sine)
    }

    /// The Hamilton product `a * b` (b's turn first, then a's).
    static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    /// The rotation as a row-vector matrix (the transpose of the quaternion's column-vector matrix).
    var rotation: Transform3D {
        let (x, y, z, w) = (quaternion.x, quaternion.y, quaternion.z, quaternion.w)
        return Transform3D(
            SIMD4(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0),
            SIMD4(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0),
            SIMD4(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0),
            SIMD4(0, 0, 0, 1))
    }

    /// Everything but the perspective: `scale . skew . rotation . translation`.
    var body: Transform3D {
        let skewMatrix = Transform3D(
            SIMD4(1, 0, 0, 0), SIMD4(skew.x, 1, 0, 0), SIMD4(skew.y, skew.z, 1, 0), SIMD4(0, 0, 0, 1))
        return Transform3D.scale(scale.x, scale.y, scale.z).concatenating(skewMatrix).concatenating(rotation)
            .concatenating(.translation(translation.x, translation.y, translation.z))
    }

    /// The identity with `perspective` as its fourth column.
    var perspectiveMatrix: Transform3D {
        Transform3D(
            SIMD4(1, 0, 0, perspective.x), SIMD4(0, 1, 0, perspective.y), SIMD4(0, 0, 1, perspective.z), SIMD4(0, 0, 0, perspective.w))
    }

    var matrix: Transform3D { body.concatenating(perspectiveMatrix) }

    /// The inverse of a 4x4 whose fourth column is (0, 0, 0, 1) (an affine map), or nil when singular.
    private static func inverse(_ t: Transform3D) -> Transform3D? {
        let (a, b, c) = (t.r1, t.r2, t.r3)
        let det = a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let i1 = SIMD4(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y, 0) / det
        let i2 = SIMD4(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z, 0) / det
        let i3 = SIMD4(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x, 0) / det
        let tr = t.r4
        let i4 = -(tr.x * i1 + tr.y * i2 + tr.z * i3) + SIMD4(0, 0, 0, 1)
        return Transform3D(i1, i2, i3, i4)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
