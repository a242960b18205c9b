import Foundation
import Testing
@testable import ShiftRender

/// A small scene built in code: a red card that moves 100 pt right and grows,
/// over a white root, and nothing else animating (no default fade).
func movingCardScene(fps: Double = 30, image: ImageSource? = nil, hold: Double = 0) -> Scene {
    var card = View(frame: Rect(x: 10, y: 20, width: 40, height: 30), backgroundColor: RGBAColor(red: 1, green: 0, blue: 0))
    card.shift.id = "card"
    var arrived = card
    arrived.frame = Rect(x: 110, y: 20, width: 60, height: 30)
    arrived.image = image
    var transition = TransitionSpec(defaultAnimation: .none)
    transition.holdBefore = hold
    return Scene(
        canvas: CanvasSpec(width: 200, height: 80, scale: 1, background: .white), fps: fps, transition: transition,
        from: View(backgroundColor: .white, subviews: [card]), to: View(backgroundColor: .white, subviews: [arrived]))
}

/// The columns of row `y` whose red channel is full and green empty (the card).
func redColumns(_ bitmap: Bitmap, row y: Int) -> ClosedRange<Int>? {
    let xs = (0 ..< bitmap.width).filter { x in
        let p = bitmap.pixel(x: x, y: y)
        return p.r > 250 && p.g < 5
    }
    guard let first = xs.first, let last = xs.last else { return nil }
    return first ... last
}

@Suite("Renderer: stills")
struct RendererStillTests {
    @Test("A still by frame, by time and by progress 0 and 1 agree where they name the same instant")
    func momentsAgree() throws {
        let renderer = try Renderer(scene: movingCardScene())
        let last = renderer.frameCount - 1
        #expect(try renderer.still(.frame(0)) == renderer.still(.time(0)))
        #expect(try renderer.still(.frame(3)) == renderer.still(.time(3.0 / 30)))
        #expect(try renderer.still(.frame(0)) == renderer.still(.progress(0)))
        #expect(try renderer.still(.frame(last)) == renderer.still(.progress(1)))
        #expect(try redColumns(renderer.still(.frame(0)), row: 35) == 10 ... 49)
        #expect(try redColumns(renderer.still(.frame(last)), row: 35) == 110 ... 169)
    }

    @Test("Progress 0.5 shows the state half-way through the motion in time, on Shift's curve")
    func progressFollowsTheCurve() throws {
        let renderer = try Renderer(scene: movingCardScene())
        // One view: duration = 0.265 + 0.175 * 100 / 500 = 0.3 s; at progress 0.5 the
        // curve (0.4, 0, 0.2, 1) gives c = TimingCurve.shift.value(at: 0.5).
        let c = TimingCurve.shift.value(at: 0.5)
        #expect(c > 0.6 && c < 0.9)  // the curve runs ahead of time half-way
        // Centre x: 30 -> 140; width 40 -> 60.
        let centre = 30 + (140 - 30) * c
        let width = 40 + (60 - 40) * c
        let columns = try #require(redColumns(try renderer.still(.progress(0.5)), row: 35))
        #expect(abs(Double(columns.lowerBound) - (centre - width / 2)) <= 1)
        #expect(abs(Double(columns.upperBound + 1) - (centre + width / 2)) <= 1)
    }

    @Test("Progress ignores holds: it is the state of the motion")
    func progressSkipsHolds() throws {
        let held = try Renderer(scene: movingCardScene(hold: 0.5))
        let plain = try Renderer(scene: movingCardScene())
        #expect(try held.still(.progress(0.5)) == plain.still(.progress(0.5)))
        #expect(held.frameCount == plain.frameCount + 15)
    }

    @Test(
        "Moments outside the clip are usage errors, never a trap",
        arguments: [
            Moment.frame(-1), .frame(10_000), .time(-0.1), .time(1e300), .time(.nan), .time(.infinity),
            .progress(-0.01), .progress(1.01), .progress(.nan),
        ])
    func momentsOutsideTheClip(_ moment: Moment) throws {
        let renderer = try Renderer(scene: movingCardScene())
        #expect { try renderer.still(moment) } throws: { ($0 as? RenderError)?.kind == .usage }
    }

    @Test("PNG data decodes to the still's pixels")
    func pngData() throws {
        let renderer = try Renderer(scene: movingCardScene())
        let png = try renderer.pngData(.frame(4))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(try PNGCodec.decode(data: png) == renderer.still(.frame(4)))
    }

    @Test("Images as a file, as PNG data and as a bitmap in memory draw the same pixels")
    func imageHandles() throws {
        let file = Repository.path("fixtures/images/star.png")
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let bitmap = try PNGCodec.decode(data: data)
        let stills = try [ImageSource.file(file), .encoded(data), .bitmap(bitmap)].map { source in
            try Renderer(scene: movingCardScene(image: source)).still(.frame(5))
        }
        #expect(stills[0] == stills[1])
        #expect(stills[0] == stills[2])
        #expect(stills[0] != (try Renderer(scene: movingCardScene()).still(.frame(5))))
    }

    @Test("A scene with errors is refused with every problem and its place")
    func invalidScenes() throws {
        var scene = movingCardScene()
        scene.to.subviews[0].frame = Rect(x: .nan, y: 0, width: 10, height: 10)
        scene.to.subviews[0].subviews = [View(frame: Rect(x: 0, y: 0, width: -1, height: 10))]
        scene.from.subviews[0].alpha = 2
        scene.fps = 0.5
        #expect {
            try Renderer(scene: scene)
        } throws: { error in
            guard let error = error as? RenderError, error.kind == .invalidScene, let d = error.diagnostics else { return false }
            return d.errors.map(\.placeText) == [
                "fps", "from.subviews[0].alpha", "to.subviews[0].frame[0]",
                "to.subviews[0].subviews[0].frame",
            ]
                && d.errors[2].message == "not a number (NaN)"
                && d.errors[3].message == "width and height must not be negative (got -1 x 10)"
        }
    }
}

