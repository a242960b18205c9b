/// A 2-D affine map `(x, y) -> (a*x + c*y + tx, b*x + d*y + ty)`, the same
/// layout as CGAffineTransform, so `concatenating` reads as in Core Graphics.
public struct AffineTransform2D: Hashable, Sendable, Codable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> AffineTransform2D {
        AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform2D {
        AffineTransform2D(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Rotation by `radians`, clockwise on screen because y grows downward (as in UIKit).
    public static func rotation(_ radians: Double) -> AffineTransform2D {
        let cosine = cos(radians)
        let sine = sin(radians)
        return AffineTransform2D(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` first, then `other`: `p -> other(self(p))`.
    public func concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty
        )
    }

    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse map, or nil when the transform collapses the plane (a zero scale).
    public var inverted: AffineTransform2D? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = 1 / det
        return AffineTransform2D(
            a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
            tx: (c * ty - d * tx) * inv,
            ty: (b * tx - a * ty) * inv
        )
    }

    /// True when the map has no rotation or shear (only scale and translation).
    public var isAxisAligned: Bool { b == 0 && c == 0 }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
