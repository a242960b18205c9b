import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Rotated opaque items hide the rows under them")
struct RowHiderTests {
    static let turn = rotation(degrees: 11, about: 60, 45)

    /// A rotated card over its shadow, a solid and an image under it, a rotated opaque image over part of it.
    static func turnedCard(_ image: Int) -> [DrawItem] {
        let card = rect(25, 15, 70, 55, radius: 9)
        return [
            solidItem(rect(0, 0, 120, 90), RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.6)),
            DrawItem(transform: turn, shape: card, paint: .shadow(color: .black, sigma: 5)),
            solidItem(rect(40, 30, 20, 20), RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.9), transform: turn),  // under the card
            DrawItem(transform: .identity, shape: rect(10, 20, 100, 40, radius: 4), paint: .bitmap(.image(image)), opacity: 0.8),
            solidItem(card, RGBAColor(red: 0.9, green: 0.9, blue: 0.85), transform: turn),
            DrawItem(
                transform: rotation(degrees: -20, about: 50, 40), shape: rect(30, 25, 30, 25, radius: 3), paint: .bitmap(.image(image)),
                clips: [Clip(transform: turn, shape: rect(20, 20, 60, 40, radius: 12))]),
        ]
    }

    @Test("A turned card's shadow is skipped under the card: the frame is the one drawn item by item")
    func turnedCardIsExact() {
        var rng = SeededGenerator(seed: 0x2_0E)
        let image = randomOpaqueBitmap(width: 30, height: 20, using: &rng)
        let items = Self.turnedCard(0)
        let all = draw(items, width: 120, height: 90, background: .black, images: [image])
        #expect(all == drawnOneByOne(items, width: 120, height: 90, images: [image]))
        let sources = Rasterizer.Sources(images: [image], snapshots: [], referencedBy: DisplayList(items: items))
        let prepared = Rasterizer.prepare(DisplayList(items: items), width: 120, height: 90, sources: sources)
        // The shadow, the solid and the image under the card are hidden by its rows; the card by the image over it.
        #expect(prepared.items.count == 6)
        #expect((1 ... 4).allSatisfy { prepared.items[$0].hiddenByRows != nil && prepared.items[$0].hiddenBy.isEmpty })
        // Translucent, or after a backdrop blur that reads what is under it: nothing hidden.
        var faded = items
        faded[4].opacity = 0.99
        faded[5].opacity = 0.99
        #expect(Rasterizer.prepare(DisplayList(items: faded), width: 120, height: 90, sources: sources).items
            .allSatisfy { $0.hiddenByRows == nil })
        let blur = DrawItem(transform: .identity, shape: rect(0, 0, 120, 90), paint: .backdropBlur(sigma: 3))
        let blurred = Array(items[..<4]) + [blur] + Array(items[4...])
        let afterBlur = Rasterizer.prepare(DisplayList(items: blurred), width: 120, height: 90, sources: sources)
        #expect((0 ..< 4).allSatisfy { afterBlur.items[$0].hiddenByRows == nil })
    }

    @Test("Busy lists, groups and blurs: the same bytes with rows hidden and without, at 1 and 3 bands",
          arguments: [1 as UInt64, 2, 3, 4, 5, 6])
    func sameBytesAsDrawingEverything(seed: UInt64) {
        var rng = SeededGenerator(seed: seed + 900)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), randomOpaqueBitmap(width: 40, height: 30, using: &rng)]
        let (w, h) = (150, 120)
        let busy = PipelineTests.busyList(seed: seed, width: w, height: h, images: images.count, backdrops: true)
        let turned = Self.turnedCard(1).map { item -> DrawItem in
            var placed = item
            placed.transform = item.transform.concatenating(.translation(15, 20))
            return placed
        }
        let grouped = GroupTests.groupedList(seed: seed, width: w, height: h, images: images.count)
        var hidden = 0
        for list in [busy, DisplayList(items: busy.items + turned), grouped] {
            var sources = Rasterizer.Sources(images: images, snapshots: [], referencedBy: list)
            let hiding = Rasterizer.prepare(list, width: w, height: h, sources: sources)
            hidden += hiding.items.filter { $0.hiddenByRows != nil }.count
            sources.hidesByRows = false
            let plain = Rasterizer.prepare(list, width: w, height: h, sources: sources)
            #expect(plain.items.allSatisfy { $0.hiddenByRows == nil })
            for threads in [1, 3] {
                let backdrop = RGBAColor(red: 0.3, green: 0.1, blue: 0.2, alpha: 0.9)
                let a = drawBanded(hiding, width: w, height: h, threads: threads, backdrop: backdrop)
                let b = drawBanded(plain, width: w, height: h, threads: threads, backdrop: backdrop)
                #expect(a == b, "seed \(seed), \(threads) threads: max difference \(maxDifference(a.pixels, b.pixels))")
            }
        }
        // Not a vacuous pass: the turned card hides rows in every seed's list.
        #expect(hidden >= 4)
    }
}
