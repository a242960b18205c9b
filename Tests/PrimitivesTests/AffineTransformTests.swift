#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Primitives
import Testing

/// Every expected value below is worked out by hand from the definition
/// `(x, y) -> (a*x + c*y + tx, b*x + d*y + ty)`; the arithmetic is in the comments.
@Suite("AffineTransform2D")
struct AffineTransformTests {
    static func isClose(_ p: Point, _ x: Double, _ y: Double, within tolerance: Double = 1e-12) -> Bool {
        abs(p.x - x) <= tolerance && abs(p.y - y) <= tolerance
    }

    static func isClose(_ t: AffineTransform2D, _ u: AffineTransform2D, within tolerance: Double = 1e-12) -> Bool {
        [t.a - u.a, t.b - u.b, t.c - u.c, t.d - u.d, t.tx - u.tx, t.ty - u.ty].allSatisfy { abs($0) <= tolerance }
    }

    /// The four corners of `r`, clockwise on screen from the top-left.
    static func corners(_ r: Rect) -> [Point] {
        [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
    }

    @Test("translation and scale move and stretch points")
    func translationAndScale() {
        #expect(AffineTransform2D.translation(3, -2).apply(Point(x: 1, y: 1)) == Point(x: 4, y: -1))
        #expect(AffineTransform2D.scale(2, 3).apply(Point(x: 1.5, y: -2)) == Point(x: 3, y: -6))
        #expect(AffineTransform2D.scale(-1, 1).apply(Point(x: 5, y: 7)) == Point(x: -5, y: 7), "a mirror")
        #expect(AffineTransform2D.identity.apply(Point(x: -0.25, y: 9.5)) == Point(x: -0.25, y: 9.5))
        // The components are where the definition puts them.
        let t = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // (1, 1): (1 + 3 + 5, 2 + 4 + 6) = (9, 12); (2, -1): (2 - 3 + 5, 4 - 4 + 6) = (4, 6).
        #expect(t.apply(Point(x: 1, y: 1)) == Point(x: 9, y: 12))
        #expect(t.apply(Point(x: 2, y: -1)) == Point(x: 4, y: 6))
    }

    @Test("concatenating applies self first, then the argument")
    func concatenationOrder() {
        let scale = AffineTransform2D.scale(2, 2)
        let move = AffineTransform2D.translation(10, 0)
        // Scale then move: (1, 1) -> (2, 2) -> (12, 2). Move then scale: (1, 1) -> (11, 1) -> (22, 2).
        #expect(scale.concatenating(move).apply(Point(x: 1, y: 1)) == Point(x: 12, y: 2))
        #expect(move.concatenating(scale).apply(Point(x: 1, y: 1)) == Point(x: 22, y: 2))
        #expect(scale.concatenating(move) == AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 0))
        #expect(move.concatenating(scale) == AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: 20, ty: 0))
        // A general pair, multiplied out by hand. t: (x, y) -> (x + 3y + 5, 2x + 4y + 6);
        // u: (x, y) -> (-y + 1, 2x + 0.5y - 1). u(t(x, y)) = (-2x - 4y - 5, 3x + 8y + 12).
        let t = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let u = AffineTransform2D(a: 0, b: 2, c: -1, d: 0.5, tx: 1, ty: -1)
        #expect(t.concatenating(u) == AffineTransform2D(a: -2, b: 3, c: -4, d: 8, tx: -5, ty: 12))
        for p in [Point(x: 0, y: 0), Point(x: 1, y: -2), Point(x: 0.5, y: 3)] {
            #expect(t.concatenating(u).apply(p) == u.apply(t.apply(p)))
        }
        #expect(t.concatenating(.identity) == t && AffineTransform2D.identity.concatenating(t) == t)
    }

    @Test("rotation turns clockwise on screen (y grows down): +x goes to +y")
    func rotationDirection() {
        let quarter = AffineTransform2D.rotation(.pi / 2)
        // Right -> down -> left -> up, a clockwise turn when y points down.
        #expect(Self.isClose(quarter.apply(Point(x: 1, y: 0)), 0, 1))
        #expect(Self.isClose(quarter.apply(Point(x: 0, y: 1)), -1, 0))
        #expect(Self.isClose(quarter.apply(Point(x: -1, y: 0)), 0, -1))
        // 30 degrees: (2, 0) -> (2 cos 30, 2 sin 30) = (sqrt 3, 1).
        #expect(Self.isClose(AffineTransform2D.rotation(.pi / 6).apply(Point(x: 2, y: 0)), 3.0.squareRoot(), 1))
        // A negative angle turns the other way: (1, 0) -> (0, -1), up on screen.
        #expect(Self.isClose(AffineTransform2D.rotation(-.pi / 2).apply(Point(x: 1, y: 0)), 0, -1))
        // About a centre (50, 20): the centre stays; (51, 20) goes to (50, 21).
        let about = AffineTransform2D.translation(-50, -20).concatenating(quarter).concatenating(.translation(50, 20))
        #expect(Self.isClose(about.apply(Point(x: 50, y: 20)), 50, 20))
        #expect(Self.isClose(about.apply(Point(x: 51, y: 20)), 50, 21))
        #expect(abs(AffineTransform2D.rotation(0.7).determinant - 1) < 1e-12, "a rotation keeps areas")
    }

    @Test("rects map corner by corner")
    func rects() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        // Scale (2, 0.5), then move (1, 1): x -> 2x + 1, y -> y / 2 + 1.
        let t = AffineTransform2D.scale(2, 0.5).concatenating(.translation(1, 1))
        #expect(Self.corners(r).map(t.apply) == [Point(x: 21, y: 11), Point(x: 81, y: 11), Point(x: 81, y: 31), Point(x: 21, y: 31)])
        // A quarter turn takes the 2 x 1 rect at the origin to x in [-1, 0], y in [0, 2].
        let turned = Self.corners(Rect(x: 0, y: 0, width: 2, height: 1)).map(AffineTransform2D.rotation(.pi / 2).apply)
        let expected = [(0.0, 0.0), (0.0, 2.0), (-1.0, 2.0), (-1.0, 0.0)]
        #expect(zip(turned, expected).allSatisfy { Self.isClose($0, $1.0, $1.1) }, "\(turned)")
        // The centre follows: (25, 40) -> (51, 21).
        #expect(t.apply(r.center) == Point(x: 51, y: 21))
    }

