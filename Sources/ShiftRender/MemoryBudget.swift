import Compositor
import Encoders
import FramePlan
import Foundation
import Primitives
import TransitionEngine

#if canImport(Glibc)
import Glibc
#endif

/// An estimate of a render's peak memory, made before any work, and the
/// budget it must fit in.
///
/// Every limit of the scene format is per item (8192 px a side for the canvas
/// and for each image, 10 000 views), so their product is not bounded: twelve
/// 8192 x 8192 images, an 8192 x 8192 canvas through x264's look-ahead, or
/// thousands of large snapshots each pass many gigabytes. Rather than let the
/// machine swap or the kernel kill the process half-way, a render whose
/// estimate is over the budget is refused up front with the figure and the knob.
///
/// The estimate adds what the stages hold at their peak, from the plan and
/// the settings alone:
/// - the program itself (code, runtime, libraries);
/// - images and snapshots: the decoded bitmap, the compositor's padded copy
///   and the reduced levels it builds for the scales the frames draw it at;
/// - the frame and the copy a PNG of it is written from, and a group layer
///   per group item that can be alive at once (sampled frames);
/// - the encoder, by format (`encoder(_:settings:)`): its frame buffers and
///   the codec's own state (x264's look-ahead, B-frames and references
///   dominate, so its preset and thread count matter);
/// - a contact sheet: the sheet.
/// The coefficients are fitted to measured peaks (docs/memory.md has the
/// table and the command) and rounded up: the estimate is meant to be on the
/// high side of the measured peak, and within about 1.5 times it.
public struct MemoryEstimate: Sendable, CustomStringConvertible {
    public var parts: [(name: String, bytes: Double)] = []
    /// Set on an encoder's estimate: it takes frames drawn in order, each next one prepared while one is drawn
    /// (`FrameSequence`), so two frames' 3-D layers are alive at once.
    public var drawsFramesInSequence = false
    /// On the compositor's estimate: what a second frame's 3-D layers add when frames are drawn in sequence.
    var nextFrameLayers = 0.0

    public init() {}

    /// This estimate with `extra`'s parts (an encoder's, a sheet's), and the next frame's 3-D layers when `extra`
    /// draws frames in sequence.
    public func adding(_ extra: MemoryEstimate) -> MemoryEstimate {
        var sum = self
        sum.parts += extra.parts
        if extra.drawsFramesInSequence { sum.add("3-D layers, next frame", nextFrameLayers) }
        return sum
    }

    public var total: Double { parts.reduce(0) { $0 + $1.bytes } }

    /// Adds a part (parts of 0 bytes are left out).
    public mutating func add(_ name: String, _ bytes: Double) {
        if bytes > 0 { parts.append((name, bytes)) }
    }

    /// "about 9.1 GB (snapshots 6.2 GB, images 2.4 GB, ...)", largest parts first.
    public var description: String {
        let listed = parts.sorted { $0.bytes > $1.bytes }.prefix(4).map { "\($0.name) \(Self.format($0.bytes))" }
        return "about \(Self.format(total)) (" + listed.joined(separator: ", ") + ")"
    }

    /// Bytes in the units a person reads: "512 MB", "9.1 GB".
    public static func format(_ bytes: Double) -> String {
        if bytes >= 1e9 { return String(format: "%.1f GB", bytes / 1e9) }
        if bytes >= 1e6 { return String(format: "%.0f MB", bytes / 1e6) }
        return String(format: "%.0f kB", bytes / 1e3)
    }

    // MARK: Stages
    //
    // Coefficients are bytes, or bytes a pixel, fitted to the peak resident
    // memory of real renders (`benchmarks/memory.py`) and rounded up; the
    // table is in docs/memory.md. Each says what it stands for.

    /// The process before any scene: code, the Swift runtime, Foundation and
    /// the FFmpeg, libpng, libdeflate, libjpeg and text libraries (a 64 x 64
    /// still peaks at 65 MB).
    static let programBytes = 68e6

    /// What drawing any frame of `timeline` holds: sources, one frame, group layers.
    static func compositor(_ timeline: TransitionTimeline, threads: Int) -> MemoryEstimate {
        var estimate = MemoryEstimate()
        estimate.add("program", programBytes)
        // Frames spread through the clip (every frame of a short one), each planned once for both walks below.
        let count = timeline.frameCount
        let samples = min(count, 256)
        let lists = Set((0 ..< samples).map { samples > 1 ? $0 * (count - 1) / (samples - 1) : 0 })
            .sorted().map(timeline.displayList(frame:))
        let sources = sourceBytes(timeline, lists: lists)
        estimate.add("images", sources.images)
        estimate.add("snapshots", sources.snapshots)
        estimate.add("group layers", groupLayerBytes(timeline, lists: lists))
        let planes = planeLayerBytes(timeline, lists: lists, threads: threads)
        estimate.add("3-D layers", planes.alone)
        estimate.nextFrameLayers = planes.inSequence - planes.alone
        // The frame drawn, and the straight-alpha (or RGB) copy a PNG of it is written from.
        let frame = Double(timeline.canvas.pixelWidth) * Double(timeline.canvas.pixelHeight) * 4
        estimate.add("frame", 2 * frame)
        return estimate
    }

