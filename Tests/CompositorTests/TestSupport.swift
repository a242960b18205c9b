import Synchronization
import Primitives
import FramePlan
@testable import Compositor

/// A frame plan built from literal values; counts how often the compositor reads its snapshots.
final class TestPlan: FramePlanSource {
    let canvas: Canvas
    let frameCount: Int
    let images: [Bitmap]
    private let snapshotList: [SnapshotDescription]
    private let lists: [DisplayList]
    private let snapshotReads = Mutex(0)
    private let listReads = Mutex([Int]())

    init(
        width: Int, height: Int, background: RGBAColor = .clear, images: [Bitmap] = [],
        snapshots: [SnapshotDescription] = [], frames: [DisplayList]
    ) {
        canvas = Canvas(pixelWidth: width, pixelHeight: height, background: background, framesPerSecond: 60)
        frameCount = frames.count
        self.images = images
        snapshotList = snapshots
        lists = frames
    }

    var snapshots: [SnapshotDescription] {
        snapshotReads.withLock { $0 += 1 }
        return snapshotList
    }

    var snapshotReadCount: Int { snapshotReads.withLock { $0 } }

    /// The frames whose display lists were asked for, in the order asked.
    var displayListReads: [Int] { listReads.withLock { $0 } }

    func displayList(frame index: Int) -> DisplayList {
        listReads.withLock { $0.append(index) }
        return lists[index]
    }
}

/// Deterministic pseudo-random numbers (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double = 0) -> RoundedRect {
    RoundedRect(rect: Rect(x: x, y: y, width: w, height: h), cornerRadius: radius)
}

func solidItem(
    _ shape: RoundedRect, _ color: RGBAColor, transform: AffineTransform2D = .identity,
    opacity: Double = 1, clips: [Clip] = []
) -> DrawItem {
    DrawItem(transform: transform, shape: shape, paint: .solid(color), opacity: opacity, clips: clips)
}

/// Draws `items` onto a `width x height` bitmap filled with `background`.
func draw(
    _ items: [DrawItem], width: Int, height: Int, background: RGBAColor = .clear,
    images: [Bitmap] = [], snapshots: [Bitmap] = [], threads: Int = 1
) -> Bitmap {
    var target = Bitmap(width: width, height: height)
    Compositor.fill(&target, with: background)
    Compositor.draw(DisplayList(items: items), onto: &target, images: images, snapshots: snapshots, threads: threads)
    return target
}

/// Draws `prepared` through `Rasterizer.drawBanded` with `threads` bands onto a `width x height` bitmap of `backdrop`.
func drawBanded(_ prepared: Rasterizer.PreparedList, width: Int, height: Int, threads: Int, backdrop: RGBAColor) -> Bitmap {
    var target = Bitmap(width: width, height: height)
    Compositor.fill(&target, with: backdrop)
    Rasterizer.drawBanded(
        prepared, background: nil, target: &target, scratch: (0 ..< threads).map { _ in RowScratch(width: width) },
        layers: LayerPool())
    return target
}

/// `items` drawn onto a black `width x height` bitmap each on its own, so no item can hide another's pixels.
func drawnOneByOne(_ items: [DrawItem], width: Int, height: Int, images: [Bitmap]) -> Bitmap {
    var target = Bitmap(width: width, height: height)
    Compositor.fill(&target, with: .black)
    for item in items { Compositor.draw(DisplayList(items: [item]), onto: &target, images: images) }
    return target
}

/// Sum of alpha / 255 over the bitmap: the drawn area in pixels for an opaque paint.
func coverageSum(_ bitmap: Bitmap) -> Double {
    var sum = 0
    for i in stride(from: 3, to: bitmap.pixels.count, by: 4) { sum += Int(bitmap.pixels[i]) }
    return Double(sum) / 255
}

/// Rotation by `degrees` about `(cx, cy)` (in target pixels).
func rotation(degrees: Double, about cx: Double, _ cy: Double) -> AffineTransform2D {
    AffineTransform2D.translation(-cx, -cy)
        .concatenating(.rotation(degrees * .pi / 180))
        .concatenating(.translation(cx, cy))
}

/// A 1-pixel black/white checkerboard, opaque.
func checkerboard(width: Int, height: Int) -> Bitmap {
    var b = Bitmap(width: width, height: height)
    for y in 0 ..< height {
        for x in 0 ..< width {
            let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
            b.setPixel(x: x, y: y, (v, v, v, 255))
        }
    }
    return b
}

/// Random premultiplied pixels (colour <= alpha), some transparent, some opaque.
func randomBitmap(width: Int, height: Int, using rng: inout SeededGenerator) -> Bitmap {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: bytes.count, by: 4) {
        let kind = Int.random(in: 0 ..< 4, using: &rng)
        let a: UInt8 = kind == 0 ? 0 : kind == 1 ? 255 : UInt8.random(in: 0 ... 255, using: &rng)
        for c in 0 ..< 3 { bytes[i + c] = UInt8.random(in: 0 ... a, using: &rng) }
        bytes[i + 3] = a
    }
    return Bitmap(width: width, height: height, premultipliedPixels: bytes)!
}

/// Samples pixels `x0 ..< x0 + count` of row `y` through the rasterizer's
/// sampler (column table over `columns`), as premultiplied RGBA8 bytes.
func sampleRow(
    _ mapping: TexelMapping, _ texture: Texture, y: Int, x0: Int, count: Int,
    columns: Range<Int>, scratch: RowScratch
) -> [UInt8] {
    var sampler = BitmapSampler(mapping: mapping, texture: texture, scratch: scratch, columns: columns)
    sampler.beginRow(y, lower: x0, upper: x0 + count)
    let p = sampler.sample(y: y, x: x0, count: count)
    return Array(UnsafeBufferPointer(start: p, count: count * 4))
}

func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// Random premultiplied pixels, all opaque.
func randomOpaqueBitmap(width: Int, height: Int, using rng: inout SeededGenerator) -> Bitmap {
    var b = randomBitmap(width: width, height: height, using: &rng)
    for i in stride(from: 3, to: b.pixels.count, by: 4) { b.pixels[i] = 255 }
    return b
}

/// A gradient of a random kind laid in `rect`: two to five stops (`first`
/// among them, some translucent, sometimes a hard stop), points anywhere
/// around the rect (sometimes outside it), or evenly spread locations.
func randomGradient(in rect: Rect, first: RGBAColor, using rng: inout SeededGenerator) -> GradientPaint {
    let kind = GradientPaint.Kind.allCases[Int.random(in: 0 ..< 3, using: &rng)]
    let count = Int.random(in: 2 ... 5, using: &rng)
    var colors = [first]
    for _ in 1 ..< count {
        colors.append(
            RGBAColor(
                red: .random(in: 0 ... 1, using: &rng), green: .random(in: 0 ... 1, using: &rng),
                blue: .random(in: 0 ... 1, using: &rng), alpha: Bool.random(using: &rng) ? 1 : .random(in: 0 ... 1, using: &rng)))
    }
    var locations = (0 ..< count).map { _ in Double.random(in: 0 ... 1, using: &rng) }.sorted()
    if count > 2, Bool.random(using: &rng) { locations[1] = locations[2] }  // a hard stop
    func point() -> Point {
        Point(
            x: rect.minX + rect.width * .random(in: -0.3 ... 1.3, using: &rng),
            y: rect.minY + rect.height * .random(in: -0.3 ... 1.3, using: &rng))
    }
    return GradientPaint(kind: kind, colors: colors, locations: locations, start: point(), end: point())
}
