import FramePlan
import Primitives
import Testing
@testable import ShiftRender

@Suite("Held frames: a hold is a copy of the frame before")
struct HeldFrameTests {
    static func list(_ x: Double) -> DisplayList {
        DisplayList(items: [
            DrawItem(
                transform: .identity, shape: RoundedRect(rect: Rect(x: x, y: 0, width: 4, height: 4), cornerRadius: 0),
                paint: .solid(RGBAColor(red: 1, green: 0, blue: 0)))
        ])
    }

    @Test("Only the same display list copies, and it copies the held pixels")
    func copiesOnlyTheSameList() {
        var source = Bitmap(width: 3, height: 2)
        for i in source.pixels.indices { source.pixels[i] = UInt8(i * 7 % 256) }
        var held = HeldFrame()
        var target = Bitmap(width: 3, height: 2)
        #expect(!held.copy(Self.list(1), into: &target), "nothing is held yet")
        held.keep(Self.list(1), source)
        #expect(!held.copy(Self.list(2), into: &target))
        #expect(target.pixels.allSatisfy { $0 == 0 }, "a refused copy leaves the target alone")
        #expect(held.copy(Self.list(1), into: &target))
        #expect(target == source)
        var other = Bitmap(width: 2, height: 3)
        #expect(!held.copy(Self.list(1), into: &other), "a target of another size is drawn, not copied")
        held.release()
        #expect(!held.copy(Self.list(1), into: &target))
    }

    @Test("A clip that holds before it moves exports the frames its stills show", arguments: [1, 2])
    func holdsExportTheirStills(threads: Int) throws {
        let renderer = try Renderer(
            scene: movingCardScene(hold: 0.2), options: Renderer.Options(threads: threads))
        let lists = (0 ..< renderer.frameCount).map { renderer.timeline.displayList(frame: $0) }
        let holds = (1 ..< lists.count).filter { lists[$0] == lists[$0 - 1] }
        #expect(holds.count >= 5, "the scene has held frames to copy (\(holds.count))")
        let directory = try TemporaryDirectory()
        try renderer.render(to: directory.path + "/frames/")
        for index in 0 ..< renderer.frameCount {
            let name = "/frames/frame_" + String(repeating: "0", count: 5 - String(index).count) + String(index) + ".png"
            let decoded = try PNGCodec.decode(fileAt: directory.path + name)
            #expect(decoded == (try renderer.still(.frame(index))), "frame \(index)")
        }
    }
}