    /// Images and snapshots as the compositor holds them: each one's bitmap
    /// and its padded copy (`Texture`), and the reduced levels it builds for
    /// items that draw it smaller than half size (`MipLevels`, the
    /// compositor's own rule): the levels that the items of `lists` and of the
    /// snapshots' content read. A level is built from the one before it, width halvings
    /// first, so reading `(x, y)` builds `(1...x, 0)` and `(x, 1...y)`; frames
    /// between the samples may read any `x` in between, so every column
    /// `x` from the least to the most read is counted up to the most `y`.
    static func sourceBytes(_ timeline: TransitionTimeline, lists: [DisplayList]) -> (images: Double, snapshots: Double) {
        struct Reach { var minX = Int.max, maxX = 0, maxY = 0 }
        var reach: [BitmapReference: Reach] = [:]
        func size(_ source: BitmapReference) -> (width: Int, height: Int)? {
            switch source {
            case .image(let i) where timeline.images.indices.contains(i):
                return (timeline.images[i].width, timeline.images[i].height)
            case .snapshot(let i) where timeline.snapshots.indices.contains(i):
                return (timeline.snapshots[i].pixelWidth, timeline.snapshots[i].pixelHeight)
            default: return nil
            }
        }
        func walk(_ list: DisplayList, depth: Int) {
            guard depth < 32 else { return }
            for item in list.items {
                if case .group(let nested) = item.paint { walk(nested, depth: depth + 1) }
                guard let source = item.paint.bitmapReference, let dims = size(source),
                    let level = MipLevels.indices(
                        transform: item.transform, rect: item.shape.rect,
                        width: dims.width, height: dims.height),
                    level.x > 0 || level.y > 0
                else { continue }
                var r = reach[source] ?? Reach()
                r.minX = min(r.minX, level.x)
                r.maxX = max(r.maxX, level.x)
                r.maxY = max(r.maxY, level.y)
                reach[source] = r
            }
        }
        for snapshot in timeline.snapshots { walk(snapshot.content, depth: 0) }
        for list in lists { walk(list, depth: 0) }
        // One file named by several sources (links, spellings) is decoded once: its pixels are shared, its textures not.
        var counted = Set<UnsafeRawPointer>()
        func bitmapBytes(_ source: BitmapReference, width: Int, height: Int) -> Double {
            if case .image(let i) = source,
                let storage = timeline.images[i].pixels.withUnsafeBytes({ $0.baseAddress }),
                !counted.insert(storage).inserted
            {
                return 0
            }
            return Double(width * height * 4)
        }
        func bytes(_ source: BitmapReference) -> Double {
            guard let dims = size(source), dims.width > 0, dims.height > 0 else { return 0 }
            let width = dims.width
            let height = dims.height
            var total = bitmapBytes(source, width: width, height: height)
                + Double(MipLevels.byteCount(0, 0, width: width, height: height))
            if let r = reach[source] {
                for x in stride(from: 1, through: r.maxX, by: 1) {
                    total += Double(MipLevels.byteCount(x, 0, width: width, height: height))
                }
                for x in stride(from: r.minX, through: r.maxX, by: 1) {
                    for y in stride(from: 1, through: r.maxY, by: 1) {
                        total += Double(MipLevels.byteCount(x, y, width: width, height: height))
                    }
                }
            }
            return total
        }
        return (
            timeline.images.indices.reduce(0) { $0 + bytes(.image($1)) },
            timeline.snapshots.indices.reduce(0) { $0 + bytes(.snapshot($1)) }
        )
    }

