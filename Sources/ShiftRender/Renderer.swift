import Compositor
import Encoders
import FramePlan
import Foundation
import OutputFiles
import PNGCodec
import Primitives
import SceneFormat
import SceneModel
import Synchronization
import TransitionEngine

/// Renders one scene: stills (by frame, time or progress) as bitmaps or PNG
/// data, whole clips to any output format, contact sheets. The command line,
/// `verify`, the benchmark harness and `GoldenImages` all render through it.
///
/// Making a renderer checks the scene (every problem, with its place), decodes
/// its images and plans every frame; it throws `RenderError` with the
/// diagnostics when the scene has errors. Warnings stay in `diagnostics`.
/// The static content of transient views (snapshots) is drawn once, on first
/// use. A renderer is immutable and may be used from several threads at once.
public final class Renderer: Sendable {
    /// How the renderer works, whatever it renders.
    public struct Options: Sendable, Hashable {
        /// Compositor threads (bands of each frame); nil: one per core. The
        /// pixels are the same for every count.
        public var threads: Int?
        /// The most memory a render may need, in bytes, by the estimate made
        /// before any work (`MemoryEstimate`); nil: `MemoryBudget.defaultBytes`.
        public var memoryLimit: Double?

        public init(threads: Int? = nil, memoryLimit: Double? = nil) {
            self.threads = threads
            self.memoryLimit = memoryLimit
        }
    }

    /// The scene planned: the one given, or its reverse (`reversed`).
    public let scene: Scene
    /// Warnings about the scene (errors make `init` throw).
    public let diagnostics: SceneDiagnostics
    /// Every frame's plan: transient views, durations, display lists.
    public let timeline: TransitionTimeline
    public let options: Options
    /// Files the render reads (the scene file, its images), resolved: this
    /// renderer's outputs never overwrite them (`refuseInputs`). A program
    /// that renders one scene may also `InputFiles.declare` them, so that no
    /// output of the process does (the command line does).
    public let inputFiles: [String]
    /// Where each place of the scene file is, for the warnings found after planning.
    private let locations: SourceLocations?
    /// The scene as written, whose places and names warnings found after planning give.
    private let written: Scene
    /// Whether the plan's `from` is the written scene's `to` (a reversed present or dismiss).
    private let swapsScreens: Bool
    private let compositorCache = Mutex<FrameRenderer?>(nil)
    /// Planning sample frames to count groups costs a few plans: done once.
    private let compositorEstimate = Mutex<MemoryEstimate?>(nil)

    /// Reads, checks and plans the scene file at `path` (its reverse with `reversed`).
    public convenience init(fileAt path: String, options: Options = Options(), reversed: Bool = false) throws(RenderError) {
        let document: SceneDocument
        do {
            document = try SceneJSON.read(fileAt: path)
        } catch {
            throw RenderError(
                error.kind == .unreadable ? .unreadableInput : .invalidScene, error.description,
                diagnostics: SceneDiagnostics(file: error.file, problems: error.problems))
        }
        try self.init(scene: document.scene, document: document, options: options, reversed: reversed)
    }

