import Primitives

// The rules of issue 17's keys: a transform's 3-D components and `matrix3D`,
// and a view's backdrop `blur` (docs/scene-format.md, "3-D transforms" and
// "Backdrop blur"). The same rules hold wherever a transform is written: a
// view's `transform` and the `transform` additional animation; keyframe
// values take the ranges of the components they drive (TimingValidation).
//
// What is not checked, on purpose: a view whose transform puts it wholly or
// partly behind the eye (translateZ beyond the perspective's distance, or a
// matrix whose W is negative over the layer). That depends on the animation
// and the tree, not on one value; the engine cuts geometry at the eye plane
// and draws nothing behind it (docs/3d.md), so it is a documented no-draw.
extension TransformSpec {
    /// The components `matrix3D` replaces, in the format's key order.
    public static let componentKeys = ["translate", "scale", "rotate", "rotateX", "rotateY", "translateZ", "perspective"]

    /// Both the file reader and the validator say this, so a file and a Swift-built scene read the same.
    public static func besideMatrix3D(_ key: String) -> String {
        "\(key) together with matrix3D: matrix3D is the whole transform; fold \(key) into the matrix or leave matrix3D out"
    }
}

extension Checker {
    /// A transform's 3-D components; the 2-D ones are `check(_ transform:)`'s.
    mutating func checkDepth(_ transform: TransformSpec, _ place: ScenePlace) {
        let turns = -SceneLimits.maximumRotation ... SceneLimits.maximumRotation
        number(transform.rotateX, place.key("rotateX"), in: turns)
        number(transform.rotateY, place.key("rotateY"), in: turns)
        number(transform.translateZ, place.key("translateZ"), in: coordinate)
        if let perspective = transform.perspective { self.perspective(perspective, place.key("perspective")) }
        guard let matrix = transform.matrix3D else { return }
        let matrixPlace = place.key("matrix3D")
        // The whole transform, so a component beside it would be silently dropped or applied twice.
        for (name, isSet) in Self.components(besides: transform) where isSet {
            report(place.key(name), TransformSpec.besideMatrix3D(name))
        }
        guard matrix.count == 16 else {
            report(matrixPlace, "\(matrix.count) number\(matrix.count == 1 ? "" : "s"); matrix3D takes 16 (CATransform3D's m11 ... m44)")
            return
        }
        let before = problems.count
        for (i, value) in matrix.enumerated() { finite(value, matrixPlace.index(i)) }
        guard problems.count == before, let flattened = Transform3D(matrix)?.flattened else { return }
        if !(Self.conditioning(of: flattened) > SceneLimits.minimumMatrix3DConditioning) {
            report(
                matrixPlace,
                "singular: the matrix flattens the layer onto a line or a point (m11 m12 m14 / m21 m22 m24 / m41 m42 m44 "
                    + "have determinant \(Self.format(flattened.determinant)), not more than "
                    + "\(Self.format(SceneLimits.minimumMatrix3DConditioning)) of their rows' lengths multiplied)")
        }
    }

    /// An eye distance: greater than 0 (at 0 the eye is on the layer, below it behind), at most the coordinate limit.
    mutating func perspective(_ distance: Double, _ place: ScenePlace) {
        guard finite(distance, place) else { return }
        if distance <= 0 {
            report(
                place,
                "\(Self.format(distance)) is out of range: must be greater than 0 (the eye's distance in points, m34 = -1 / perspective; "
                    + "a perspective of 0 puts the eye on the layer, and below 0 behind it)")
        } else {
            number(distance, place, in: 0 ... coordinate.upperBound, exclusiveLower: true)
        }
    }

    mutating func check(_ blur: BlurSpec, _ place: ScenePlace) {
        number(blur.radius, place.key("radius"), in: 0 ... SceneLimits.maximumBlurRadius)
    }

    /// The components `matrix3D` replaces, and whether each is away from its identity value.
    static func components(besides t: TransformSpec) -> [(String, Bool)] {
        [
            ("translate", t.translate != .zero), ("scale", t.scale != Size(width: 1, height: 1)), ("rotate", t.rotate != 0),
            ("rotateX", t.rotateX != 0), ("rotateY", t.rotateY != 0), ("translateZ", t.translateZ != 0),
            ("perspective", t.perspective != nil),
        ]
    }

    /// |det| / (|r1| |r2| |r3|), in 0...1 (Hadamard's inequality). Each row is first divided by its
    /// largest entry, which leaves the ratio as it is and keeps the products from overflowing.
    static func conditioning(of h: Homography) -> Double {
        var rows = [[h.m11, h.m12, h.m13], [h.m21, h.m22, h.m23], [h.m31, h.m32, h.m33]]
        var lengths = 1.0
        for i in rows.indices {
            let largest = rows[i].map(abs).max() ?? 0
            guard largest > 0 else { return 0 }
            rows[i] = rows[i].map { $0 / largest }
            lengths *= rows[i].map { $0 * $0 }.reduce(0, +).squareRoot()
        }
        guard let scaled = Homography(rows.flatMap { $0 }) else { return 0 }
        return abs(scaled.determinant) / lengths
    }
}
