import Foundation
import Primitives
import ShiftRender
import Testing

/// Labels through the library as a user meets them: fonts that cannot be had
/// are errors at the label's `text.font`, characters no font has are warnings,
/// a damaged font file is an error and never a crash, and the text drawn is
/// where the label is, the same whatever the thread count.
@Suite struct LabelRenderingTests {
    func scene(_ text: TextSpec, directory: String? = nil) -> Scene {
        Scene(
            canvas: CanvasSpec(width: 200, height: 60, scale: 2, background: .white),
            from: View { View(frame: Rect(x: 10, y: 10, width: 180, height: 40)).text(text) }.backgroundColor(.white),
            to: View().backgroundColor(.white), directory: directory)
    }

    func errors(_ scene: Scene) -> [String] {
        do {
            _ = try Renderer(scene: scene)
            return []
        } catch { return error.diagnostics?.errors.map(\.description) ?? [error.description] }
    }

    @Test func aFontThatCannotBeHadIsAnErrorAtTheLabelsFont() throws {
        let family = errors(scene(TextSpec("Hi", font: FontSpec(family: "No Such Family"))))
        #expect(family.count == 1)
        #expect(family.first?.hasPrefix("from.subviews[0].text.font: no installed font family \"No Such Family\"") == true)
        let folder = try TemporaryDirectory()
        do {
            let dir = folder.path
            #expect(
                errors(scene(TextSpec("Hi", font: FontSpec(file: "fonts/Missing.otf")), directory: dir))
                    == ["from.subviews[0].text.font: no font file at \(dir)/fonts/Missing.otf"])
            // A damaged font file: refused with FreeType's verdict, never a crash.
            var generator = SystemRandomNumberGenerator()
            let garbage = (0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            #expect(FileManager.default.createFile(atPath: dir + "/Broken.otf", contents: Data(garbage)))
            let broken = errors(scene(TextSpec("Hi", font: FontSpec(file: "Broken.otf")), directory: dir))
            #expect(broken == ["from.subviews[0].text.font: \(dir)/Broken.otf is not a font FreeType can read"])
            // `validate` says the same without drawing.
            #expect(SceneDiagnostics(validating: scene(TextSpec("Hi", font: FontSpec(file: "Broken.otf")), directory: dir)).errors.count == 1)
        }
    }

    @Test func aCharacterNoInstalledFontHasIsAWarningNamingIt() throws {
        let renderer = try Renderer(scene: scene(TextSpec("Play \u{10FFFD}")))
        #expect(
            renderer.diagnostics.warnings.map(\.description)
                == ["from.subviews[0].text.string: no installed font has U+10FFFD; it shows as the font's missing-glyph box"])
    }

    @Test func theTextIsDrawnInsideTheLabelAndTheSameOnAnyThreadCount() throws {
        let text = TextSpec("Now Playing", font: FontSpec(textStyle: .title2), color: RGBAColor(rgb: 0x000000), alignment: .center)
        let one = try Renderer(scene: scene(text), options: Renderer.Options(threads: 1)).still(.frame(0))
        let two = try Renderer(scene: scene(text), options: Renderer.Options(threads: 2)).still(.frame(0))
        #expect(one == two)
        // Dark pixels (the glyphs) only inside the label's 360 x 80 px bounds at (20, 20), centred in them.
        var inked: [(x: Int, y: Int)] = []
        for y in 0 ..< one.height {
            for x in 0 ..< one.width where one.pixels[(y * one.width + x) * 4] < 128 { inked.append((x, y)) }
        }
        #expect(inked.count > 500)
        #expect(inked.allSatisfy { (20 ..< 380).contains($0.x) && (20 ..< 100).contains($0.y) })
        let minX = inked.map(\.x).min() ?? 0
        let maxX = inked.map(\.x).max() ?? 0
        #expect(abs((minX + maxX) / 2 - 200) <= 3, "centred: ink from \(minX) to \(maxX)")
    }

    @Test func labelsOverTheMemoryLimitAreRefusedBeforeAnyIsDrawn() {
        // 40 labels of 180 x 40 pt at @2: 360 x 80 px, 115 200 bytes each, 4.6 MB in all.
        var scene = scene(TextSpec("Hi"))
        scene.from.subviews = (0 ..< 40).map { i in View(frame: Rect(x: 10, y: 10, width: 180, height: 40)).text(TextSpec("Label \(i)")) }
        do {
            _ = try Renderer(scene: scene, options: Renderer.Options(memoryLimit: 4e6))
            Issue.record("a render over the limit was accepted")
        } catch {
            #expect(
                error.diagnostics?.errors.map(\.description)
                    == ["from.subviews[0].text: the scene's 40 labels would take 5 MB to draw; the limit is 4 MB (--memory-limit)"])
        }
        #expect((try? Renderer(scene: scene, options: Renderer.Options(memoryLimit: 5e8))) != nil)
    }

    @Test func oneLabelOverTheMemoryLimitIsOneLabel() {
        // 1000 x 1000 pt at @2: 2000 x 2000 px, 16 MB against a limit of 1 MB.
        var scene = scene(TextSpec("Hi"))
        scene.from.subviews = [View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000)).text(TextSpec("Big"))]
        do {
            _ = try Renderer(scene: scene, options: Renderer.Options(memoryLimit: 1e6))
            Issue.record("a render over the limit was accepted")
        } catch {
            #expect(error.diagnostics?.errors.first?.message.hasPrefix("the scene's 1 label would take") == true, "\(error)")
        }
    }
}
