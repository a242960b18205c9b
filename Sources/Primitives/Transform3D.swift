/// Core Animation's `CATransform3D`: a 4x4 matrix in row-vector order,
/// `(x, y, z, 1) * M`, so `a.concatenating(b)` is `CATransform3DConcat(a, b)`
/// (a first, then b), and the constructors match `CATransform3DMake...`
/// (UIKit's y-down space: a positive z rotation turns clockwise on screen, as
/// `AffineTransform2D.rotation` does; a positive y rotation takes the right
/// edge away from the viewer).
public struct Transform3D: Hashable, Sendable {
    /// Rows `m11 m12 m13 m14`, ..., `m41 m42 m43 m44`.
    public var r1: SIMD4<Double>, r2: SIMD4<Double>, r3: SIMD4<Double>, r4: SIMD4<Double>

    public init(_ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>, _ r4: SIMD4<Double>) {
        self.r1 = r1
        self.r2 = r2
        self.r3 = r3
        self.r4 = r4
    }

    /// Sixteen numbers `m11, m12, ..., m44` (the order `matrix3D` is written in); nil unless 16.
    public init?(_ values: [Double]) {
        guard values.count == 16 else { return nil }
        self.init(
            SIMD4(values[0], values[1], values[2], values[3]), SIMD4(values[4], values[5], values[6], values[7]),
            SIMD4(values[8], values[9], values[10], values[11]), SIMD4(values[12], values[13], values[14], values[15]))
    }

    public var values: [Double] { [r1, r2, r3, r4].flatMap { [$0.x, $0.y, $0.z, $0.w] } }
    public var isFinite: Bool { values.allSatisfy(\.isFinite) }

    public static let identity = Transform3D(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    public init(affine t: AffineTransform2D) {
        self.init(SIMD4(t.a, t.b, 0, 0), SIMD4(t.c, t.d, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(t.tx, t.ty, 0, 1))
    }

    public static func translation(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        var t = identity
        t.r4 = SIMD4(x, y, z, 1)
        return t
    }

    public static func scale(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D(SIMD4(x, 0, 0, 0), SIMD4(0, y, 0, 0), SIMD4(0, 0, z, 0), SIMD4(0, 0, 0, 1))
    }

    /// `CATransform3DMakeRotation(radians, x, y, z)`: about the axis through the
    /// origin (normalized here; identity for a zero or non-finite axis).
    public static func rotation(_ radians: Double, axis x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite, radians.isFinite else { return identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let c = cos(radians)
        let s = sin(radians)
        let k = 1 - c
        return Transform3D(
            SIMD4(x * x * k + c, x * y * k + z * s, x * z * k - y * s, 0),
            SIMD4(x * y * k - z * s, y * y * k + c, y * z * k + x * s, 0),
            SIMD4(x * z * k + y * s, y * z * k - x * s, z * z * k + c, 0),
            SIMD4(0, 0, 0, 1))
    }

    /// The perspective Core Animation code sets by hand: `m34 = -1 / distance`
    /// (the eye `distance` points in front of the z = 0 plane). Identity for a
    /// distance that is not positive and finite.
    public static func perspective(_ distance: Double) -> Transform3D {
        var t = identity
        if distance > 0, distance.isFinite { t.r3.w = -1 / distance }
        return t
    }

    /// `self` first, then `other`.
    public func concatenating(_ o: Transform3D) -> Transform3D {
        func row(_ r: SIMD4<Double>) -> SIMD4<Double> { r.x * o.r1 + r.y * o.r2 + r.z * o.r3 + r.w * o.r4 }
        return Transform3D(row(r1), row(r2), row(r3), row(r4))
    }

    /// What the matrix does to the z = 0 plane, the layer's own: rows and
    /// columns 1, 2 and 4. Core Animation flattens a layer (and whatever is
    /// drawn into it) onto its superlayer's plane this way, so the map from a
    /// deep view to the screen is the product of its ancestors' homographies.
    public var flattened: Homography {
        Homography(m11: r1.x, m12: r1.y, m13: r1.w, m21: r2.x, m22: r2.y, m23: r2.w, m31: r4.x, m32: r4.y, m33: r4.w)
    }

    /// True when the matrix is a 2-D affine map (no z, no perspective).
    public var isAffine2D: Bool {
        r1.z == 0 && r1.w == 0 && r2.z == 0 && r2.w == 0 && r3 == SIMD4(0, 0, 1, 0) && r4.z == 0 && r4.w == 1
    }

    /// The 2-D part when `isAffine2D`.
    public var affine: AffineTransform2D? {
        guard isAffine2D else { return nil }
        return AffineTransform2D(a: r1.x, b: r1.y, c: r2.x, d: r2.y, tx: r4.x, ty: r4.y)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
