import Primitives
import Testing
@testable import SceneFormat
import SceneModel

/// Issue 17's keys in a file: a transform's rotateX, rotateY, translateZ,
/// perspective and matrix3D (in a view's transform, the transform animation
/// and keyframes), doubleSided, blur, and the flip and cube navigations.
/// Each is read to what the Swift spelling builds, written back only when not
/// the default, and each mistake reported once at its place.
@Suite struct DepthFormatTests {
    func text(view: String, transition: String = "{}") -> String {
        #"{"version": 1, "canvas": {"width": 100, "height": 100}, "transition": \#(transition), "from": {}, "#
            + #""to": {"subviews": [{"frame": [0, 0, 50, 50]\#(view)}]}}"#
    }

    func load(view: String, transition: String = "{}") -> (Scene?, [String]) {
        do {
            return (try loadScene(bytes: Array(text(view: view, transition: transition).utf8), file: "t.json", baseDirectory: "/s"), [])
        } catch {
            return (nil, error.issues.map { "\($0.path): \($0.message)" })
        }
    }

    func view(_ json: String) -> View? {
        let (scene, problems) = load(view: json)
        #expect(problems == [], "\(json)")
        return scene?.to.subviews.first
    }

    func problems(_ json: String, transition: String = "{}") -> [String] { load(view: json, transition: transition).1 }

    let box = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
    let at = "to.subviews[0]"

