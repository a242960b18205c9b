// swift-format-ignore-file
// (Its snippets are quoted word for word in README, docs and the DocC catalog: DocumentationSnippetTests.)

import Foundation
import GoldenImages
import ShiftRender
import Testing

/// The code of the DocC article "Building a scene in Swift"
/// (Sources/ShiftRender/ShiftRender.docc/BuildingAScene.md), compiled and
/// run here in the article's order; DocumentationSnippetTests checks that
/// every Swift snippet of the catalog appears in this file (or the example)
/// word for word, so the article cannot drift from code that builds.
@Suite struct TutorialTests {
    /// The README's scene ("The scene"), as the article writes it.
    static func makeScene() -> Scene {
        let scene = Scene(
            canvas: CanvasSpec(width: 390, height: 844, scale: 2),
            from: View {
                View(frame: Rect(x: 20, y: 140, width: 350, height: 130))
                    .backgroundColor(.white)
                    .cornerRadius(16)
                    .shift(id: "card")
            }
            .backgroundColor(RGBAColor(rgb: 0xF2F2F7)),
            to: View {
                View(frame: Rect(x: 0, y: 0, width: 390, height: 520))
                    .backgroundColor(RGBAColor(rgb: 0x1E7BF0))
                    .shift(id: "card")
                View(frame: Rect(x: 24, y: 600, width: 342, height: 14))
                    .backgroundColor(RGBAColor(rgb: 0xAEAEB2))
                    .shift(animations: [.fade, .move(.up(80))])
            }
            .backgroundColor(.white)
        )
        return scene
    }

    @Test func theArticlesSceneIsTheREADMEScene() throws {
        let readme = try String(contentsOfFile: RepositoryFiles.path("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## The scene").dropFirst().first)
        let json = try #require(section.components(separatedBy: "```json").dropFirst().first?.components(separatedBy: "```").first)
        let document = try SceneJSON.decode(bytes: Array(json.utf8), directory: nil)
        #expect(document.problems.isEmpty)
        #expect(Self.makeScene() == document.scene)
    }

    @Test func viewsCanBeSetUpImperativelyToo() {
        let scene = Self.makeScene()
        var body = View(frame: Rect(x: 24, y: 600, width: 342, height: 14))
        body.backgroundColor = RGBAColor(hex: "#AEAEB2")
        body.shift.animations = .init().fade().move(.up(80))
        #expect(body == scene.to.subviews[1])

        let slower = scene
            .baselineDuration(0.4)
            .defaultAnimation(.scale(.down))
            .hold(before: 0.2, after: 0.2)
        #expect(slower.transition == TransitionSpec(baselineDuration: 0.4, defaultAnimation: .scaleDown, holdBefore: 0.2, holdAfter: 0.2))
    }

    @Test func scrubbingWithAFinger() throws {
        let scene = Self.makeScene()
        let scrubbed = scene.interaction(
            InteractionSpec(axis: .y, points: [(0, 0), (0.3, 120), (0.5, 150)], rule: .navigationTransitions))
        let heldAtForty = try Renderer(scene: scrubbed).still(.progress(0.4))
        // The still at a progress does not depend on the finger: the same as the scene played by itself.
        #expect(heldAtForty == (try Renderer(scene: scene).still(.progress(0.4))))
        // 150 pt of the 844-pt height is p = 0.178; the last segment's slope is 30 pt / 0.2 s = 150 pt/s:
        // navigationTransitions cancels (v <= 675 and p < 0.2) at speed max(0.99, 150 / 800) = 0.99.
        let plan = try #require(try Renderer(scene: scrubbed).timeline.interaction)
        #expect(plan.outcome == .cancel)
        #expect(abs(plan.releaseProgress - 150.0 / 844) < 1e-12)
        #expect(plan.releaseVelocity == 150)
        #expect(plan.completionSpeed == 0.99)
    }

    @Test func checkingAScene() {
        let scene = Self.makeScene()
        let diagnostics = SceneDiagnostics(validating: scene)
        if diagnostics.hasErrors {
            print(diagnostics)
        }
        #expect(diagnostics.problems.isEmpty)

        let broken = scene.with { $0.to.subviews[1].frame?.size.width = -342 }
        print(SceneDiagnostics(validating: broken))
        // to.subviews[1].frame: width and height must not be negative (got -342 x 14)
        #expect(SceneDiagnostics(validating: broken).description
            == "to.subviews[1].frame: width and height must not be negative (got -342 x 14)")
    }

    @Test func renderingStillsAVideoAndCheckingAGolden() throws {
        let scene = Self.makeScene()
        let outputFolder = try RepositoryFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: outputFolder) }
        let goldenFolder = RepositoryFiles.path("fixtures/golden/tutorial")
        let failureFolder = RepositoryFiles.path(".build/golden-failures/tutorial")

        let renderer = try Renderer(scene: scene)
        let halfway = try renderer.still(.progress(0.5))
        let firstFramePNG = try renderer.pngData(.frame(0))
        #expect((halfway.width, halfway.height) == (780, 1688))
        #expect(Array(firstFramePNG.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

        var framesDone = 0
        try renderer.render(to: outputFolder + "/card.mp4") { progress in
            framesDone = progress.framesDone
        }
        #expect(framesDone == renderer.frameCount)
        let movie = try Data(contentsOf: URL(fileURLWithPath: outputFolder + "/card.mp4"))
        #expect(String(decoding: movie.dropFirst(4).prefix(4), as: UTF8.self) == "ftyp")

        let check = GoldenCheck(failureDirectory: failureFolder, record: GoldenCheck.recordRequested)
        let result = try check.check(halfway, goldenPath: goldenFolder + "/card-halfway.png")
        #expect(result.passed, "\(result.message)")
    }
}