    /// Checks and plans `scene`. Give the `document` it was read from, if any,
    /// so messages name the file and lines. With `reversed`, plans
    /// `scene.reversed()` (the screens the other way round, the direction
    /// flipped) but checks `scene` as written, so that every problem names
    /// its place in the file and not the swapped one.
    public init(
        scene: Scene, document: SceneDocument? = nil, options: Options = Options(), reversed: Bool = false
    ) throws(RenderError) {
        if let threads = options.threads, !(1 ... 256).contains(threads) {
            throw RenderError(.usage, "threads must be between 1 and 256 (got \(threads))")
        }
        let images = SceneImages(scene: scene, decoding: .keeping(memoryLimit: options.memoryLimit ?? MemoryBudget.defaultBytes))
        let labels = SceneLabels(scene: scene, draw: true, memoryLimit: options.memoryLimit ?? MemoryBudget.defaultBytes)
        let diagnostics = SceneDiagnostics.check(scene, document: document, images: images, labels: labels, reversed: reversed)
        guard !diagnostics.hasErrors else {
            throw RenderError(
                .invalidScene,
                diagnostics.errors.count == diagnostics.problems.count
                    ? diagnostics.description : SceneDiagnostics(file: diagnostics.file, problems: diagnostics.errors).description,
                diagnostics: diagnostics)
        }
        if let overBudget = images.overBudget { throw RenderError(.memory, overBudget, diagnostics: diagnostics) }
        let planned = reversed ? scene.reversed() : scene
        let timeline = TransitionTimeline(scene: planned, images: images.decoded, labels: labels.drawn)
        guard timeline.frameCount <= TransitionTimeline.maximumFrameCount else {
            let where_ = document.map { "\($0.file): " } ?? ""
            throw RenderError(
                .invalidScene,
                "\(where_)the transition makes \(timeline.frameCount) frames; the limit is "
                    + "\(TransitionTimeline.maximumFrameCount) (lower fps or the holds)", diagnostics: diagnostics)
        }
        self.scene = planned
        self.diagnostics = diagnostics
        self.timeline = timeline
        self.options = options
        var inputs = images.files + labels.files
        if let document, document.file != "scene" { inputs.insert(document.file, at: 0) }
        self.inputFiles = inputs
        self.locations = document?.locations
        self.written = scene
        self.swapsScreens = reversed && scene.transition.direction != .roundtrip
    }

    // MARK: The clip

    public var frameCount: Int { timeline.frameCount }
    public var framesPerSecond: Double { timeline.canvas.framesPerSecond }
    public var pixelWidth: Int { timeline.canvas.pixelWidth }
    public var pixelHeight: Int { timeline.canvas.pixelHeight }
    /// The clip's length in seconds: frames / fps.
    public var seconds: Double { Double(frameCount) / framesPerSecond }
    /// What the engine decided, for people and machines (`info`).
    public var summary: TransitionSummary { TransitionSummary(timeline, scene: scene) }

    /// The frame a moment shows, or nil for a progress (which may fall between
    /// frames). Throws `.usage` for a moment outside the clip.
    public func frameIndex(_ moment: Moment) throws(RenderError) -> Int? {
        let last = frameCount - 1
        switch moment {
        case .frame(let n):
            guard (0 ... last).contains(n) else {
                throw RenderError(.usage, "frame \(n) is past the end: the clip has frames 0-\(last)")
            }
            return n
        case .time(let t):
            let length = String(format: "%.3f", seconds)
            guard t.isFinite, t >= 0 else { throw RenderError(.usage, "time \(t) is not a time in seconds, 0 or more") }
            let exact = t * framesPerSecond
            guard exact < Double(frameCount) - 0.5 else {
                throw RenderError(.usage, "time \(t) is past the end: the clip has \(frameCount) frames (\(length) s)")
            }
            return Int(exact.rounded())
        case .progress(let p):
            guard p.isFinite, (0 ... 1).contains(p) else {
                throw RenderError(.usage, "progress \(p) is outside 0...1")
            }
            return nil
        }
    }

    /// The still at `moment`, a premultiplied RGBA bitmap of the canvas size.
    public func still(_ moment: Moment) throws(RenderError) -> Bitmap {
        var bitmap = Bitmap(width: 0, height: 0)
        try draw(moment, into: &bitmap)
        return bitmap
    }

    /// The still at `moment` as PNG bytes (RGB when opaque, RGBA otherwise).
    public func pngData(_ moment: Moment) throws(RenderError) -> [UInt8] {
        let bitmap = try still(moment)
        do {
            return try PNGCodec.encode(bitmap)
        } catch {
            throw RenderError(.output, "cannot encode the still as PNG: \(error)")
        }
    }

    /// Draws `moment` into `bitmap`, reusing its storage when it has the canvas
    /// size: a loop of your own (a custom encoder, a benchmark) allocates
    /// nothing per frame.
    public func render(_ moment: Moment, into bitmap: inout Bitmap) throws(RenderError) {
        try draw(moment, into: &bitmap)
    }

