import Foundation
import Synchronization
import Testing
@testable import ShiftRender

@Suite("Renderer: outputs")
struct RenderToOutputTests {
    @Test("A video renders every frame, reporting each stage and frame in order")
    func progressReports() throws {
        let renderer = try Renderer(scene: movingCardScene())
        let directory = try TemporaryDirectory()
        var reports: [RenderProgress] = []
        try renderer.render(to: directory.path + "/clip.mp4") { reports.append($0) }
        #expect(reports.first?.stage == .preparing)
        #expect(reports.last?.stage == .finishing)
        let frames = reports.filter { $0.stage == .frames }.map(\.framesDone)
        #expect(frames == Array(1 ... renderer.frameCount))
        #expect(try directory.contents() == ["clip.mp4"])
    }

    @Test("A PNG sequence of a range keeps the clip's frame numbers and pixels", arguments: [1, 3])
    func rangeOfFrames(threads: Int) throws {
        let renderer = try Renderer(scene: movingCardScene(), options: Renderer.Options(threads: threads))
        let directory = try TemporaryDirectory()
        try renderer.render(to: directory.path + "/frames/", frames: 3 ... 5)
        #expect(try directory.contents(of: "frames") == ["frame_00003.png", "frame_00004.png", "frame_00005.png"])
        let decoded = try PNGCodec.decode(fileAt: directory.path + "/frames/frame_00004.png")
        #expect(decoded == (try renderer.still(.frame(4))))
    }

    @Test("Cancelling during the frames stops the render and leaves nothing", arguments: ["clip.mp4", "clip.gif", "frames/"])
    func cancellation(output: String) throws {
        let renderer = try Renderer(scene: movingCardScene())
        let directory = try TemporaryDirectory()
        let cancellation = RenderCancellation()
        #expect {
            try renderer.render(to: directory.path + "/" + output, cancellation: cancellation) { progress in
                if progress.framesDone == 3 { cancellation.cancel() }
            }
        } throws: { ($0 as? RenderError)?.kind == .cancelled }
        #expect(try directory.contents() == [])
    }

    @Test("Cancelling from another thread while the encoder finishes leaves nothing")
    func cancellationWhileFinishing() throws {
        let renderer = try Renderer(scene: movingCardScene())
        let directory = try TemporaryDirectory()
        let cancellation = RenderCancellation()
        #expect {
            try renderer.render(to: directory.path + "/clip.gif", cancellation: cancellation) { progress in
                if progress.stage == .finishing {
                    let thread = Thread { cancellation.cancel() }
                    thread.start()
                    while !cancellation.isCancelled { usleep(100) }
                }
            }
        } throws: { ($0 as? RenderError)?.kind == .cancelled }
        #expect(try directory.contents() == [])
    }

    @Test("A render cancelled before it starts touches nothing")
    func cancelledBeforeStart() throws {
        let renderer = try Renderer(scene: movingCardScene())
        let directory = try TemporaryDirectory()
        let cancellation = RenderCancellation()
        cancellation.cancel()
        #expect(throws: RenderError.self) { try renderer.render(to: directory.path + "/clip.mp4", cancellation: cancellation) }
        #expect(throws: RenderError.self) { try renderer.contactSheet(cancellation: cancellation) }
        #expect(try directory.contents() == [])
    }

    @Test("A contact sheet holds up to 12 frames, first and last included, four to a row")
    func contactSheet() throws {
        let renderer = try Renderer(scene: movingCardScene())
        #expect(ContactSheet.pick(0 ... 99) == [0, 9, 18, 27, 36, 45, 54, 63, 72, 81, 90, 99])
        #expect(ContactSheet.pick(5 ... 7) == [5, 6, 7])
        let sheet = try renderer.contactSheet(frames: 0 ... 4)
        // Tiles are 200 x 80 (under the 240-px thumbnail width): 4 columns, 2 rows.
        #expect(sheet.width == 4 * (200 + 12) + 12)
        #expect(sheet.height == 2 * (80 + 24 + 12) + 12)
        #expect(sheet.pixels.count == ContactSheet.byteCount(count: 5, frameWidth: 200, frameHeight: 80))
        // The first tile shows frame 0: its card at x 10...49 is red in the sheet at (12 + 30, 12 + 35).
        let p = sheet.pixel(x: 12 + 30, y: 12 + 35)
        #expect(p.r > 250 && p.g < 5)
    }

    @Test("Settings for another size are refused")
    func settingsMustMatch() throws {
        let renderer = try Renderer(scene: movingCardScene())
        var settings = renderer.videoSettings()
        settings.width = 64
        let directory = try TemporaryDirectory()
        #expect { try renderer.render(to: directory.path + "/x.mp4", settings: settings) } throws: {
            ($0 as? RenderError)?.kind == .usage
        }
    }

    @Test("A render never writes over its own inputs: an image named like a frame it would write is refused")
    func inputsAreNeverOutputs() throws {
        let directory = try TemporaryDirectory()
        let image = directory.path + "/f_0003.png"
        try FileManager.default.copyItem(atPath: Repository.path("fixtures/images/star.png"), toPath: image)
        let before = try Data(contentsOf: URL(fileURLWithPath: image))
        let renderer = try Renderer(scene: movingCardScene(image: .file(image)))
        #expect {
            try renderer.render(
                to: directory.path + "/f_%04d.png",
                settings: {
                    var s = renderer.videoSettings()
                    s.overwrite = true
                    return s
                }(),
                frames: 0 ... 5)
        } throws: { error in
            (error as? RenderError)?.message == "cannot write '\(image)': it is an input of this render; refusing to write over it"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == before)
        #expect(try directory.contents() == ["f_0003.png"])
    }
}
