import Primitives
import SceneModel
import Testing

/// A scene written in Swift can hold any value: the API never clamps and
/// never traps, and `SceneValidator` names every bad value at the place a
/// scene file would give (`to.subviews[2].frame`), so a mistake in code is
/// reported exactly like the same mistake in a file.
@Suite struct BadValueTests {
    func problems(_ scene: Scene) -> [String] {
        SceneValidator.problems(in: scene).map { "\($0.place): \($0.message)" }
    }

    func card(_ x: Double) -> View { View(frame: Rect(x: x, y: 0, width: 10, height: 10)) }

    @Test func nanNegativeSizesAndEmptyIDsAreReportedAtTheirPlaces() {
        var emptied = Bitmap(width: 2, height: 2)
        emptied.pixels = []
        let scene = Scene(
            canvas: CanvasSpec(width: -390, height: 844),
            from: View { card(0).shift(id: "card") },
            to: View {
                card(0).shift(id: "card")
                card(20).shift(id: "card")
                View(frame: Rect(x: .nan, y: 0, width: 10, height: 10)).alpha(.nan).shift(id: "")
                View(frame: Rect(x: 0, y: 0, width: -10, height: 20)).cornerRadius(-1).zPosition(.infinity)
                card(40)
                    .backgroundColor(RGBAColor(rgb: 0x1000000))
                    .shift(animations: [.fade, .move(x: .nan, y: 0), .alpha(2, .onAppear)])
                    .image(.bitmap(emptied))
                card(50).image(.file("")).shadow(opacity: -0.5)
            }
        )
        .fps(.nan)
        .baselineDuration(-1)
        #expect(
            problems(scene) == [
                "canvas.width: -390 is out of range: must be greater than 0 and at most 8192",
                "fps: not a number (NaN)",
                "transition.baselineDuration: -1 is out of range: must be at least 0 and at most 600",
                "to.subviews[2].frame[0]: not a number (NaN)",
                "to.subviews[2].alpha: not a number (NaN)",
                "to.subviews[2].shift.id: empty id",
                "to.subviews[3].frame: width and height must not be negative (got -10 x 20)",
                "to.subviews[3].cornerRadius: -1 is out of range: must be at least 0 and at most 1000000",
                "to.subviews[3].zPosition: inf is not a finite number",
                "to.subviews[4].backgroundColor[0]: not a number (NaN)",
                "to.subviews[4].backgroundColor[1]: not a number (NaN)",
                "to.subviews[4].backgroundColor[2]: not a number (NaN)",
                "to.subviews[4].image: the bitmap holds 0 bytes; 2 x 2 px needs 16",
                "to.subviews[4].shift.animations[1].move: a move of (nan, 0) is out of range: each must be at least -1000000 "
                    + "and at most 1000000",
                "to.subviews[4].shift.animations[2].alpha: 2 is out of range: must be at least 0 and at most 1",
                "to.subviews[5].shadow.opacity: -0.5 is out of range: must be at least 0 and at most 1",
                "to.subviews[5].image: empty image path",
                "to.subviews[1].shift.id: duplicate id \"card\" (first used at to.subviews[0]); ids must be unique within a screen",
            ])
    }

    @Test func moreViewsThanTheLimitAreReportedAtTheFirstOneOver() {
        let count = SceneLimits.maximumViews
        let scene = Scene(
            canvas: CanvasSpec(width: 390, height: 844), from: View(),
            to: View {
                for i in 0 ..< count { View(frame: Rect(x: Double(i % 390), y: 0, width: 1, height: 1)) }
            })
        // Two roots, then the subviews: the view numbered maximumViews + 1 is subview count - 2.
        #expect(problems(scene) == ["to.subviews[\(count - 2)]: more than \(count) views in the scene"])
        let withinLimit = Scene(canvas: scene.canvas, from: View(), to: View { Array(scene.to.subviews.dropLast(2)) })
        #expect(problems(withinLimit).isEmpty)
    }

    @Test func nestingDeeperThanTheLimitIsReportedWhereItGoesTooDeep() {
        var innermost = View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
        for _ in 0 ..< SceneLimits.maximumViewDepth + 5 {
            let inner = innermost
            innermost = View(frame: Rect(x: 0, y: 0, width: 1, height: 1)) { inner }
        }
        let scene = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View { innermost })
        let deepest = ViewAddress(screen: .to, indices: Array(repeating: 0, count: SceneLimits.maximumViewDepth))
        #expect(problems(scene) == ["\(deepest.place.key("subviews")): views nest deeper than 24 levels"])
    }

    @Test func aSubviewWithoutAFrameIsReported() {
        let scene = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View { View(name: "no frame") })
        #expect(problems(scene) == ["to.subviews[0].frame: missing: every view but a root needs [x, y, width, height]"])
    }
}
