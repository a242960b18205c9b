import Foundation
import PNGCodec
import ShiftRender
import Studio
import Testing

/// Every GET endpoint of the studio over a real socket, against what the
/// library says directly: the page's files, /info.json as `info --json`,
/// frames and progress stills pixel for pixel, the ends of the clip.
@Suite struct StudioEndpointTests {
    @Test func servesThePageAndItsTwoFiles() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let page = try await studio.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["cache-control"] == "no-store")
        #expect(page.text.contains("/studio.js"))
        let script = try await studio.get("/studio.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(script.text.contains("EventSource"))
        let style = try await studio.get("/studio.css")
        #expect(style.status == 200)
        #expect(style.headers["content-type"] == "text/css; charset=utf-8")
        #expect(!style.body.isEmpty)
    }

    @Test func infoIsWhatInfoJSONPrints() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let info = try await studio.get("/info.json")
        #expect(info.status == 200)
        #expect(info.headers["content-type"] == "application/json")
        #expect(info.headers["x-scene-version"] == "1")
        #expect(info.body == (try infoJSON(try Renderer(fileAt: Repository.exampleScene))))

        let reversed = try await studio.get("/info.json?direction=dismiss&reverse=1")
        var scene = try SceneJSON.read(fileAt: Repository.exampleScene)
        scene.scene.transition.direction = .dismiss
        let expected = try Renderer(scene: scene.scene, document: scene, reversed: true)
        #expect(reversed.status == 200)
        #expect(reversed.body == (try infoJSON(expected)))
    }

    @Test func frameZeroIsTheLibrarysFrameZero() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let frame = try await studio.get("/frame/0.png")
        #expect(frame.status == 200)
        #expect(frame.headers["content-type"] == "image/png")
        #expect(frame.headers["cache-control"] == "no-store")
        let renderer = try Renderer(fileAt: Repository.exampleScene)
        #expect(try PNGCodec.decode(data: frame.body) == (try renderer.still(.frame(0))))

        let last = renderer.frameCount - 1
        let lastFrame = try await studio.get("/frame/\(last).png")
        #expect(try PNGCodec.decode(data: lastFrame.body) == (try renderer.still(.frame(last))))
        // Asked again: the cached bytes, the same picture.
        #expect(try await studio.get("/frame/\(last).png").body == lastFrame.body)
    }

    @Test func outlinesSitOnTheViewsOfTheFrame() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let renderer = try Renderer(fileAt: Repository.exampleScene)
        let answer = try await studio.get("/outlines/0.json")
        #expect(answer.status == 200)
        #expect(answer.headers["x-scene-version"] == "1")
        let outlines = try JSONDecoder().decode(FrameOutlines.self, from: Data(answer.body))
        #expect(outlines == renderer.timeline.outlines(frame: 0))
        // The matched card starts where the list screen has it (frame [20, 140, 350, 130], scale 1) on frame 0.
        let summary = renderer.summary.segments[0].views
        let card = try #require(summary.firstIndex { $0.id == "card" && $0.matchedWith != nil })
        let outline = try #require(outlines.views.first { $0.index == card })
        #expect(outline.path == summary[card].path)
        let expected = [(20.0, 140.0), (370.0, 140.0), (370.0, 270.0), (20.0, 270.0)]
        for (corner, (x, y)) in zip(outline.corners, expected) {
            #expect(abs(corner.x - x) < 1e-9 && abs(corner.y - y) < 1e-9, "\(outline.corners)")
        }
        #expect(outlines.views.count == summary.count)
        // On the last frame it covers the detail screen (frame [0, 0, 390, 844]).
        let last = try await studio.get("/outlines/\(renderer.frameCount - 1).json")
        let end = try #require(try JSONDecoder().decode(FrameOutlines.self, from: Data(last.body)).views.first { $0.index == card })
        for (corner, (x, y)) in zip(end.corners, [(0.0, 0.0), (390.0, 0.0), (390.0, 844.0), (0.0, 844.0)]) {
            #expect(abs(corner.x - x) < 1e-6 && abs(corner.y - y) < 1e-6, "\(end.corners)")
        }
        #expect(try await studio.get("/outlines/\(renderer.frameCount).json").status == 404)
    }

    @Test func pastTheEndIsNotFound() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let count = try Renderer(fileAt: Repository.exampleScene).frameCount
        let past = try await studio.get("/frame/\(count).png")
        #expect(past.status == 404)
        #expect(past.text.contains("frame \(count) is past the end: the clip has frames 0-\(count - 1)"))
        #expect(try await studio.get("/frame/999999999.png").status == 404)
        #expect(try await studio.get("/frame/-1.png").status == 404)
        #expect(try await studio.get("/frame/x.png").status == 404)
    }

    @Test func progressIsTheLibrarysStillAtThatProgress() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let half = try await studio.get("/progress/0.5.png")
        #expect(half.status == 200)
        let renderer = try Renderer(fileAt: Repository.exampleScene)
        #expect(try PNGCodec.decode(data: half.body) == (try renderer.still(.progress(0.5))))
        #expect(try await studio.get("/progress/1.5.png").status == 404)
        #expect(try await studio.get("/progress/nan.png").status == 404)
    }

    @Test func variantsPlayTheSceneAsAsked() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let reversed = try await studio.get("/frame/0.png?reverse=1")
        #expect(reversed.status == 200)
        let renderer = try Renderer(fileAt: Repository.exampleScene, reversed: true)
        #expect(try PNGCodec.decode(data: reversed.body) == (try renderer.still(.frame(0))))
        let sideways = try await studio.get("/frame/0.png?direction=sideways")
        #expect(sideways.status == 400)
        #expect(sideways.text.contains("direction must be one of present, dismiss, roundtrip"))
    }
}
