import Dispatch
import Synchronization
public import Primitives
public import FramePlan

/// Renders the frames of one plan. Rasterizes every snapshot once at init,
/// then draws any frame on demand, from any thread.
///
/// Speed: see the module notes in `Compositor.swift`.
///
/// Thread safety: immutable after init except for locked pools of scratch
/// rows and group layers and the sources' lazily built mip levels (locked,
/// deterministic), so concurrent `render` calls are safe (hence `@unchecked
/// Sendable`: the pools' buffers are raw pointers, each lent to one frame at a
/// time, and a scratch set to one band).
public final class FrameRenderer: @unchecked Sendable {
    public let plan: any FramePlanSource
    public let canvas: Canvas
    /// Bands drawn in parallel per frame (and snapshots rasterized in parallel).
    public let threads: Int

    private let sources: Rasterizer.Sources
    private let snapshots: [Bitmap]
    private let background: SIMD4<UInt8>
    private let pool = ScratchPool()
    private let layers = LayerPool()
    /// How the next frame's rows are dealt to its bands, from the last frame's band timings (`BandSplit`).
    private let split = Mutex<BandSplit?>(nil)

    public init(plan: any FramePlanSource, threads: Int = 1) {
        self.plan = plan
        self.canvas = plan.canvas
        self.threads = max(1, threads)
        self.background = Compositor.premultipliedPixel(plan.canvas.background)
        let imageSources = Rasterizer.Sources(images: plan.images.map(Rasterizer.Sources.chain), snapshots: [])
        let descriptions = plan.snapshots
        var snapshots = [Bitmap](repeating: Bitmap(width: 0, height: 0), count: descriptions.count)
        let threads = self.threads
        if threads > 1 && descriptions.count > 1 {
            // Parallel across snapshots, each drawn in one band (same bytes as any banding).
            snapshots.withUnsafeMutableBufferPointer { buffer in
                let out = SendablePointer(base: buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: descriptions.count) { i in
                    out.base[i] = Compositor.rasterize(descriptions[i], sources: imageSources, threads: 1)
                }
            }
        } else {
            for i in descriptions.indices {
                snapshots[i] = Compositor.rasterize(descriptions[i], sources: imageSources, threads: threads)
            }
        }
        self.snapshots = snapshots
        var sources = Rasterizer.Sources(images: imageSources.images, snapshots: snapshots.map(Rasterizer.Sources.chain))
        sources.texturePool = TexturePool()
        self.sources = sources
    }

    /// The rasterized snapshot `index` (transparent where its content draws nothing).
    public func snapshotBitmap(_ index: Int) -> Bitmap { snapshots[index] }

    /// Frame `frame` in a new canvas-sized bitmap.
    public func render(frame: Int) -> Bitmap {
        var target = Bitmap(width: max(0, canvas.pixelWidth), height: max(0, canvas.pixelHeight))
        render(frame: frame, into: &target)
        return target
    }

    /// Draws frame `frame` into `target`, reusing its storage when it already
    /// has the canvas size (otherwise it is replaced by a canvas-sized bitmap).
    public func render(frame: Int, into target: inout Bitmap) {
        render(plan.displayList(frame: frame), into: &target)
    }

    /// Draws `list`, a display list of this plan (its snapshots and images),
    /// onto the background in `target`, as `render(frame:into:)` does.
    public func render(_ displayList: DisplayList, into target: inout Bitmap) {
        draw(prepare(displayList), into: &target)
    }

    /// `displayList` ready to draw on this renderer's canvas (`Rasterizer.prepare`).
    func prepare(_ displayList: DisplayList) -> Rasterizer.PreparedList {
        Rasterizer.prepare(
            displayList, width: max(0, canvas.pixelWidth), height: max(0, canvas.pixelHeight), sources: sources,
            threads: threads)
    }

    /// Draws a list from `prepare` into `target` (replaced by a canvas-sized bitmap unless it is one). `alongside`,
    /// if given, runs once on the thread of the last band, after that band: its time counts as the band's, so the
    /// next frame's split gives that band fewer rows (`FrameSequence` prepares the next frame there).
    func draw(_ list: Rasterizer.PreparedList, into target: inout Bitmap, alongside: (@Sendable () -> Void)? = nil) {
        let width = max(0, canvas.pixelWidth)
        let height = max(0, canvas.pixelHeight)
        if target.width != width || target.height != height || target.pixels.count != width * height * 4 {
            target = Bitmap(width: width, height: height)
        }
        let scratch = pool.take(threads, width: width)
        let requested = split.withLock { $0 }
        let seconds = Rasterizer.drawBanded(
            list, background: background, target: &target, scratch: scratch, layers: layers, split: requested,
            alongside: alongside)
        split.withLock { $0 = (requested ?? .even(seconds.count)).next(after: seconds) }
        pool.recycle(scratch)
    }
}
