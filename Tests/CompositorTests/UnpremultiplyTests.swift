import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Transparent output")
struct UnpremultiplyTests {
    @Test("A translucent canvas gives premultiplied frames that unpremultiply to the straight colours")
    func translucentCanvas() {
        let background = RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)
        let card = RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        let plan = TestPlan(
            width: 16, height: 8, background: background,
            frames: [
                DisplayList(items: [
                    solidItem(rect(4, 0, 8, 8), card),
                    solidItem(rect(12, 0, 4, 8), .white, opacity: 0),
                ])
            ])
        let frame = FrameRenderer(plan: plan).render(frame: 0)
        #expect(frame.pixel(x: 1, y: 1) == (26, 51, 77, 128))
        // Red 0.5 over the background 0.5: alpha 0.75, colour (0.5 + 0.1 * 0.5 ... ) premultiplied.
        let p = frame.pixel(x: 6, y: 3)
        #expect(abs(Int(p.a) - 191) <= 1)
        #expect(abs(Int(p.r) - Int((0.5 + 0.1 * 0.5) * 255)) <= 1)
        let straight = frame.unpremultipliedPixels()
        #expect(Array(straight[0 ..< 4]) == [52, 102, 153, 128])
        #expect(abs(Int(straight[(3 * 16 + 6) * 4]) - Int(0.55 / 0.75 * 255)) <= 2)
    }
}
