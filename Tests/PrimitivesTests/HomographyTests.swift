import Testing
import Primitives

@Suite("Homography")
struct HomographyTests {
    @Test("Derivatives of a perspective map at a point match the quotient rule worked by hand")
    func derivatives() throws {
        // x' = x / (1 + 0.001 x), y' = y / (1 + 0.001 x). At (100, 0): W = 1.1, x' = 90.909...,
        // dx'/dx = 1 / W^2 = 1 / 1.21 = 0.826446..., dy'/dy = 1 / W = 0.909090..., the cross terms 0 (y = 0).
        let h = Homography(m11: 1, m12: 0, m13: 0.001, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let j = try #require(h.derivatives(at: Point(x: 100, y: 0)))
        #expect(abs(j.image.x - 100 / 1.1) < 1e-12 && j.image.y == 0 && abs(j.w - 1.1) < 1e-12)
        #expect(abs(j.xByX - 1 / 1.21) < 1e-12 && abs(j.yByY - 1 / 1.1) < 1e-12)
        #expect(j.xByY == 0 && j.yByX == 0)
        // At (100, 50) the cross term dy'/dx = -y * 0.001 / W^2 = -0.05 / 1.21.
        let k = try #require(h.derivatives(at: Point(x: 100, y: 50)))
        #expect(abs(k.yByX + 0.05 / 1.21) < 1e-12)
        // Behind the eye (W = 1 - 2 = -1 at x = -2000): none.
        #expect(h.derivatives(at: Point(x: -2000, y: 0)) == nil)
    }

    @Test("An affine map's derivatives are its linear part everywhere")
    func affineDerivatives() throws {
        let h = Homography(affine: AffineTransform2D(a: 2, b: 0.5, c: -1, d: 3, tx: 7, ty: -4))
        let j = try #require(h.derivatives(at: Point(x: 13, y: -6)))
        // x' = 2x - y + 7, y' = 0.5x + 3y - 4.
        #expect(j.xByX == 2 && j.xByY == -1 && j.yByX == 0.5 && j.yByY == 3 && j.w == 1)
    }
}
