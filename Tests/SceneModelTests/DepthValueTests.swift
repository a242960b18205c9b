import Primitives
import SceneModel
import Testing

/// Issue 17's rules on scenes built in Swift: 3-D transform components,
/// `matrix3D` (count, finiteness, singularity, alone), perspective, the blur
/// radius and the new keyframe properties, each named at the place a file would name.
@Suite struct DepthValueTests {
    let at = "to.subviews[0]"

    func problems(_ view: View) -> [String] {
        let scene = Scene(canvas: CanvasSpec(width: 100, height: 100), from: View(), to: View { view })
        return SceneValidator.problems(in: scene).map { "\($0.place): \($0.message)" }
    }

    let box = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))

    @Test func soundDepthValuesHaveNoProblems() {
        let sound: [View] = [
            box.transform(TransformSpec(rotationYDegrees: 89.9999, perspective: 500)),
            box.transform(TransformSpec(rotateX: -36000, rotateY: 36000, translateZ: -1_000_000, perspective: 1_000_000)),
            // Behind the eye (translateZ beyond the eye's distance) is a no-draw, not an input error.
            box.transform(TransformSpec(translateZ: 900, perspective: 500)),
            box.transform(TransformSpec(perspective: 1e-9)),
            box.transform(TransformSpec(matrix3D: Transform3D.rotation(.pi / 3, axis: 1, 1, 0).concatenating(.perspective(300)))),
            // A translation of 10^6 points: conditioning about 1e-6, far above the 1e-12 floor.
            box.transform(TransformSpec(matrix3D: Transform3D.translation(1e6, -1e6, 0))),
            // Huge rows are normalised before multiplying: no overflow to a false "singular".
            box.transform(TransformSpec(matrix3D: Transform3D.scale(1e200, 1e-200, 1))),
            box.doubleSided(false).blur(.systemUltraThinMaterialDark, radius: 0),
            box.blur(radius: 100),
            box.keyframes(
                .rotateX([0: -36000, 1: 36000]), .rotateY([0: 0]), .translateZ([0: 1e6]), .perspective([0: 1e-3, 1: 1e6]),
                .blurRadius([0: 0, 1: 100])),
        ]
        for view in sound { #expect(problems(view) == [], "\(view.transform) \(String(describing: view.blur))") }
    }

    @Test func componentsOutOfRangeOrNotFiniteAreNamed() {
        let view = box.transform(TransformSpec(rotateX: .nan, rotateY: 36001, translateZ: -.infinity, perspective: 0))
        #expect(
            problems(view) == [
                "\(at).transform.rotateX: not a number (NaN)",
                "\(at).transform.rotateY: 36001 is out of range: must be at least -36000 and at most 36000",
                "\(at).transform.translateZ: -inf is not a finite number",
                "\(at).transform.perspective: 0 is out of range: must be greater than 0 (the eye's distance in points, "
                    + "m34 = -1 / perspective; a perspective of 0 puts the eye on the layer, and below 0 behind it)",
            ])
        #expect(
            problems(box.transform(TransformSpec(perspective: 2e6))) == [
                "\(at).transform.perspective: 2000000 is out of range: must be greater than 0 and at most 1000000"
            ])
        #expect(
            problems(box.transform(TransformSpec(perspective: .infinity))) == ["\(at).transform.perspective: inf is not a finite number"])
    }

    @Test func matrix3DNeedsSixteenFiniteNumbers() {
        #expect(
            problems(box.transform(TransformSpec(matrix3D: [1, 0, 0]))) == [
                "\(at).transform.matrix3D: 3 numbers; matrix3D takes 16 (CATransform3D's m11 ... m44)"
            ])
        var values = Transform3D.identity.values
        values[11] = .nan
        values[14] = .infinity
        #expect(
            problems(box.transform(TransformSpec(matrix3D: values))) == [
                "\(at).transform.matrix3D[11]: not a number (NaN)", "\(at).transform.matrix3D[14]: inf is not a finite number",
            ])
    }

    /// The flattened 3x3 is rows and columns 1, 2, 4 of the 4x4.
    @Test func aSingularMatrixIsAnErrorAtMatrix3D() {
        let message = { (det: String) in
            "\(self.at).transform.matrix3D: singular: the matrix flattens the layer onto a line or a point "
                + "(m11 m12 m14 / m21 m22 m24 / m41 m42 m44 have determinant \(det), not more than 1e-12 of their rows' lengths multiplied)"
        }
        // Row 2 is twice row 1 (m21 = 2 m11): determinant 0.
        let proportional: [Double] = [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(problems(box.transform(TransformSpec(matrix3D: proportional))) == [message("0")])
        // A zero row (m41 = m42 = m44 = 0): every point has W = 0.
        let noW: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
        #expect(problems(box.transform(TransformSpec(matrix3D: noW))) == [message("0")])
        // m22 = 1e-13: rows (1, 0, 0), (0, 1e-13, 0), (0, 0, 1), det 1e-13 over lengths 1 x 1e-13 x 1 is 1, a thin but
        // sound scale. Rows (1, 0, 0) and (1, 1e-13, 0) are nearly parallel: det 1e-13 over lengths 1 x 1 x 1
        // (1 + 1e-26 rounds to 1) is 1e-13, below 1e-12.
        let thin: [Double] = [1, 0, 0, 0, 0, 1e-13, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(problems(box.transform(TransformSpec(matrix3D: thin))) == [])
        let nearlyParallel: [Double] = [1, 0, 0, 0, 1, 1e-13, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(problems(box.transform(TransformSpec(matrix3D: nearlyParallel))) == [message("1e-13")])
    }

    @Test func matrix3DBesideAnotherComponentNamesTheComponent() {
        let t = TransformSpec(translate: Point(x: 1, y: 0), rotateY: 30, perspective: 500, matrix3D: Transform3D.identity.values)
        #expect(
            problems(box.transform(t)) == ["translate", "rotateY", "perspective"].map {
                "\(at).transform.\($0): \($0) together with matrix3D: matrix3D is the whole transform; fold \($0) into the matrix "
                    + "or leave matrix3D out"
            })
        // Components at their identity values are not "beside" it.
        #expect(problems(box.transform(TransformSpec(rotate: 0, matrix3D: Transform3D.identity.values))) == [])
    }

    @Test func theTransformAnimationIsHeldToTheSameRules() {
        let view = box.shift(animations: [.transform(TransformSpec(rotateY: 30, perspective: -1))])
        #expect(
            problems(view) == [
                "\(at).shift.animations[0].transform.perspective: -1 is out of range: must be greater than 0 (the eye's distance "
                    + "in points, m34 = -1 / perspective; a perspective of 0 puts the eye on the layer, and below 0 behind it)"
            ])
    }

    @Test func blurRadiusIsWithinZeroToAHundred() {
        #expect(problems(box.blur(radius: 100.5)) == ["\(at).blur.radius: 100.5 is out of range: must be at least 0 and at most 100"])
        #expect(problems(box.blur(.dark, radius: -1)) == ["\(at).blur.radius: -1 is out of range: must be at least 0 and at most 100"])
        #expect(problems(box.blur(radius: .nan)) == ["\(at).blur.radius: not a number (NaN)"])
    }

    @Test func newKeyframePropertiesTakeTheirComponentsRanges() {
        let view = box.keyframes(
            .rotateX([0: .nan]), .rotateY([0: 40000]), .translateZ([0: 2e6]), .perspective([0: 0]), .blurRadius([0: 101]))
        let k = "\(at).shift.keyframes"
        #expect(
            problems(view) == [
                "\(k).rotateX[0][1]: not a number (NaN)",
                "\(k).rotateY[0][1]: 40000 is out of range: must be at least -36000 and at most 36000",
                "\(k).translateZ[0][1]: 2000000 is out of range: must be at least -1000000 and at most 1000000",
                "\(k).perspective[0][1]: 0 is out of range: must be greater than 0 (the eye's distance in points, "
                    + "m34 = -1 / perspective; a perspective of 0 puts the eye on the layer, and below 0 behind it)",
                "\(k).blurRadius[0][1]: 101 is out of range: must be at least 0 and at most 100",
            ])
    }

    @Test func swiftSpellingsBuildTheModel() {
        #expect(TransformSpec(rotationYDegrees: 30, perspective: 500) == TransformSpec(rotateY: 30, perspective: 500))
        #expect(TransformSpec(rotationXDegrees: -10) == TransformSpec(rotateX: -10))
        #expect(TransformSpec(translationX: 1, y: 2, z: 3) == TransformSpec(translate: Point(x: 1, y: 2), translateZ: 3))
        #expect(TransformSpec(rotate: 5).perspective(800) == TransformSpec(rotate: 5, perspective: 800))
        #expect(TransformSpec(matrix3D: Transform3D.perspective(400)).matrix3D?[11] == -1.0 / 400)
        #expect(box.blur() == box.with { $0.blur = BlurSpec(style: .regular, radius: 20) })
        #expect(box.blur(.dark, radius: 5).blur == BlurSpec(style: .dark, radius: 5))
        #expect(box.blur(.dark).blur(nil) == box)
        #expect(box.doubleSided(false).doubleSided == false && box.doubleSided)
        #expect(TransformSpec(rotationYDegrees: 1).is3D && !TransformSpec(rotationDegrees: 1).is3D)
    }
}
