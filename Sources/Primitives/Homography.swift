/// A plane-to-plane perspective map: a 3x3 matrix in Core Animation's row-vector
/// order, `(x, y, 1) * M = (X, Y, W)`, the image point `(X / W, Y / W)`.
///
/// It is what a `CATransform3D` does to the z = 0 plane once the layer is
/// flattened (`Transform3D.flattened`): rows and columns 1, 2 and 4 of the
/// 4x4. `W > 0` is in front of the eye; a point with `W <= 0` is behind it and
/// has no image (`apply` gives nil), which is how a layer crossing the eye
/// plane is clipped instead of wrapping around through infinity.
public struct Homography: Hashable, Sendable, Codable {
    public var m11: Double, m12: Double, m13: Double
    public var m21: Double, m22: Double, m23: Double
    public var m31: Double, m32: Double, m33: Double

    /// The least `W` that counts as in front of the eye: points nearer the eye
    /// plane than this would land absurdly far away (and overflow a Float).
    public static let nearW = 1e-6

    public init(
        m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
        m31: Double, m32: Double, m33: Double
    ) {
        self.m11 = m11
        self.m12 = m12
        self.m13 = m13
        self.m21 = m21
        self.m22 = m22
        self.m23 = m23
        self.m31 = m31
        self.m32 = m32
        self.m33 = m33
    }

    /// The nine numbers row by row (`m11, m12, m13, m21, ...`), as the frame plan writes them.
    public init?(_ values: [Double]) {
        guard values.count == 9 else { return nil }
        self.init(
            m11: values[0], m12: values[1], m13: values[2], m21: values[3], m22: values[4], m23: values[5],
            m31: values[6], m32: values[7], m33: values[8])
    }

    public var values: [Double] { [m11, m12, m13, m21, m22, m23, m31, m32, m33] }

    public static let identity = Homography(affine: .identity)

    /// The affine map as a homography (third column 0, 0, 1).
    public init(affine t: AffineTransform2D) {
        self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
    }

    /// The map as an affine transform when it is one (third column exactly 0, 0, 1).
    public var affine: AffineTransform2D? {
        guard m13 == 0, m23 == 0, m33 == 1 else { return nil }
        return AffineTransform2D(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32)
    }

    public var isFinite: Bool { values.allSatisfy(\.isFinite) }

    /// `(X, Y, W)` of a point, before the division.
    public func homogeneous(_ p: Point) -> (x: Double, y: Double, w: Double) {
        (p.x * m11 + p.y * m21 + m31, p.x * m12 + p.y * m22 + m32, p.x * m13 + p.y * m23 + m33)
    }

    /// The image of `p`, or nil when `p` lies behind the eye (`W < nearW`) or lands at no finite point.
    public func apply(_ p: Point) -> Point? {
        let h = homogeneous(p)
        guard h.w >= Self.nearW else { return nil }
        let q = Point(x: h.x / h.w, y: h.y / h.w)
        return q.x.isFinite && q.y.isFinite ? q : nil
    }

    /// The map's first derivatives at `p`, with the image point and `W`: with
    /// `(x', y') = (X / W, Y / W)`, `dx'/dx = (m11 - x' m13) / W`,
    /// `dx'/dy = (m21 - x' m23) / W`, `dy'/dx = (m12 - y' m13) / W`,
    /// `dy'/dy = (m22 - y' m23) / W`. Nil behind the eye (`W <= 0`): the sampler,
    /// the clip coverage and the plane layer all read their scales from this.
    public func derivatives(at p: Point) -> Derivatives? {
        let h = homogeneous(p)
        guard h.w > 0 else { return nil }
        let x = h.x / h.w
        let y = h.y / h.w
        return Derivatives(
            image: Point(x: x, y: y), w: h.w,
            xByX: (m11 - x * m13) / h.w, xByY: (m21 - x * m23) / h.w,
            yByX: (m12 - y * m13) / h.w, yByY: (m22 - y * m23) / h.w)
    }

    /// `derivatives(at:)`: the image point, its `W`, and `d(image.x)/dx` (`xByX`) and the rest.
    public struct Derivatives: Sendable, Hashable {
        public let image: Point
        public let w: Double
        public let xByX: Double, xByY: Double, yByX: Double, yByY: Double
    }

    /// `self` first, then `other`: `p -> other(self(p))` (the matrix product `self * other`).
    public func concatenating(_ o: Homography) -> Homography {
        Homography(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    public func concatenating(_ affine: AffineTransform2D) -> Homography { concatenating(Homography(affine: affine)) }

    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The inverse map (scaled so that a point in front of the eye maps back with `W > 0`),
    /// or nil when the matrix is singular or not finite.
    public var inverted: Homography? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300, isFinite else { return nil }
        let k = 1 / det
        let inverse = Homography(
            m11: (m22 * m33 - m23 * m32) * k, m12: (m13 * m32 - m12 * m33) * k, m13: (m12 * m23 - m13 * m22) * k,
            m21: (m23 * m31 - m21 * m33) * k, m22: (m11 * m33 - m13 * m31) * k, m23: (m13 * m21 - m11 * m23) * k,
            m31: (m21 * m32 - m22 * m31) * k, m32: (m12 * m31 - m11 * m32) * k, m33: (m11 * m22 - m12 * m21) * k)
        return inverse.isFinite ? inverse : nil
    }

    /// The convex polygon that the rectangle `rect` maps to, cut at the eye plane
    /// (`W >= nearW`): 0 points when the rectangle is entirely behind the eye,
    /// otherwise 3 to 5 image points in order. Homogeneous clipping, so a
    /// rectangle that crosses the eye plane gives its visible part, never
    /// points wrapped through infinity.
    public func visiblePolygon(of rect: Rect) -> [Point] {
        let corners = [
            Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
            Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
        ].map(homogeneous)
        var kept: [(x: Double, y: Double, w: Double)] = []
        for i in corners.indices {
            let a = corners[i]
            let b = corners[(i + 1) % corners.count]
            let aIn = a.w >= Self.nearW
            let bIn = b.w >= Self.nearW
            if aIn { kept.append(a) }
            if aIn != bIn {
                let t = (Self.nearW - a.w) / (b.w - a.w)
                kept.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, Self.nearW))
            }
        }
        let points = kept.map { Point(x: $0.x / $0.w, y: $0.y / $0.w) }
        return points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? points : []
    }
}