    /// 3-D planes (`LayerMemory.planeLayers`): each projected item's flat layer, its texture and levels, held
    /// until its frame is drawn, and one flat bitmap being drawn. Frames drawn in sequence with more than one
    /// thread (`FrameSequence`: an encoder) prepare the next frame while one is drawn, so two frames' layers are
    /// alive (`inSequence`); a still draws one (`alone`). Snapshots are rasterized first, up to `threads` at
    /// once, each holding its own planes (and blur regions) until it is drawn. The phases do not overlap: the
    /// larger counts.
    static func planeLayerBytes(
        _ timeline: TransitionTimeline, lists: [DisplayList], threads: Int
    ) -> (alone: Double, inSequence: Double) {
        let (width, height) = (timeline.canvas.pixelWidth, timeline.canvas.pixelHeight)
        var frames = 0.0
        var bitmap = 0.0
        for list in lists {
            let planes = LayerMemory.planeLayers(list, width: width, height: height)
            frames = max(frames, planes.held)
            bitmap = max(bitmap, planes.largestBitmap)
        }
        let framesAtOnce: Double = threads > 1 && timeline.frameCount > 1 ? 2 : 1
        let snapshots = timeline.snapshots.map { snapshot in
            let planes = LayerMemory.planeLayers(snapshot.content, width: snapshot.pixelWidth, height: snapshot.pixelHeight)
            let regions = snapshot.content.items.compactMap {
                LayerMemory.backdropRegionBytes($0, width: snapshot.pixelWidth, height: snapshot.pixelHeight)
            }
            return planes.held + planes.largestBitmap + regions.reduce(0, +)
        }
        let snapshotPhase = snapshots.sorted(by: >).prefix(max(1, threads)).reduce(0, +)
        return (max(frames + bitmap, snapshotPhase), max(framesAtOnce * frames + bitmap, snapshotPhase))
    }

