import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Core Animation's 3-D interpolation, worked by hand.
@Suite struct DecomposedTransformTests {
    static func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.values, b.values).allSatisfy { abs($0 - $1) < tolerance }
    }

    static func halfway(_ a: TransformSpec, _ b: TransformSpec) throws -> Transform3D {
        try #require(ViewState.interpolated3D(a, b, 0.5)).matrix
    }

    @Test func rotateY0To90IsRotateY45HalfWay() throws {
        let m = try Self.halfway(TransformSpec(rotateY: 0.001 - 0.001), TransformSpec(rotateY: 90))
        #expect(Self.near(m, Transform3D.rotation(.pi / 4, axis: 0, 1, 0)))
    }

    @Test func perspectiveFromNoneTo500IsM34OfMinusOneThousandthHalfWay() throws {
        // m34 goes linearly from 0 to -1/500: -1/1000 half way.
        let m = try Self.halfway(.identity, TransformSpec(perspective: 500))
        #expect(abs(m.r3.w - -1.0 / 1000) < 1e-15 && Self.near(m, { var t = Transform3D.identity; t.r3.w = -0.001; return t }()))
    }

    @Test func aHalfTurnKeepsItsSign() throws {
        // From +180 the turn passes +90, from -180 it passes -90 (a matrix could not tell them apart).
        #expect(Self.near(try Self.halfway(TransformSpec(rotateY: 180), .identity), Transform3D.rotation(.pi / 2, axis: 0, 1, 0)))
        #expect(Self.near(try Self.halfway(TransformSpec(rotateY: -180), .identity), Transform3D.rotation(-.pi / 2, axis: 0, 1, 0)))
    }

    @Test func twoFlatEndsKeepShiftsComponentPath() {
        let a = ViewState(spec: View(frame: Rect(x: 0, y: 0, width: 10, height: 10)), size: Size(width: 10, height: 10), position: .zero)
        var b = a
        b.transform = TransformSpec(rotate: 720)
        let mid = a.interpolated(to: b, 0.5)
        // 360 degrees by component: a whole turn (a matrix path would not turn at all).
        #expect(mid.decomposedTransform == nil && mid.transform.rotate == 360)
    }

    @Test func aMatrixBuiltFromComponentsDecomposesBackToThem() throws {
        let spec = TransformSpec(
            translate: Point(x: 5, y: -7), scale: Size(width: 2, height: 0.5), rotate: 10, rotateX: 30, rotateY: -20, translateZ: 12)
        let matrix = ViewGeometry.componentBody(of: spec)
        let parts = try #require(DecomposedTransform(matrix: matrix))
        let direct = try #require(DecomposedTransform(spec))
        #expect(abs(parts.scale.x - 2) < 1e-12 && abs(parts.scale.y - 0.5) < 1e-12 && abs(parts.scale.z - 1) < 1e-12)
        #expect(parts.translation == SIMD3(5, -7, 12) && abs(parts.skew.x) < 1e-12 && abs(parts.skew.y) < 1e-12)
        // The same rotation as the angles give (a quaternion and its negative are one rotation).
        let q = parts.quaternion
        let r = direct.quaternion
        #expect(min(((q - r) * (q - r)).sum(), ((q + r) * (q + r)).sum()) < 1e-20)
        #expect(Self.near(parts.matrix, matrix))
        // With perspective the matrix comes back up to its homogeneous scale (the unmatrix normalises m44 to 1).
        let withEye = matrix.concatenating(.perspective(400))
        let back = try #require(DecomposedTransform(matrix: withEye)).matrix
        let m44 = withEye.r4.w  // 1 + 12 * (-1/400) = 0.97
        #expect(abs(m44 - 0.97) < 1e-15)
        #expect(zip(back.values, withEye.values).allSatisfy { abs($0 * m44 - $1) < 1e-12 })
    }

    @Test func singularMatricesDoNotDecompose() {
        #expect(DecomposedTransform(matrix: .scale(0, 1, 1)) == nil)
        #expect(DecomposedTransform(matrix: Transform3D([Double](repeating: .nan, count: 16))!) == nil)
        var zeroW = Transform3D.identity
        zeroW.r4.w = 0
        #expect(DecomposedTransform(matrix: zeroW) == nil)
    }
}
