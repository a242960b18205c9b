import Foundation
import PNGCodec
import ShiftRender
import Testing

/// Scenes built in Swift go through the library like scenes read from
/// files: images may be given as a file, as PNG bytes or as a bitmap and
/// render the same, and a scene with bad values is refused with every
/// problem at its place, never with a trap.
@Suite struct SwiftSceneRenderingTests {
    static let posterPath = RepositoryFiles.path("fixtures/images/poster.png")

    func posterScene(_ image: ImageSource) -> Scene {
        Scene(
            canvas: CanvasSpec(width: 120, height: 160), from: View().backgroundColor(.white),
            to: View {
                View(frame: Rect(x: 10, y: 10, width: 100, height: 140))
                    .image(image).contentMode(.aspectFill).cornerRadius(12).masksToBounds()
                    .shift(animations: [.fade, .move(.up(40))])
            })
    }

    @Test func imagesAsFileDataOrBitmapRenderTheSame() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.posterPath)))
        let sources: [ImageSource] = [.file(Self.posterPath), .encoded(bytes), .bitmap(try PNGCodec.decode(fileAt: Self.posterPath))]
        let stills = try sources.map { source in try Renderer(scene: posterScene(source)).still(.progress(0.5)) }
        #expect(stills[0] == stills[1])
        #expect(stills[0] == stills[2])
        let blank = try Renderer(scene: posterScene(.bitmap(Bitmap(width: 2, height: 2)))).still(.progress(0.5))
        #expect(stills[0] != blank, "the image shows in the still")
    }

    @Test func aSceneWithBadValuesIsRefusedWithEveryPlace() {
        let scene = Scene(
            canvas: CanvasSpec(width: 100, height: 100), from: View(),
            to: View {
                View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
                View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
                View(frame: Rect(x: 0, y: 0, width: -10, height: 10)).alpha(.nan).shift(id: "")
            })
        do throws(RenderError) {
            _ = try Renderer(scene: scene)
            Issue.record("a scene with NaN and a negative size rendered")
        } catch {
            #expect(error.kind == .invalidScene)
            #expect(
                error.diagnostics?.lines == [
                    "to.subviews[2].frame: width and height must not be negative (got -10 x 10)",
                    "to.subviews[2].alpha: not a number (NaN)",
                    "to.subviews[2].shift.id: empty id",
                ])
        }
    }

    @Test func undecodableImageDataIsReportedAtItsView() {
        let scene = posterScene(.encoded([1, 2, 3]))
        let diagnostics = SceneDiagnostics(validating: scene)
        #expect(diagnostics.errors.map(\.place.description) == ["to.subviews[0].image"])
    }
}
