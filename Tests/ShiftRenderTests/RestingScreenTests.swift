import Compositor
import Foundation
import Primitives
import SceneModel
import ShiftRender
import Testing
import TransitionEngine

/// A screen at rest is exactly that screen: the clip's first and last
/// frames, its holds and a roundtrip's pause are the view hierarchy as laid
/// out, byte for byte the screen drawn alone, and the jumps into and out of
/// Shift's arrangement are named (docs/scene-format.md, "Screens at rest").
@Suite struct RestingScreenTests {
    /// Every scene under fixtures/scenes.
    static let fixtureScenes: [String] = {
        let folder = Repository.path("fixtures/scenes")
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// Which screen of the scene frame `index` shows at rest, or nil inside a motion or
    /// where a presentation keeps both screens (checked on its own below).
    static func screenAtRest(_ timeline: TransitionTimeline, scene: Scene, frame index: Int) -> Screen? {
        guard let end = timeline.restingEnd(ofFrame: index) else { return nil }
        let segment = timeline.segmentTime(ofFrame: index).segment
        // The first motion leaves `from` for `to`; a roundtrip's way back leaves `to` for `from`.
        let screen: Screen = (end == .start) == (segment == 0) ? .from : .to
        let presented: Screen = scene.transition.direction == .dismiss ? .from : .to
        let isPresentation = scene.transition.presentation != nil && scene.transition.navigation == nil
        return isPresentation && screen == presented ? nil : screen
    }

    @Test("Every fixture scene's frames at rest are the screen drawn alone, byte for byte", arguments: fixtureScenes)
    func framesAtRestAreTheScreenAlone(_ file: String) throws {
        let renderer = try Renderer(fileAt: Repository.path("fixtures/scenes/" + file))
        let timeline = renderer.timeline
        let compositor = FrameRenderer(plan: timeline, threads: 2)
        // The first frame of each phase and the last of each motion: the holds and pause are still.
        var frames = Set(timeline.phases.map(\.firstFrame))
        for phase in timeline.phases where phase.kind != .holdBefore { frames.insert(phase.firstFrame + phase.frameCount - 1) }
        var compared = 0
        var alone: [Screen: Bitmap] = [:]
        for frame in frames.sorted() {
            guard let screen = Self.screenAtRest(timeline, scene: renderer.scene, frame: frame) else { continue }
            if alone[screen] == nil {
                var bitmap = Bitmap(width: 0, height: 0)
                compositor.render(timeline.screenAlone(screen), into: &bitmap)
                alone[screen] = bitmap
            }
            // A Bool, so that a failure does not print every byte of both frames.
            let same = compositor.render(frame: frame) == alone[screen]
            #expect(same, "\(file) frame \(frame) is not \(screen) alone")
            compared += 1
        }
        // At least the first frame or the last is a screen alone in every scene.
        #expect(compared >= 1)
        #expect(compared >= 2 || renderer.scene.transition.presentation != nil, "\(file): \(compared) frames compared")
    }

    // MARK: The trial's repros

    /// A hero photo matched inside a matched card, and a close button placed after the photo in the card.
    static func closeButtonScene() -> Scene {
        func card(_ frame: Rect, photo: Rect, button: Rect?) -> View {
            var subviews = [View(name: "heroImage", frame: photo, backgroundColor: RGBAColor(red: 0, green: 0, blue: 1)).shift(id: "photo")]
            if let button { subviews.append(View(name: "close", frame: button, backgroundColor: RGBAColor(red: 1, green: 0, blue: 0))) }
            return View(name: "card", frame: frame, backgroundColor: .white, subviews: subviews).shift(id: "card")
        }
        let grey = RGBAColor(red: 0.9, green: 0.9, blue: 0.9)
        let list = View(
            backgroundColor: grey,
            subviews: [card(Rect(x: 20, y: 100, width: 160, height: 120), photo: Rect(x: 0, y: 0, width: 160, height: 80), button: nil)])
        let detail = View(
            backgroundColor: grey,
            subviews: [
                card(
                    Rect(x: 0, y: 0, width: 200, height: 300), photo: Rect(x: 0, y: 0, width: 200, height: 160),
                    button: Rect(x: 160, y: 10, width: 30, height: 30))
            ])
        return Scene(canvas: CanvasSpec(width: 200, height: 300, scale: 1), fps: 30, from: list, to: detail)
    }

    static func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * bitmap.width + x) * 4
        return Array(bitmap.pixels[i ..< i + 4])
    }

    @Test("A close button after a matched photo in a matched card shows in the last frame, and its jump is named")
    func closeButtonOverAHeroPhoto() throws {
        let renderer = try Renderer(scene: Self.closeButtonScene())
        let last = try renderer.still(.frame(renderer.frameCount - 1))
        // The button's centre, (175, 25): red at rest, as the view hierarchy has it over the photo.
        #expect(Self.pixel(last, 175, 25) == [255, 0, 0, 255])
        // Just before the end Shift's arrangement draws the photo over the card's snapshot, button and all.
        let before = try renderer.still(.frame(renderer.frameCount - 2))
        #expect(Self.pixel(before, 175, 25) == [0, 0, 255, 255])
        let jumps = renderer.restingJumps()
        #expect(jumps.map(\.place.description) == [#"to.subviews[0] "card" .subviews[1] "close""#])
        #expect(jumps.allSatisfy { $0.severity == .warning && $0.message.contains("as the transition ends") })
        // The way back leaves the detail: the button jumps under the photo as it starts, named where the file has it.
        let back = try Renderer(scene: Self.closeButtonScene(), reversed: true).restingJumps()
        #expect(back.map(\.place.description) == [#"to.subviews[0] "card" .subviews[1] "close""#])
        #expect(back.allSatisfy { $0.message.contains("as the transition starts") })
        // A roundtrip: in front of the photo at the present's end, under it again as the way back starts.
        let roundtrip = try Renderer(scene: Self.closeButtonScene().direction(.roundtrip)).restingJumps()
        #expect(roundtrip.map(\.message).allSatisfy { $0.contains("as the transition ends and starts its way back") })
        #expect(roundtrip.count == 1)
    }

    @Test("A matched card's shadow shows in frame 0 although its partner masks to bounds")
    func shadowAtTheStartDespiteThePartnersMask() throws {
        let shadow = ShadowSpec(color: .black, opacity: 1, radius: 0, offset: Size(width: 0, height: 10))
        let small = View(name: "card", frame: Rect(x: 40, y: 40, width: 100, height: 100), backgroundColor: .white, shadow: shadow)
            .shift(id: "card")
        let big = View(frame: Rect(x: 0, y: 0, width: 200, height: 200), backgroundColor: .white, masksToBounds: true).shift(id: "card")
        let grey = RGBAColor(red: 0.5, green: 0.5, blue: 0.5)
        let scene = Scene(
            canvas: CanvasSpec(width: 200, height: 300, scale: 1), fps: 30,
            from: View(backgroundColor: grey, subviews: [small]), to: View(backgroundColor: grey, subviews: [big]))
        let renderer = try Renderer(scene: scene)
        // Below the card's bottom edge (y 140), the hard shadow 10 pt down: black at rest.
        let first = try renderer.still(.frame(0))
        #expect(Self.pixel(first, 90, 145) == [0, 0, 0, 255])
        // Shift sets masksToBounds to the end's value as the transition starts: no shadow from then on.
        let second = try renderer.still(.frame(1))
        #expect(Self.pixel(second, 90, 147)[0] > 100)
        #expect(renderer.restingJumps().map(\.place.description) == [#"from.subviews[0] "card""#])
    }

    @Test("A card presentation at rest keeps the presenting screen under the dimming and the card over it")
    func aPresentationAtRestKeepsBothScreens() throws {
        let renderer = try Renderer(fileAt: Repository.path("fixtures/scenes/features/present-card-dimming.json"))
        let last = try renderer.still(.frame(renderer.frameCount - 1))
        // Over the bar (#F8F8F8, 248) under black at 0.5: 248 x 0.5 = 124. The card's white at (90, 250) pt, x2.
        #expect(Self.pixel(last, 180, 40) == [124, 124, 124, 255])
        #expect(Self.pixel(last, 180, 500) == [255, 255, 255, 255])
        // Frame 0 is the list alone.
        let first = try renderer.still(.frame(0))
        #expect(Self.pixel(first, 180, 40) == [248, 248, 248, 255])
    }

    @Test("Stills at progress 0 and 1 are the screens at rest")
    func stillsAtTheEndsAreAtRest() throws {
        let renderer = try Renderer(scene: Self.closeButtonScene())
        let last = try renderer.still(.frame(renderer.frameCount - 1))
        let atOne = try renderer.still(.progress(1)) == last
        let atZero = try renderer.still(.progress(0)) == renderer.still(.frame(0))
        let justBefore = try renderer.still(.progress(0.999)) == last
        #expect(atOne && atZero && !justBefore)
    }
}