    /// Group layers and backdrop blur regions: one buffer per group item and per blur in a frame, each at most the
    /// group shape's pixel bounds in the canvas (the layer's box is that, cut to clips and items), or the blur's
    /// region (`LayerMemory.backdropRegionBytes`). Buffers are pooled across frames, lent largest
    /// first and grown by a quarter when too small, so the pool's k-th largest
    /// buffer is at most 1.25x the k-th largest layer of any frame (of `lists`,
    /// frames sampled through the clip).
    static func groupLayerBytes(_ timeline: TransitionTimeline, lists: [DisplayList]) -> Double {
        let canvas = (width: Double(timeline.canvas.pixelWidth), height: Double(timeline.canvas.pixelHeight))
        func area(_ item: DrawItem) -> Double {
            let r = item.shape.rect
            let corners = [
                Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
                Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY),
            ].map(item.transform.apply)
            let xs = corners.map(\.x)
            let ys = corners.map(\.y)
            // Bad geometry draws nothing, but counting the whole canvas is the safe side.
            guard (xs + ys).allSatisfy(\.isFinite) else { return canvas.width * canvas.height }
            let w = min(xs.max()!.rounded(.up), canvas.width) - max(xs.min()!.rounded(.down), 0)
            let h = min(ys.max()!.rounded(.up), canvas.height) - max(ys.min()!.rounded(.down), 0)
            return max(0, w) * max(0, h)
        }
        func layers(_ list: DisplayList, depth: Int, into sizes: inout [Double]) {
            guard depth < 32 else { return }
            // A projected group is drawn flat into a plane layer (`planeLayerBytes`), not a group layer.
            for item in list.items where item.projection == nil {
                guard case .group(let nested) = item.paint else { continue }
                sizes.append(area(item) * 4)
                layers(nested, depth: depth + 1, into: &sizes)
            }
        }
        var largest: [Double] = []  // [k]: the k-th largest layer of any sampled frame
        for list in lists {
            var sizes: [Double] = list.items.compactMap {
                LayerMemory.backdropRegionBytes($0, width: Int(canvas.width), height: Int(canvas.height))
            }
            layers(list, depth: 0, into: &sizes)
            for (k, size) in sizes.sorted(by: >).enumerated() {
                if k < largest.count { largest[k] = max(largest[k], size) } else { largest.append(size) }
            }
        }
        return 1.25 * largest.reduce(0, +)
    }

    /// The encoder's frame buffers and internal state for `format` with
    /// `settings`: add it to `Renderer.memoryEstimate(adding:)` for a render's estimate.
    public static func encoder(_ format: OutputFormat, settings: VideoSettings) -> MemoryEstimate {
        var estimate = MemoryEstimate()
        let pixels = Double(settings.width) * Double(settings.height)
        let frame = pixels * 4
        let cores = Double(max(1, ProcessorCount.online))
        let threads = settings.encoderThreads.map { Double(max(1, $0)) }
        // A video encoder has two frame buffers (`FramePipeline`): the compositor draws into one (counted as
        // its frame) while the encoder reads the other.
        estimate.drawsFramesInSequence = true
        switch format {
        case .mp4:
            estimate.add("encoder frames", frame)
            // Not told, x264 runs 1.5 frame threads a core.
            estimate.add(
                "x264",
                x264Bytes(
                    preset: settings.preset, threads: threads ?? (cores * 3 / 2).rounded(.down),
                    pixels: pixels))
        case .webm:
            estimate.add("encoder frames", frame)
            // libvpx holds its 25-frame lag, the alt-ref filter's frames and its references as 4:2:0 planes
            // with 160-px borders, and their statistics: about 112 bytes a bordered pixel, whatever the
            // speed or thread count. Alpha is a second VP9 stream, from a second encoder.
            let bordered = Double(settings.width + 320) * Double(settings.height + 320)
            estimate.add("VP9", (settings.isTransparent ? 2 : 1) * 112 * bordered)
        case .mov:
            estimate.add("encoder frames", frame)
            // Not told, FFmpeg runs one frame thread a core plus one. The first holds the 10-bit 4:4:4 picture,
            // the packet and slice buffers (16 bytes a pixel); each further one its own, in a malloc arena
            // of its own that measures up to about 75 MB below 4K.
            let frameThreads = threads ?? (cores > 1 ? cores + 1 : 1)
            estimate.add("ProRes", 16 * pixels + (frameThreads - 1) * max(80e6, 10 * pixels))
        case .gif:
            let size = settings.gif.outputSize(width: settings.width, height: settings.height)
            // The frame handed over, its straight copy and the scaler's input (16 bytes a canvas pixel); the
            // scaled frame and paletteuse's frames and error rows (56 bytes a GIF pixel).
            estimate.add("GIF frames", 16 * pixels + 56 * Double(size.width) * Double(size.height))
            // palettegen's and paletteuse's colour tables, which grow with the colours seen (35 MB at 64 x 64).
            estimate.add("GIF palette", 60e6)
        case .pngSequence:
            // A frame per worker besides the one being drawn (`FramePipeline`), and each worker's
            // `PNGFrameWriter`: the filtered image and its deflated form, each at most a frame's size.
            estimate.add("encoder frames", 3 * (threads ?? cores) * frame)
        }
        return estimate
    }

    /// x264's memory for frames of `pixels` pixels with `preset` and `threads`
    /// frame threads, from what the preset sets (x264's own preset table).
    static func x264Bytes(preset: String, threads: Double, pixels: Double) -> Double {
        let (lookahead, bFrames, references): (Double, Double, Double)
        switch preset {
        case "ultrafast": (lookahead, bFrames, references) = (0, 0, 1)
        case "superfast": (lookahead, bFrames, references) = (0, 3, 1)
        case "veryfast": (lookahead, bFrames, references) = (10, 3, 1)
        case "faster": (lookahead, bFrames, references) = (20, 3, 2)
        case "fast": (lookahead, bFrames, references) = (30, 3, 2)
        case "slow": (lookahead, bFrames, references) = (50, 3, 5)
        case "slower": (lookahead, bFrames, references) = (60, 3, 8)
        case "veryslow": (lookahead, bFrames, references) = (60, 8, 16)
        case "placebo": (lookahead, bFrames, references) = (60, 16, 16)
        default: (lookahead, bFrames, references) = (40, 3, 3)  // medium
        }
        var perPixel = 12 * threads  // each frame thread's picture and its reconstruction with half-pel planes
        perPixel += 3 * lookahead  // a queued picture and its half-resolution planes and motion costs
        perPixel += 16 * bFrames  // two more frames of delay each (B-frame and sync queues), and bigger cost tables
        perPixel += 7 * references  // a decoded picture and its three half-pel luma planes
        // placebo's exhaustive motion search keeps integral sums, 8 bytes a pixel, with every reference.
        if preset == "placebo" { perPixel += 8 * references }
        // Tables, per-frame arrays and thread stacks that do not scale with the picture (small frames pay more).
        return 24e6 + perPixel * pixels
    }
}

/// How much memory a render may use.
public enum MemoryBudget {
    /// The default: half of what this machine (or this process's cgroup) has,
    /// leaving the rest to the system and to whatever else runs beside it.
    public static var defaultBytes: Double {
        var limit = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
            let cgroup = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), cgroup > 0
        {
            limit = min(limit, cgroup)
        }
        return limit / 2
    }

    /// Parses "8G", "512M", "2.5GB", "1048576" (bytes; K/M/G/T are powers of 1000, KiB/MiB/GiB of 1024).
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value > 0, value.isFinite else { return nil }
        let unit = trimmed.dropFirst(digits.count).lowercased()
        let scale: Double
        switch unit {
        case "", "b": scale = 1
        case "k", "kb": scale = 1e3
        case "m", "mb": scale = 1e6
        case "g", "gb": scale = 1e9
        case "t", "tb": scale = 1e12
        case "kib": scale = 1024
        case "mib": scale = 1024 * 1024
        case "gib": scale = 1024 * 1024 * 1024
        case "tib": scale = 1024.0 * 1024 * 1024 * 1024
        default: return nil
        }
        return value * scale
    }
}