@Suite("Renderer: memory budget")
struct MemoryBudgetTests {
    @Test("Sizes parse in decimal and binary units")
    func parsing() {
        #expect(MemoryBudget.parse("8G") == 8e9)
        #expect(MemoryBudget.parse("512M") == 512e6)
        #expect(MemoryBudget.parse("2.5GB") == 2.5e9)
        #expect(MemoryBudget.parse("1GiB") == 1_073_741_824)
        #expect(MemoryBudget.parse("1048576") == 1_048_576)
        #expect(MemoryBudget.parse("-1G") == nil)
        #expect(MemoryBudget.parse("lots") == nil)
        #expect(MemoryBudget.parse("1Q") == nil)
    }

    @Test("Sources count their bitmap, padded texture and the levels frames read; the frame counts twice")
    func estimateParts() throws {
        func imageBytes(_ width: Int, _ height: Int) throws -> Double {
            let scene = movingCardScene(image: .bitmap(Bitmap(width: width, height: height, fill: (0, 0, 255, 255))))
            let parts = try Renderer(scene: scene).memoryEstimate().parts
            return try #require(parts.first { $0.name == "images" }?.bytes)
        }
        // Drawn 40 to 60 px wide and 30 high: never below half size, so no levels.
        #expect(try imageBytes(60, 30) == Double(60 * 30 * 4 + 61 * 31 * 4))
        // 240 x 120 in the same box reads level (2, 2) throughout, which builds
        // (1, 0) 120 x 120, (2, 0) 60 x 120, then (2, 1) 60 x 60 and (2, 2) 60 x 30.
        #expect(
            try imageBytes(240, 120)
                == Double(
                    240 * 120 * 4 + 241 * 121 * 4
                        + 121 * 121 * 4 + 61 * 121 * 4 + 61 * 61 * 4 + 61 * 31 * 4))

        let parts = Dictionary(
            uniqueKeysWithValues: try Renderer(scene: movingCardScene()).memoryEstimate().parts
                .map { ($0.name, $0.bytes) })
        // The frame drawn and the copy a PNG of it is written from.
        #expect(parts["frame"] == 2 * Double(200 * 80 * 4))
    }

    @Test("Over the limit, stills, sheets and videos are refused before any work, naming the figure and the knob")
    func refusal() throws {
        let renderer = try Renderer(scene: movingCardScene(), options: Renderer.Options(memoryLimit: 1000))
        for attempt in [{ _ = try renderer.still(.frame(0)) }, { _ = try renderer.contactSheet() }] {
            #expect(throws: RenderError.self) { try attempt() }
        }
        let directory = try TemporaryDirectory()
        let target = directory.path + "/clip.mp4"
        #expect {
            try renderer.render(to: target)
        } throws: { error in
            guard let error = error as? RenderError, error.kind == .memory else { return false }
            return error.message.contains("the memory limit is 1 kB") && error.message.contains("--memory-limit")
                && error.message.contains("x264")
        }
        #expect(try directory.contents() == [])
    }

    @Test("x264's share grows with the preset's look-ahead and references, with frame threads and with the picture")
    func x264Grows() {
        let pixels = 1920.0 * 1080
        let fast = MemoryEstimate.x264Bytes(preset: "ultrafast", threads: 3, pixels: pixels)
        let medium = MemoryEstimate.x264Bytes(preset: "medium", threads: 3, pixels: pixels)
        let slow = MemoryEstimate.x264Bytes(preset: "veryslow", threads: 3, pixels: pixels)
        #expect(fast < medium && medium < slow)
        #expect(MemoryEstimate.x264Bytes(preset: "medium", threads: 1, pixels: pixels) < medium)
        #expect(MemoryEstimate.x264Bytes(preset: "medium", threads: 3, pixels: 4 * pixels) > 3 * medium)
    }
}

@Suite("Renderer: runs of frames")
struct RendererFrameRunTests {
    @Test("A run of frames hands each frame, in the order asked, as the still of that frame, at 1 and 3 threads")
    func runMatchesStills() throws {
        let order = [4, 0, 7, 7, 2, 5]
        for threads in [1, 3] {
            let renderer = try Renderer(scene: movingCardScene(), options: Renderer.Options(threads: threads))
            var bitmap = Bitmap(width: 0, height: 0)
            var handed: [Int] = []
            try renderer.render(frames: order, into: &bitmap) { index, frame in
                let same = try frame == renderer.still(.frame(index))
                #expect(same, "frame \(index) at \(threads) threads")
                handed.append(index)
                // A body may swap the buffer, as an encoder handing back a free one does.
                frame = Bitmap(width: 0, height: 0)
            }
            #expect(handed == order)
        }
    }

    @Test("A frame outside the clip is refused before any is drawn")
    func outsideRefused() throws {
        let renderer = try Renderer(scene: movingCardScene())
        var bitmap = Bitmap(width: 0, height: 0)
        var calls = 0
        #expect(throws: RenderError.self) {
            try renderer.render(frames: [0, 1, renderer.frameCount], into: &bitmap) { _, _ in calls += 1 }
        }
        #expect(calls == 0)
    }
}
