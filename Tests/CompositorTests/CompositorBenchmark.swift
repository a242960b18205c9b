#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Primitives
import FramePlan
import Compositor

/// Release-mode timings, skipped unless `SHIFTRENDER_BENCH` is set:
///
///     SHIFTRENDER_BENCH=1 swift test -c release --scratch-path .build-comp-rel \
///         -Xswiftc -enable-testing --filter CompositorBenchmark
///
/// Prints milliseconds per full-screen 1920x1080 layer for each kind of item, and
/// (`groups`) what drawing a full-screen view as a group (group opacity) costs.
@Suite("CompositorBenchmark", .enabled(if: getenv("SHIFTRENDER_BENCH") != nil), .serialized)
struct CompositorBenchmark {
    static let (width, height) = (1920, 1080)

    static func ms(_ v: Double) -> String { String(Double(Int(v * 100 + 0.5)) / 100) }

    static func screenImage() -> Bitmap {
        var rng = SeededGenerator(seed: 1)
        return randomBitmap(width: 1170, height: 2532, using: &rng)
    }

    static func time(_ label: String, layers: Int, threads: [Int] = [1, 2], _ item: DrawItem, images: [Bitmap]) {
        let list = DisplayList(items: Array(repeating: item, count: layers))
        let plan = TestPlan(width: width, height: height, background: .black, images: images, frames: [list, DisplayList()])
        for t in threads {
            let renderer = FrameRenderer(plan: plan, threads: t)
            var target = renderer.render(frame: 0)
            func best(_ frame: Int) -> Double {
                var best = Double.infinity
                for _ in 0 ..< 5 {
                    let start = ContinuousClock.now
                    renderer.render(frame: frame, into: &target)
                    let d = ContinuousClock.now - start
                    best = min(best, Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
                }
                return best
            }
            let empty = best(1)
            let full = best(0)
            let perLayer = (full - empty) / Double(layers)
            print("bench \(label) threads=\(t): \(ms(perLayer)) ms/layer (background fill \(ms(empty)) ms)")
        }
    }

    /// Best of 5 wall-clock milliseconds and thread CPU milliseconds for drawing frame `frame`.
    static func best(_ renderer: FrameRenderer, _ frame: Int, target: inout Bitmap) -> (wall: Double, cpu: Double) {
        var wall = Double.infinity
        var cpu = Double.infinity
        for _ in 0 ..< 5 {
            var t0 = timespec()
            var t1 = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
            let start = ContinuousClock.now
            renderer.render(frame: frame, into: &target)
            let d = ContinuousClock.now - start
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1)
            wall = min(wall, Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
            cpu = min(cpu, Double(t1.tv_sec - t0.tv_sec) * 1e3 + Double(t1.tv_nsec - t0.tv_nsec) * 1e-6)
        }
        return (wall, cpu)
    }

    /// A full-screen view of two layers drawn directly, and the same view as a
    /// group of opacity 0.7 (layer cleared, both items drawn into it, layer blended).
    @Test func groups() {
        let screen = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        let fullHD = Bitmap(width: Self.width, height: Self.height, fill: (10, 20, 30, 255))
        let image = Self.screenImage()
        let cases: [(String, [DrawItem], [Bitmap])] = [
            (
                "2 solids (opaque rounded card + 50% rounded rect)",
                [
                    DrawItem(transform: .identity, shape: RoundedRect(rect: screen, cornerRadius: 40), paint: .solid(.white)),
                    DrawItem(
                        transform: .identity, shape: RoundedRect(rect: Rect(x: 100, y: 100, width: 1720, height: 880), cornerRadius: 20),
                        paint: .solid(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5))),
                ], []
            ),
            (
                "opaque card + 1:1 bitmap",
                [
                    DrawItem(transform: .identity, shape: RoundedRect(rect: screen, cornerRadius: 40), paint: .solid(.white)),
                    DrawItem(transform: .identity, shape: RoundedRect(rect: screen), paint: .bitmap(.image(0))),
                ], [fullHD]
            ),
            (
                "opaque card + stretched bitmap",
                [
                    DrawItem(transform: .identity, shape: RoundedRect(rect: screen, cornerRadius: 40), paint: .solid(.white)),
                    DrawItem(
                        transform: .identity, shape: RoundedRect(rect: Rect(x: 40, y: 40, width: 1840, height: 1000)),
                        paint: .bitmap(.image(0))),
                ], [image]
            ),
        ]
        for (label, items, images) in cases {
            let translucent = items.map {
                var i = $0
                i.opacity = 0.7
                return i
            }
            let group = DrawItem(
                transform: .identity, shape: RoundedRect(rect: screen), paint: .group(DisplayList(items: items)), opacity: 0.7)
            let plan = TestPlan(
                width: Self.width, height: Self.height, background: .black, images: images,
                frames: [DisplayList(items: translucent), DisplayList(items: [group])])
            for t in [1, 2] {
                let renderer = FrameRenderer(plan: plan, threads: t)
                var target = renderer.render(frame: 1)
                let direct = Self.best(renderer, 0, target: &target)
                let grouped = Self.best(renderer, 1, target: &target)
                print(
                    "bench group \(label) threads=\(t): items at 0.7 \(Self.ms(direct.wall)) ms (cpu \(Self.ms(direct.cpu))), "
                        + "group at 0.7 \(Self.ms(grouped.wall)) ms (cpu \(Self.ms(grouped.cpu))): "
                        + "+\(Self.ms(grouped.wall - direct.wall)) ms")
            }
        }
    }

    @Test func layers() {
        let screen = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        let image = Self.screenImage()
        let fullHD = Bitmap(width: Self.width, height: Self.height, fill: (10, 20, 30, 255))
        Self.time(
            "solid opaque rect", layers: 10,
            DrawItem(transform: .identity, shape: RoundedRect(rect: screen), paint: .solid(.white)), images: [])
        Self.time(
            "solid 50% rounded rect + rounded clip", layers: 10,
            DrawItem(
                transform: .identity, shape: RoundedRect(rect: screen, cornerRadius: 40),
                paint: .solid(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)), opacity: 0.9,
                clips: [Clip(transform: .identity, shape: RoundedRect(rect: screen, cornerRadius: 60))]),
            images: [])
        Self.time(
            "solid rotated 5deg", layers: 10,
            DrawItem(
                transform: rotation(degrees: 5, about: 960, 540), shape: RoundedRect(rect: screen, cornerRadius: 30),
                paint: .solid(.white), opacity: 0.8), images: [])
        Self.time(
            "bitmap 1920x1080 at 1:1 (copy path)", layers: 10,
            DrawItem(transform: .identity, shape: RoundedRect(rect: screen), paint: .bitmap(.image(0))), images: [fullHD])
        Self.time(
            "bitmap 1170x2532 stretched to 1920x1080 (bilinear)", layers: 10,
            DrawItem(transform: .identity, shape: RoundedRect(rect: screen), paint: .bitmap(.image(0))), images: [image])
        Self.time(
            "bitmap 1170x2532 rotated 5deg, radius 40 (bilinear)", layers: 10,
            DrawItem(
                transform: rotation(degrees: 5, about: 960, 540), shape: RoundedRect(rect: screen, cornerRadius: 40),
                paint: .bitmap(.image(0))), images: [image])
    }
}
