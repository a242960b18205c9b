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
/// The estimate adds what the stages hold at their peak, from the plan alone:
/// - images and snapshots: the decoded bitmap, the compositor's padded copy,
///   and its reduced levels (counted as one more copy; a rip-map can reach
///   four times the base, but a transition reads a few levels only);
/// - frames: the frame being drawn, the encoder's frame buffers, and a group
///   layer per group item that can be alive at once (sampled frames);
/// - the encoder's own state, by format (`encoderBytes`: x264's look-ahead
///   and reference frames dominate, scaling with the preset);
/// - a contact sheet: the sheet and one frame.
/// The per-format coefficients are documented with their measurements in
/// docs/memory.md; the estimate is meant to be within a factor of 1.5 of the
/// measured peak and on the high side.
public struct MemoryEstimate: Sendable, CustomStringConvertible {
    public var parts: [(name: String, bytes: Double)] = []

    public init() {}

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

    /// The process before any scene: code, the Swift runtime, Foundation and
    /// the FFmpeg and libpng libraries, mapped and touched at start.
    static let programBytes = 60e6

    /// What drawing any frame of `timeline` holds: sources, one frame, group layers.
    static func compositor(_ timeline: TransitionTimeline, threads: Int) -> MemoryEstimate {
        var estimate = MemoryEstimate()
        estimate.add("program", programBytes)
        let copies = 3.0  // the bitmap, the padded texture, its levels
        estimate.add("images", copies * timeline.images.reduce(0) { $0 + Double($1.width) * Double($1.height) * 4 })
        estimate.add("snapshots", copies * timeline.snapshots.reduce(0) {
            $0 + Double(max(0, $1.pixelWidth)) * Double(max(0, $1.pixelHeight)) * 4
        })
        let frame = Double(timeline.canvas.pixelWidth) * Double(timeline.canvas.pixelHeight) * 4
        estimate.add("group layers", groupLayerBytes(timeline))
        estimate.add("frame", frame)
        return estimate
    }

    /// Group layers: one buffer per group item in a frame, each at most the
    /// group shape's pixel bounds in the canvas (the layer's box is that, cut
    /// to clips and items). Buffers are pooled across frames, lent largest
    /// first and grown by a quarter when too small, so the pool's k-th largest
    /// buffer is at most 1.25x the k-th largest layer of any frame. Frames are
    /// sampled through the clip.
    static func groupLayerBytes(_ timeline: TransitionTimeline) -> Double {
        let canvas = (width: Double(timeline.canvas.pixelWidth), height: Double(timeline.canvas.pixelHeight))
        func area(_ item: DrawItem) -> Double {
            let r = item.shape.rect
            let corners = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
                           Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY)].map(item.transform.apply)
            let xs = corners.map(\.x), ys = corners.map(\.y)
            // Bad geometry draws nothing, but counting the whole canvas is the safe side.
            guard (xs + ys).allSatisfy(\.isFinite) else { return canvas.width * canvas.height }
            let w = min(xs.max()!.rounded(.up), canvas.width) - max(xs.min()!.rounded(.down), 0)
            let h = min(ys.max()!.rounded(.up), canvas.height) - max(ys.min()!.rounded(.down), 0)
            return max(0, w) * max(0, h)
        }
        func layers(_ list: DisplayList, depth: Int, into sizes: inout [Double]) {
            guard depth < 32 else { return }
            for item in list.items {
                guard case .group(let nested) = item.paint else { continue }
                sizes.append(area(item) * 4)
                layers(nested, depth: depth + 1, into: &sizes)
            }
        }
        var largest: [Double] = []  // [k]: the k-th largest layer of any sampled frame
        let count = timeline.frameCount
        for frame in Set((0 ... 32).map { $0 * max(count - 1, 0) / 32 }) {
            var sizes: [Double] = []
            layers(timeline.displayList(frame: frame), depth: 0, into: &sizes)
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
        let threads = Double(max(1, settings.encoderThreads ?? ProcessorCount.online))
        switch format {
        case .mp4:
            estimate.add("encoder frames", 2 * frame)
            estimate.add("x264 look-ahead", pixels * x264BytesPerPixel(preset: settings.preset, threads: threads))
        case .webm:
            estimate.add("encoder frames", 2 * frame)
            // libvpx keeps its lag (25 frames) and references as 4:2:0 planes with borders.
            estimate.add("VP9 look-ahead", pixels * 1.5 * 40)
        case .mov:
            estimate.add("encoder frames", 2 * frame)
            estimate.add("ProRes slices", pixels * 8 * threads)
        case .gif:
            let gifPixels = Double(settings.gif.outputSize(width: settings.width, height: settings.height).width)
                * Double(settings.gif.outputSize(width: settings.width, height: settings.height).height)
            estimate.add("encoder frames", 2 * frame + 3 * gifPixels * 4)
        case .pngSequence:
            // One frame per worker plus one queued, and each worker's straight-alpha copy.
            estimate.add("encoder frames", (2 * threads + 1) * frame)
        }
        return estimate
    }

    /// x264's frames in flight per pixel: look-ahead, B-frames, references and
    /// frame threads, each holding the picture, its half-resolution copies and
    /// motion data (about 4.5 bytes a pixel; measured, docs/memory.md).
    static func x264BytesPerPixel(preset: String, threads: Double) -> Double {
        let lookahead: Double
        switch preset {
        case "ultrafast", "superfast": lookahead = 0
        case "veryfast": lookahead = 10
        case "faster": lookahead = 20
        case "fast": lookahead = 30
        case "medium": lookahead = 40
        case "slow": lookahead = 50
        default: lookahead = 60
        }
        let references: Double = ["slower": 8, "veryslow": 16, "placebo": 16, "slow": 5][preset] ?? 3
        let frames = lookahead + references + 3 + 1.5 * threads + 4
        return frames * 4.5
    }
}

/// How much memory a render may use.
public enum MemoryBudget {
    /// The default: half of what this machine (or this process's cgroup) has,
    /// leaving the rest to the system and to whatever else runs beside it.
    public static var defaultBytes: Double {
        var limit = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
           let cgroup = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), cgroup > 0 {
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