    @Test func depthKeysReadAsTheSwiftSpellingBuildsThem() {
        let identity = "1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1"
        let cases: [(String, View)] = [
            (#", "transform": {"rotateX": 10, "rotateY": -20.5, "translateZ": 3, "perspective": 500}"#,
             box.transform(TransformSpec(rotateX: 10, rotateY: -20.5, translateZ: 3, perspective: 500))),
            (#", "transform": {"rotateY": 30, "perspective": 400}"#, box.transform(TransformSpec(rotationYDegrees: 30, perspective: 400))),
            (#", "transform": {"matrix3D": [\#(identity)]}"#, box.transform(TransformSpec(matrix3D: Transform3D.identity))),
            (#", "doubleSided": false"#, box.doubleSided(false)),
            (#", "doubleSided": true"#, box),
            (#", "blur": {}"#, box.blur()),
            (#", "blur": {"style": "dark"}"#, box.blur(.dark)),
            (#", "blur": {"radius": 0}"#, box.blur(radius: 0)),
            (#", "blur": {"style": "systemChromeMaterialLight", "radius": 42.5}"#, box.blur(.systemChromeMaterialLight, radius: 42.5)),
            (#", "shift": {"animations": [{"transform": {"rotateX": 90, "perspective": 300}}]}"#,
             box.shift(animations: [.transform(TransformSpec(rotationXDegrees: 90, perspective: 300))])),
            (#", "shift": {"keyframes": {"rotateY": [[0, 0], [1, 180]], "perspective": [[0, 500]], "blurRadius": [[0, 0], [1, 20]]}}"#,
             box.keyframes(.rotateY([0: 0, 1: 180]), .perspective([0: 500]), .blurRadius([0: 0, 1: 20]))),
            (#", "shift": {"keyframes": {"rotateX": [[0, 5]], "translateZ": [[0.5, -10]]}}"#,
             box.keyframes(.rotateX([0: 5]), .translateZ([0.5: -10]))),
        ]
        for (json, expected) in cases { #expect(view(json) == expected, "\(json)") }
    }

    @Test func flipAndCubeReadInEveryDirection() {
        for direction in HeroDirection.allCases {
            for (key, expected) in [("flip", NavigationSpec.flip(direction)), ("cube", .cube(direction))] {
                let (scene, problems) = load(view: "", transition: #"{"navigation": {"\#(key)": "\#(direction.rawValue)"}}"#)
                #expect(problems == [])
                #expect(scene?.transition.navigation == expected)
            }
        }
    }

    /// Defaults are left out; the rest reads back equal (the kitchen sinks do it for every key at once).
    @Test func theWriterWritesOnlyWhatIsNotTheDefault() throws {
        func written(_ v: View) throws -> String {
            let scene = Scene(canvas: CanvasSpec(width: 100, height: 100), from: View(), to: View { v })
            return String(decoding: try SceneJSON.encode(scene), as: UTF8.self)
        }
        let plain = try written(box.doubleSided(true).transform(TransformSpec(rotateX: 0, perspective: nil)))
        #expect(!plain.contains("doubleSided") && !plain.contains("transform") && !plain.contains("blur"))
        let blur = try written(box.blur())
        #expect(blur.contains(#""blur": {}"#))
        let depth = try written(box.doubleSided(false).blur(.light, radius: 7).transform(TransformSpec(rotateY: 30, perspective: 500)))
        #expect(depth.contains(#""doubleSided": false"#))
        #expect(depth.contains(#""blur": {"style": "light", "radius": 7}"#))
        #expect(depth.contains(#""transform": {"rotateY": 30, "perspective": 500}"#))
        let matrix = try written(box.transform(TransformSpec(matrix3D: Transform3D.perspective(400))))
        #expect(matrix.contains(#""matrix3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.0025, 0, 0, 0, 1]"#))
    }

    @Test func mistakesAreReportedOnceAtTheirPlace() {
        let styles = BlurStyle.allCases.map(\.rawValue).joined(separator: ", ")
        let cases: [(String, [String])] = [
            (#", "transform": {"matrix3D": [1, 0, 0]}"#,
             ["\(at).transform.matrix3D: expected 16 numbers (CATransform3D's m11 ... m44), got 3 numbers"]),
            (#", "transform": {"matrix3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, "0", 1]}"#,
             ["\(at).transform.matrix3D[14]: expected a number, got a string"]),
            (#", "transform": {"perspective": "far"}"#, ["\(at).transform.perspective: expected a number, got a string"]),
            (#", "transform": {"rotateZ": 5}"#, [#"\#(at).transform.rotateZ: unknown key "rotateZ"; did you mean "rotate"?"#]),
            // In a file a component beside matrix3D is refused even at its identity value (as the schema says).
            (#", "transform": {"rotate": 0, "matrix3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}"#,
             ["\(at).transform.rotate: " + TransformSpec.besideMatrix3D("rotate")]),
            (#", "transform": {"scale": 2, "perspective": 9, "matrix3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}"#,
             ["\(at).transform.scale: " + TransformSpec.besideMatrix3D("scale"),
              "\(at).transform.perspective: " + TransformSpec.besideMatrix3D("perspective")]),
            (#", "doubleSided": "no""#, ["\(at).doubleSided: expected true or false, got a string"]),
            (#", "blur": "dark""#, ["\(at).blur: expected an object, got a string"]),
            (#", "blur": {"stlye": "dark"}"#, [#"\#(at).blur.stlye: unknown key "stlye"; did you mean "style"?"#]),
            (#", "blur": {"style": "drak"}"#,
             [#"\#(at).blur.style: unknown value "drak"; expected one of: \#(styles) (did you mean "dark"?)"#]),
            (#", "blur": {"radius": 101}"#, ["\(at).blur.radius: 101 is out of range: must be at least 0 and at most 100"]),
            (#", "shift": {"keyframes": {"blurRadius": [[0, [1, 2]]]}}"#,
             ["\(at).shift.keyframes.blurRadius[0][1]: expected a number, got an array"]),
        ]
        for (json, expected) in cases { #expect(problems(json) == expected, "\(json)") }
        #expect(
            problems("", transition: #"{"navigation": {"flip": "leftt"}}"#) == [
                #"transition.navigation.flip: unknown value "leftt"; expected one of: left, right, up, down (did you mean "left"?)"#
            ])
        #expect(
            problems("", transition: #"{"navigation": "cube"}"#) == [
                #"transition.navigation: "cube" needs a direction: {"cube": "left" | "right" | "up" | "down"}"#
            ])
    }
}
