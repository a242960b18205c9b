#if canImport(Glibc)
import Glibc
#endif
import Testing
import Primitives
import FramePlan
import Compositor

/// Milliseconds per 1920x1080 frame of a synthetic 34-layer Shift transition,
/// shaped like the benchmark issue's: two full-screen image backgrounds
/// cross-fading (one at 1:1, one scaled), 8 cards that move and resize while
/// their image content cross-fades (two clipped, rounded bitmap layers each;
/// 4 of them cast a blurred shadow), and 16 small rounded views fading and
/// moving. Skipped unless `SHIFTRENDER_BENCH` is set:
///
///     SHIFTRENDER_BENCH=1 swift test -c release --scratch-path .build-comp-rel \
///         -Xswiftc -enable-testing --filter TransitionBenchmark
@Suite("TransitionBenchmark", .enabled(if: getenv("SHIFTRENDER_BENCH") != nil), .serialized)
struct TransitionBenchmark {
    static let frames = 24

    static func plan() -> TestPlan {
        var rng = SeededGenerator(seed: 5)
        let images = [
            randomOpaqueBitmap(width: 1920, height: 1080, using: &rng),
            randomOpaqueBitmap(width: 2048, height: 1152, using: &rng),
            randomOpaqueBitmap(width: 600, height: 450, using: &rng),
            randomOpaqueBitmap(width: 600, height: 450, using: &rng),
            randomBitmap(width: 64, height: 64, using: &rng),
        ]
        let lists = (0 ..< frames).map { frame -> DisplayList in
            let t = Double(frame) / Double(frames - 1)
            var items: [DrawItem] = []
            let screen = rect(0, 0, 1920, 1080)
            items.append(DrawItem(transform: .identity, shape: screen, paint: .bitmap(.image(0)), opacity: 1 - t * 0.7))
            items.append(DrawItem(transform: .identity, shape: screen, paint: .bitmap(.image(1)), opacity: t))
            for card in 0 ..< 8 {
                let col = Double(card % 4)
                let row = Double(card / 4)
                let start = (x: 80 + col * 450, y: 120 + row * 460)
                let end = (x: 200 + col * 400, y: 200 + row * 380)
                let scale = 0.55 + 0.2 * t
                let x = start.x + (end.x - start.x) * t + 0.37
                let y = start.y + (end.y - start.y) * t + 0.61
                let move = AffineTransform2D.scale(scale, scale).concatenating(.translation(x, y))
                let shape = rect(0, 0, 600, 450, radius: 16 / scale)
                let clip = Clip(transform: move, shape: shape)
                if card % 2 == 0 {
                    items.append(
                        DrawItem(
                            transform: move.concatenating(.translation(0, 8)), shape: shape,
                            paint: .shadow(color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.35), sigma: 10 / scale)))
                }
                items.append(DrawItem(transform: move, shape: shape, paint: .bitmap(.image(2)), opacity: 1 - t, clips: [clip]))
                items.append(DrawItem(transform: move, shape: shape, paint: .bitmap(.image(3)), opacity: t, clips: [clip]))
            }
            for view in 0 ..< 16 {
                let x = 60 + Double(view % 8) * 230 + 40 * t
                let y = 980 - Double(view / 8) * 120 - 30 * t
                let opacity = view % 2 == 0 ? 1 - t : t
                if view % 4 == 0 {
                    items.append(
                        DrawItem(
                            transform: .scale(1.5, 1.5).concatenating(.translation(x + 0.3, y)), shape: rect(0, 0, 64, 64, radius: 12),
                            paint: .bitmap(.image(4)), opacity: opacity))
                } else {
                    items.append(
                        DrawItem(
                            transform: .translation(x, y + 0.5), shape: rect(0, 0, 180, 90, radius: 20),
                            paint: .solid(RGBAColor(red: 0.9, green: 0.9, blue: 0.95, alpha: 0.9)), opacity: opacity))
                }
            }
            return DisplayList(items: items)
        }
        return TestPlan(width: 1920, height: 1080, background: .black, images: images, frames: lists)
    }

    @Test func transition() {
        let plan = Self.plan()
        print("bench transition: \(plan.displayList(frame: 0).items.count) items per frame")
        var reference: Bitmap?
        for threads in [1, 2] {
            let renderer = FrameRenderer(plan: plan, threads: threads)
            var target = renderer.render(frame: 0)
            for f in 0 ..< Self.frames { renderer.render(frame: f, into: &target) }  // warm (mip levels)
            // Wall time, and the calling thread's CPU time (meaningful for 1 thread:
            // it does not count time lost to other processes on a shared machine).
            func cpuMilliseconds() -> Double {
                var ts = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
                return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
            }
            var best = Double.infinity
            var bestCPU = Double.infinity
            for _ in 0 ..< 5 {
                let start = ContinuousClock.now
                let cpu = cpuMilliseconds()
                for f in 0 ..< Self.frames { renderer.render(frame: f, into: &target) }
                let d = ContinuousClock.now - start
                bestCPU = min(bestCPU, (cpuMilliseconds() - cpu) / Double(Self.frames))
                best = min(best, (Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15) / Double(Self.frames))
            }
            let cpuNote = threads == 1 ? ", thread CPU \(Double(Int(bestCPU * 100)) / 100) ms/frame" : ""
            print("bench transition threads=\(threads): \(Double(Int(best * 100)) / 100) ms/frame wall (\(Int(1000 / best)) fps)\(cpuNote)")
            let frame = renderer.render(frame: 9)
            if let reference { #expect(frame == reference) } else { reference = frame }
        }
    }
}