    @Test("inverted undoes the map; worked inverses are exact")
    func inverse() throws {
        // Move (3, -2) then scale (2, 4): (x, y) -> (2x + 6, 4y - 8); the inverse is (x / 2 - 3, y / 4 + 2).
        let m = AffineTransform2D.translation(3, -2).concatenating(.scale(2, 4))
        #expect(m == AffineTransform2D(a: 2, b: 0, c: 0, d: 4, tx: 6, ty: -8))
        #expect(m.inverted == AffineTransform2D(a: 0.5, b: 0, c: 0, d: 0.25, tx: -3, ty: 2))
        // det(1, 2, 3, 4) = 4 - 6 = -2: inverse (d, -b, -c, a) / det = (-2, 1, 1.5, -0.5),
        // tx = (c ty - d tx) / det = (18 - 20) / -2 = 1, ty = (b tx - a ty) / det = (10 - 6) / -2 = -2.
        let t = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(t.determinant == -2)
        let inverse = try #require(t.inverted)
        #expect(inverse == AffineTransform2D(a: -2, b: 1, c: 1.5, d: -0.5, tx: 1, ty: -2))
        #expect(inverse.apply(Point(x: 9, y: 12)) == Point(x: 1, y: 1), "t sends (1, 1) to (9, 12)")
        #expect(t.concatenating(inverse) == .identity && inverse.concatenating(t) == .identity)
        // Rotation about a point: the inverse turns back.
        let turn = AffineTransform2D.translation(-4, -7).concatenating(.rotation(0.3)).concatenating(.translation(4, 7))
        let back = try #require(turn.inverted)
        #expect(Self.isClose(turn.concatenating(back), .identity))
        #expect(Self.isClose(back, AffineTransform2D.translation(-4, -7).concatenating(.rotation(-0.3)).concatenating(.translation(4, 7))))
        // A small scale is still invertible (det 1e-10 is above the 1e-12 cut-off).
        #expect(AffineTransform2D.scale(1e-5, 1e-5).inverted.map { Self.isClose($0, .scale(1e5, 1e5), within: 1e-6) } == true)
    }

    @Test("a transform that collapses the plane, or is not finite, has no inverse")
    func nonInvertible() {
        #expect(AffineTransform2D.scale(0, 1).inverted == nil)
        #expect(AffineTransform2D.scale(3, 0).concatenating(.translation(1, 1)).inverted == nil)
        // Rows (1, 2) and (2, 4) are parallel: det = 1 * 4 - 2 * 2 = 0.
        #expect(AffineTransform2D(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted == nil)
        // det = 1e-13, below the cut-off: treated as collapsed.
        #expect(AffineTransform2D.scale(1e-13, 1).inverted == nil)
        #expect(AffineTransform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted == nil)
        #expect(AffineTransform2D(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted == nil)
    }

    @Test("determinant and axis alignment")
    func determinantAndAxisAlignment() {
        #expect(AffineTransform2D.scale(2, 3).determinant == 6)
        #expect(AffineTransform2D.scale(-2, 3).determinant == -6, "a mirror flips the sign")
        #expect(AffineTransform2D.translation(5, 5).determinant == 1)
        #expect(AffineTransform2D.scale(2, 3).concatenating(.translation(4, 5)).isAxisAligned)
        #expect(AffineTransform2D.rotation(0).isAxisAligned)
        #expect(!AffineTransform2D.rotation(0.1).isAxisAligned)
        #expect(!AffineTransform2D(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0).isAxisAligned, "a shear")
    }
}
