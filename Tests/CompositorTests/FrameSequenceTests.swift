import Testing
import Synchronization
import Primitives
import FramePlan
@testable import Compositor

@Suite("Frame sequence")
struct FrameSequenceTests {
    static let (width, height) = (157, 221)

    /// Five different frames of grouped, clipped, image-filled items.
    static func plan() -> TestPlan {
        var rng = SeededGenerator(seed: 5)
        let images = [randomBitmap(width: 23, height: 17, using: &rng), checkerboard(width: 9, height: 31)]
        let frames = (1 ... 5 as ClosedRange<UInt64>).map {
            GroupTests.groupedList(seed: $0, width: width, height: height, images: images.count)
        }
        return TestPlan(width: width, height: height, background: .white, images: images, frames: frames)
    }

    /// Preparing alongside whenever there are threads, whatever the timing.
    static let always: @Sendable (Int, Duration?, Duration?) -> Bool = { threads, _, _ in threads > 1 }

    @Test("Frames drawn in a sequence are the frames render(frame:) draws, at 1-3 threads and in any order",
          arguments: [false, true])
    func sameFrames(alwaysAlongside: Bool) {
        let order = [0, 3, 1, 1, 4, 2, 0]
        let reference = FrameRenderer(plan: Self.plan())
        let expected = (0 ..< 5).map { reference.render(frame: $0) }
        #expect(Set(expected.map(\.pixels)).count == 5)
        for threads in 1 ... 3 {
            let plan = Self.plan()
            var sequence = FrameSequence(renderer: FrameRenderer(plan: plan, threads: threads), frames: order)
            if alwaysAlongside { sequence.overlapRule = Self.always }
            var target = Bitmap(width: 0, height: 0)
            var seen: [Int] = []
            while let (index, list) = sequence.next() {
                // Compared as Bools: a failure would print both lists or bitmaps whole.
                let sameList = list == plan.displayList(frame: index)
                #expect(sameList, "frame \(index)'s list")
                sequence.draw(into: &target)
                let sameFrame = target == expected[index]
                #expect(sameFrame, "frame \(index) at \(threads) threads")
                seen.append(index)
            }
            #expect(seen == order)
            #expect(sequence.next() == nil)
        }
    }

    @Test("Each frame's list is made once, the next while a frame is drawn; a frame not drawn is passed over")
    func listsMadeOnce() {
        let plan = Self.plan()
        let reference = FrameRenderer(plan: Self.plan())
        var sequence = FrameSequence(renderer: FrameRenderer(plan: plan, threads: 2), frames: [4, 2, 3, 0, 1])
        sequence.overlapRule = Self.always
        var target = Bitmap(width: 0, height: 0)
        var drawn: [Int] = []
        while let (index, _) = sequence.next() {
            // A caller copying a held frame does not draw it: frame 3 here.
            if index == 3 { continue }
            let readsBefore = plan.displayListReads.count
            sequence.draw(into: &target)
            let sameFrame = target == reference.render(frame: index)
            #expect(sameFrame, "frame \(index)")
            // The frame after this one was made during the draw (none after the last).
            #expect(plan.displayListReads.count == readsBefore + (index == 1 ? 0 : 1))
            drawn.append(index)
        }
        #expect(drawn == [4, 2, 0, 1])
        #expect(plan.displayListReads == [4, 2, 3, 0, 1])
    }

    @Test("Alongside only with threads, once timed, and while preparing takes under a quarter of drawing")
    func overlapRule() {
        let ms = Duration.milliseconds
        #expect(FrameSequence.overlaps(threads: 2, preparing: ms(1), drawing: ms(5)))
        #expect(!FrameSequence.overlaps(threads: 2, preparing: ms(2), drawing: ms(5)))
        #expect(!FrameSequence.overlaps(threads: 1, preparing: ms(1), drawing: ms(50)))
        #expect(!FrameSequence.overlaps(threads: 3, preparing: nil, drawing: ms(5)))
        #expect(!FrameSequence.overlaps(threads: 3, preparing: ms(1), drawing: nil))
    }

    @Test("What runs alongside a frame's bands runs once, whatever the number of bands")
    func alongsideOnce() {
        let renderers = [1, 2, 3].map { FrameRenderer(plan: Self.plan(), threads: $0) }
        for renderer in renderers {
            let runs = Mutex(0)
            var target = Bitmap(width: 0, height: 0)
            renderer.draw(renderer.prepare(renderer.plan.displayList(frame: 2)), into: &target) { runs.withLock { $0 += 1 } }
            #expect(runs.withLock { $0 } == 1)
            let sameFrame = target == renderers[0].render(frame: 2)
            #expect(sameFrame, "\(renderer.threads) threads")
        }
    }
}
