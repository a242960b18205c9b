import Primitives
import SceneModel
import Testing

/// A place names the named views along it, as a person finds them in a long
/// scene: `from.subviews[1] "heroImage" .subviews[0].alpha`, and still counts its way there.
@Suite struct PlaceNamingTests {
    func box(_ x: Double) -> View { View(frame: Rect(x: x, y: 0, width: 10, height: 10)) }

    var scene: Scene {
        Scene(
            canvas: CanvasSpec(width: 100, height: 100),
            from: View {
                box(0)
                View(name: "heroImage", frame: Rect(x: 0, y: 0, width: 50, height: 50)) {
                    box(0).alpha(2)
                    box(10).name("close \"x\"").shift(id: "hero")
                }
            },
            to: View(name: "detail") {
                box(0).name("").shift(id: "card")
                box(20).shift(id: "card")
            }
        )
    }

    func problems(_ scene: Scene) -> [String] {
        SceneValidator.problems(in: scene).map { "\($0.naming(in: scene).place): \($0.message)" }
    }

    @Test func problemsNameTheNamedViewsAlongTheirPlace() {
        let problems = problems(scene)
        #expect(
            problems.contains(#"from.subviews[1] "heroImage" .subviews[0].alpha: 2 is out of range: must be at least 0 and at most 1"#),
            "\(problems)")
        // A root's name follows its screen; a view with an empty name shows by its index alone.
        #expect(
            problems.contains(
                #"to "detail" .subviews[1].shift.id: duplicate id "card" (first used at to "detail" .subviews[0]); "#
                    + "ids must be unique within a screen"),
            "\(problems)")
    }

    @Test func aNameIsQuotedAsJSONWouldQuoteIt() {
        let place = ViewAddress(screen: .from, indices: [1, 1]).place.key("frame")
        #expect(scene.naming(place).description == #"from.subviews[1] "heroImage" .subviews[1] "close \"x\"" .frame"#)
        #expect(scene.namedPlace(of: ViewAddress(screen: .from, indices: [1])).description == #"from.subviews[1] "heroImage""#)
    }

    /// Names are for people: a named place is the same place (locations, filters and
    /// tests that compare places are untouched), and places outside the views stay as they were.
    @Test func namesChangeNoPlacesIdentity() {
        let place = ViewAddress(screen: .from, indices: [1, 0]).place.key("alpha")
        let named = scene.naming(place)
        #expect(named == place)
        #expect(named.hashValue == place.hashValue)
        #expect(named.parent?.description == #"from.subviews[1] "heroImage" .subviews[0]"#)
        #expect(scene.naming(.key("canvas").key("width")).description == "canvas.width")
        // Past the views the scene has, the place keeps its indices.
        #expect(scene.naming(ViewAddress(screen: .from, indices: [7, 0]).place).description == "from.subviews[7].subviews[0]")
    }
}