    /// Draws `frames` in their order into `bitmap` (reused as `render(_:into:)` does), calling `body` with each
    /// frame's index and pixels before the next is drawn; `body` may swap the bitmap (an encoder handing back a free
    /// buffer). The same bytes as frame-by-frame `render`, but with more than one thread each frame's display list is
    /// made and prepared while the frame before it is drawn (`FrameSequence`): for a run of frames, prefer this.
    /// Throws `.usage` for a frame outside the clip, before drawing any; rethrows what `body` throws.
    public func render(
        frames: [Int], into bitmap: inout Bitmap, _ body: (Int, inout Bitmap) throws -> Void
    ) throws {
        for index in frames { _ = try frameIndex(.frame(index)) }
        var sequence = FrameSequence(renderer: try compositor(), frames: frames)
        while let (index, _) = sequence.next() {
            sequence.draw(into: &bitmap)
            try body(index, &bitmap)
        }
    }

    func draw(_ moment: Moment, into bitmap: inout Bitmap) throws(RenderError) {
        let compositor = try self.compositor()
        if let index = try frameIndex(moment) {
            compositor.render(frame: index, into: &bitmap)
        } else if case .progress(let p) = moment {
            // The first segment, whether it plays by itself or a finger drives it.
            compositor.render(timeline.displayList(segment: 0, time: p * timeline.segments[0].duration), into: &bitmap)
        }
    }

    /// The compositor for this plan, made (snapshots drawn) on first use,
    /// after checking that it and `extra` fit in the memory budget.
    func compositor(with extra: MemoryEstimate = MemoryEstimate()) throws(RenderError) -> FrameRenderer {
        // Once it exists, only something more (an encoder, a sheet) needs checking again.
        if let made = compositorCache.withLock({ $0 }), extra.parts.isEmpty { return made }
        try checkMemory(extra)
        return compositorCache.withLock { cached in
            if let cached { return cached }
            let made = FrameRenderer(plan: timeline, threads: threads)
            cached = made
            return made
        }
    }

    var threads: Int { options.threads ?? ProcessorCount.online }

    /// Warnings for the views where the picture jumps as a motion starts or
    /// ends: drawn at rest (the clip's first and last frames, its holds)
    /// otherwise than in Shift's snapshots (`RestingJumps`). It draws four
    /// pictures a motion, so it is asked for, not made with the renderer;
    /// none when the compositor would not fit in the memory budget.
    public func restingJumps() -> [SceneProblem] {
        guard let compositor = try? compositor() else { return [] }
        // Reversed, `from` and `to` swapped places: the warnings name the views as the file has them.
        return RestingJumps.problems(in: timeline, renderer: compositor, swappingScreens: swapsScreens).map { problem in
            let named = problem.naming(in: written)
            return locations?.locating(named) ?? named
        }
    }

    /// What drawing frames needs, plus `extra` (an encoder's, a sheet's).
    public func memoryEstimate(adding extra: MemoryEstimate = MemoryEstimate()) -> MemoryEstimate {
        let estimate = compositorEstimate.withLock { cached in
            if let cached { return cached }
            let made = MemoryEstimate.compositor(timeline, threads: threads)
            cached = made
            return made
        }
        return estimate.adding(extra)
    }

    /// Throws `.output` when `path`, or any of `members` (files of a set written
    /// at `path`), is one of this render's inputs, by device and inode.
    func refuseInputs(_ path: String, members: [String] = []) throws(RenderError) {
        guard !inputFiles.isEmpty else { return }
        let inputs = InputFiles(paths: inputFiles)
        for candidate in [path] + members where inputs.contains(candidate) {
            throw RenderError(.output, "cannot write '\(candidate)': it is an input of this render; refusing to write over it")
        }
    }

    /// Throws `.memory` when the estimate with `extra` is over the budget.
    func checkMemory(_ extra: MemoryEstimate) throws(RenderError) {
        let estimate = memoryEstimate(adding: extra)
        let limit = options.memoryLimit ?? MemoryBudget.defaultBytes
        guard estimate.total > limit else { return }
        let whose = options.memoryLimit == nil ? " (half of this machine's memory)" : ""
        throw RenderError(
            .memory,
            "this render needs \(estimate); the memory limit is \(MemoryEstimate.format(limit))\(whose). "
                + "Raise the limit (--memory-limit on the command line) or render smaller (--scale, --size)")
    }
}
