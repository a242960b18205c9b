// shiftrender-bench: times one configuration of the pipeline per process, so
// that the process's peak resident memory (VmHWM) is that configuration's.
// The driver (benchmarks/bench.py, run by benchmarks/run.sh) calls it once per
// stage x resolution x thread count and gathers the JSON lines it prints.
//
// It renders through the library as its users do (`Renderer`, `render(_:into:)`,
// `render(to:settings:frames:)`), so it measures what they get and keeps
// working while the compositor and the encoders change underneath.
//
//   shiftrender-bench measure --scene S --stage engine|composite|png|mp4|webm|mov
//                             [--threads N|all] [--warmup W] [--warmup-frames F] [--repeats R] [--stride K]
//                             [--skip shadow,border] [--clip-scale X] [--crf 18] [--preset medium] [--work DIR]
//   shiftrender-bench dump --scene S --out FILE [--threads N|all] [--stride K] [--skip shadow,border]
//       writes every stride-th frame as raw RGBA8 (premultiplied; opaque for the
//       bench scene), back to back, for the ffmpeg baselines and the PSNR check.
//   shiftrender-bench cores
//
// `--skip` draws each frame's display list without the items of the kinds
// named (inside groups too), as the peers' `--skip` does: the reduced plan
// that the peers are also timed on, so that both comparisons are like for
// like. It goes through the library's compositor (`FrameRenderer`) with the
// renderer's own plan, so it differs from the whole-plan path only in the
// items handed over.
import ArgumentParser
import Compositor
import Dispatch
import FramePlan
import Foundation
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shiftrender-bench",
        abstract: "Time one configuration of shiftrender's pipeline (run by benchmarks/run.sh).",
        subcommands: [Measure.self, Dump.self, Cores.self]
    )
}

// MARK: - Options

/// A thread count: a number, or `all` for one per online core.
struct ThreadCount: ExpressibleByArgument {
    var value: Int

    init?(argument: String) {
        if argument == "all" {
            value = ProcessorCount.online
        } else if let n = Int(argument), (1 ... 256).contains(n) {
            value = n
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { "\(value)" }
}

/// The scene and how much of it: shared by `measure` and `dump`.
struct SceneOptions: ParsableArguments {
    @Option(help: "The scene file (JSON).")
    var scene: String

    @Option(help: "Compositor threads: 1-256, or all (one per online core).")
    var threads = ThreadCount(argument: "1")!

    @Option(help: "Cover every K-th frame.")
    var stride = 1

    @Option(name: .customLong("clip-scale"), help: "Stretch the transition's duration (more frames, the same motion).")
    var clipScale = 1.0

    @Option(help: "Comma-separated paint kinds left out of every display list (composite, dump), e.g. shadow,border.")
    var skip = PaintKinds(argument: "")!

    func validate() throws {
        guard stride >= 1 else { throw ValidationError("--stride must be 1 or more") }
        guard clipScale > 0, clipScale.isFinite else { throw ValidationError("--clip-scale must be a positive number") }
    }

    /// The renderer, with the seconds spent reading the JSON and planning (decoding images, every frame's plan).
    func load() -> (Renderer, loadSeconds: Double, timelineSeconds: Double) {
        let t0 = now()
        do {
            let document = try SceneJSON.read(fileAt: scene)
            var scene = document.scene
            // A longer clip of the same motion: for checking that memory stays flat in clip length.
            scene.transition.baselineDuration *= clipScale
            let t1 = now()
            let renderer = try Renderer(scene: scene, document: document, options: Renderer.Options(threads: threads.value))
            return (renderer, t1 - t0, now() - t1)
        } catch {
            fail("\(error)")
        }
    }

    func frames(of renderer: Renderer) -> [Int] { Array(Swift.stride(from: 0, to: renderer.frameCount, by: stride)) }

    /// What draws frames, in the order given, into a bitmap, calling back after each: the renderer's run of frames
    /// for the whole plan, or, with `--skip`, the library's compositor over the renderer's plan with the skipped
    /// kinds taken out of every display list (snapshots drawn whole, as in the plan the peers read). Both make and
    /// prepare each frame's list while the frame before it is drawn (`FrameSequence`), as an export does.
    func drawer(_ renderer: Renderer) -> ([Int], inout Bitmap, (Int, Bitmap) -> Void) -> Void {
        guard !skip.kinds.isEmpty else {
            return { frames, target, each in
                do {
                    try renderer.render(frames: frames, into: &target) { f, bitmap in each(f, bitmap) }
                } catch {
                    fail("frames \(frames.first ?? 0)...: \(error)")
                }
            }
        }
        let compositor = FrameRenderer(plan: SkippingPlan(base: renderer.timeline, kinds: skip.kinds), threads: threads.value)
        return { frames, target, each in
            var sequence = FrameSequence(renderer: compositor, frames: frames)
            while let (f, _) = sequence.next() {
                sequence.draw(into: &target)
                each(f, target)
            }
        }
    }
}

/// A plan with some kinds of paint taken out of every display list (`--skip`).
struct SkippingPlan: FramePlanSource {
    let base: any FramePlanSource
    let kinds: Set<PaintKind>
    var canvas: Canvas { base.canvas }
    var frameCount: Int { base.frameCount }
    var images: [Bitmap] { base.images }
    var snapshots: [SnapshotDescription] { base.snapshots }
    func displayList(frame index: Int) -> DisplayList { base.displayList(frame: index).without(kinds) }
}

enum Stage: String, ExpressibleByArgument, CaseIterable {
    case engine, composite, png, mp4, webm, mov

    var isExport: Bool { self == .png || self == .mp4 || self == .webm || self == .mov }
}

/// Paint kinds by their names in the frame plan's JSON (docs/frame-plan.md), as the peers' `--skip` takes them.
enum PaintKind: String, CaseIterable, Sendable {
    case solid, image, snapshot, border, shadow, gradient, group, backdropBlur
}

struct PaintKinds: ExpressibleByArgument {
    var kinds: Set<PaintKind>

    init?(argument: String) {
        var kinds = Set<PaintKind>()
        for name in argument.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let kind = PaintKind(rawValue: name) else { return nil }
            kinds.insert(kind)
        }
        self.kinds = kinds
    }

    var defaultValueDescription: String { "none" }
    static var allValueStrings: [String] { PaintKind.allCases.map(\.rawValue) }
    /// The kinds, sorted, for the JSON line.
    var names: [String] { kinds.map(\.rawValue).sorted() }
}

extension Paint {
    var kind: PaintKind {
        switch self {
        case .solid: .solid
        case .bitmap(.image): .image
        case .bitmap(.snapshot): .snapshot
        case .border: .border
        case .shadow: .shadow
        case .gradient: .gradient
        case .group: .group
        case .backdropBlur: .backdropBlur
        }
    }
}

extension DisplayList {
    /// This list without the items of `kinds`, inside groups too (the peers' `planfile.without_kinds`).
    func without(_ kinds: Set<PaintKind>) -> DisplayList {
        var kept = DisplayList()
        kept.items.reserveCapacity(items.count)
        for var item in items where !kinds.contains(item.paint.kind) {
            if case .group(let nested) = item.paint { item.paint = .group(nested.without(kinds)) }
            kept.items.append(item)
        }
        return kept
    }
}

// MARK: - measure

struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Time a stage; print one JSON line of figures.")

    @OptionGroup var source: SceneOptions

    @Option(help: "engine (display lists), composite (frames into one bitmap), png, mp4, webm or mov (whole exports).")
    var stage = Stage.composite

    @Option(help: "Untimed runs first.")
    var warmup = 1

    @Option(name: .customLong("warmup-frames"), help: "Warm-up runs cover only the first F frames (0: all of them).")
    var warmupFrames = 0

    @Option(help: "Timed runs.")
    var repeats = 5

    @Option(help: "H.264 quality (mp4).")
    var crf = VideoSettings.Defaults.crf

    @Option(help: "x264 preset (mp4; webm takes libvpx's deadline and cpu-used from it).")
    var preset = VideoSettings.Defaults.preset

    @Option(help: "Where exports are written (each deleted after its run).")
    var work = NSTemporaryDirectory()

    func validate() throws {
        guard warmup >= 0, warmupFrames >= 0 else { throw ValidationError("--warmup and --warmup-frames must be 0 or more") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be 1 or more") }
        guard source.skip.kinds.isEmpty || stage == .composite else {
            throw ValidationError("--skip applies to --stage composite (and dump) only")
        }
    }

    func run() {
        let (renderer, loadSeconds, timelineSeconds) = source.load()
        let frames = source.frames(of: renderer)
        var setupSeconds = 0.0
        var framesPerRun = frames.count
        var checksum = 0
        let runOnce: ([Int]) -> Run
        switch stage {
        case .engine:
            let (run, plansPerRun) = engineRun(renderer, frames: frames, checksum: &checksum)
            runOnce = run
            framesPerRun = plansPerRun
        case .composite:
            // The first frame makes the compositor (snapshots drawn once): setup, not timed.
            var target = Bitmap(width: 0, height: 0)
            let s0 = now()
            let drawFrames = source.drawer(renderer)
            drawFrames([frames[0]], &target) { _, _ in }
            setupSeconds = now() - s0
            runOnce = { frames in
                let c0 = cpuTime()
                let t0 = now()
                drawFrames(frames, &target) { _, _ in }
                let t1 = now()
                let c1 = cpuTime()
                checksum &+= Int(target.pixels[target.pixels.count / 2])
                return Run(seconds: t1 - t0, cpu: c1 - c0, bytes: 0)
            }
        case .png, .mp4, .webm, .mov:
            var scratch = Bitmap(width: 0, height: 0)
            let s0 = now()
            draw(renderer, frame: frames[0], into: &scratch)
            setupSeconds = now() - s0
            runOnce = exportRun(renderer)
        }

        let warmupFrames = self.warmupFrames > 0 ? Array(frames.prefix(self.warmupFrames)) : frames
        for _ in 0 ..< warmup { _ = runOnce(warmupFrames) }
        let runs = (0 ..< repeats).map { _ in runOnce(frames) }

        let fps = runs.map { Double(framesPerRun) / $0.seconds }.sorted()
        let median = fps.count % 2 == 1 ? fps[fps.count / 2] : (fps[fps.count / 2 - 1] + fps[fps.count / 2]) / 2
        var fields: [(String, String)] = [
            ("stage", jsonString(stage.rawValue)),
            ("scene", jsonString(source.scene)),
            ("width", "\(renderer.pixelWidth)"), ("height", "\(renderer.pixelHeight)"),
            ("clip_frames", "\(renderer.frameCount)"), ("frames_per_run", "\(framesPerRun)"),
            ("stride", "\(source.stride)"), ("clip_scale", jsonNumber(source.clipScale)),
            ("threads", "\(source.threads.value)"), ("cores", "\(ProcessorCount.online)"),
            ("skipped_kinds", "[" + source.skip.names.map(jsonString).joined(separator: ", ") + "]"),
            ("warmup", "\(warmup)"), ("warmup_frames", "\(warmupFrames.count)"), ("repeats", "\(repeats)"),
            ("fps_median", jsonNumber(median)), ("fps_min", jsonNumber(fps.first!)), ("fps_max", jsonNumber(fps.last!)),
            ("run_seconds", "[" + runs.map { jsonNumber($0.seconds) }.joined(separator: ", ") + "]"),
            ("run_cpu_seconds", "[" + runs.map { jsonNumber($0.cpu) }.joined(separator: ", ") + "]"),
            ("scene_load_seconds", jsonNumber(loadSeconds)), ("timeline_seconds", jsonNumber(timelineSeconds)),
            ("setup_seconds", jsonNumber(setupSeconds)),
            ("peak_rss_kib", procStatusKiB("VmHWM").map(String.init) ?? "null"),
            ("checksum", "\(checksum)"),
        ]
        if stage.isExport {
            fields.append(("output_bytes", "\(runs.last!.bytes)"))
            if stage == .mp4 || stage == .webm {
                fields.append(("crf", "\(stage == .mp4 ? crf : VideoSettings.Defaults.vp9CRF)"))
                fields.append(("preset", jsonString(preset)))
            }
        }
        print("{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
    }

    /// Plans per second: the display list of every frame. With threads > 1,
    /// frames are planned concurrently (displayList is a pure function of the
    /// index). Planning a clip takes well under a millisecond, so a run plans
    /// it `passes` times (enough for ~0.2 s) and counts every plan.
    func engineRun(_ renderer: Renderer, frames: [Int], checksum: inout Int) -> (([Int]) -> Run, plansPerRun: Int) {
        let timeline = renderer.timeline
        let threads = source.threads.value
        let probe = now()
        for f in frames { checksum &+= timeline.displayList(frame: f).items.count }
        let passes = max(1, Int(0.2 / max(now() - probe, 1e-6)))
        let run: ([Int]) -> Run = { frames in
            let c0 = cpuTime()
            let t0 = now()
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(threads, 1))
            counts.initialize(repeating: 0)
            defer { counts.deallocate() }
            let box = UncheckedBox(counts)
            for _ in 0 ..< passes {
                DispatchQueue.concurrentPerform(iterations: threads) { worker in
                    for i in Swift.stride(from: worker, to: frames.count, by: threads) {
                        box.value[worker] &+= timeline.displayList(frame: frames[i]).items.count
                    }
                }
            }
            return Run(seconds: now() - t0, cpu: cpuTime() - c0, bytes: 0)
        }
        return (run, frames.count * passes)
    }

    /// A whole export: the encoder opened, every frame rendered and appended,
    /// the file finished (in `work`, deleted after). A run of consecutive
    /// frames is exactly `render(to:settings:frames:)`; a strided one (4K, to
    /// keep the run short) is the same loop by hand, since a library render
    /// covers a range: frames exchanged with the encoder, so compositing one
    /// overlaps encoding the last.
    func exportRun(_ renderer: Renderer) -> ([Int]) -> Run {
        var settings = renderer.videoSettings()
        settings.crf = crf
        settings.preset = preset
        settings.overwrite = true
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let base = work + "/bench-\(stage.rawValue)-\(getpid())"
        var counter = 0
        return { frames in
            counter += 1
            let path = stage == .png ? base + "-\(counter)/" : base + "-\(counter).\(stage.rawValue)"
            let c0 = cpuTime()
            let t0 = now()
            do {
                if frames == Array(frames[0] ... frames[frames.count - 1]) {
                    let whole = frames.count == renderer.frameCount
                    try renderer.render(to: path, settings: settings, frames: whole ? nil : frames[0] ... frames[frames.count - 1])
                } else {
                    let encoder = try OutputFormat.detect(path: path).encoder(path: path, settings: settings)
                    var frame = Bitmap(width: settings.width, height: settings.height)
                    try renderer.render(frames: frames, into: &frame) { _, bitmap in bitmap = try encoder.exchange(bitmap) }
                    try encoder.finish()
                }
            } catch {
                fail("\(stage.rawValue) export failed: \(error)")
            }
            let t1 = now()
            let c1 = cpuTime()
            let bytes = directorySize(path)
            try? FileManager.default.removeItem(atPath: path)
            return Run(seconds: t1 - t0, cpu: c1 - c0, bytes: bytes)
        }
    }
}

/// One timed run: wall and CPU seconds, and bytes written (exports).
struct Run {
    var seconds: Double
    var cpu: Double
    var bytes: Int
}

/// Hands a buffer to concurrentPerform's closure; each worker writes its own slot.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

func draw(_ renderer: Renderer, frame: Int, into target: inout Bitmap) {
    do {
        try renderer.render(.frame(frame), into: &target)
    } catch {
        fail("frame \(frame): \(error)")
    }
}

// MARK: - dump

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the frames as raw RGBA8, back to back; print their size.")

    @OptionGroup var source: SceneOptions

    @Option(help: "The raw frames file.")
    var out: String

    func run() {
        let (renderer, _, _) = source.load()
        guard FileManager.default.createFile(atPath: out, contents: nil),
            let handle = FileHandle(forWritingAtPath: out)
        else { fail("cannot write \(out)") }
        var target = Bitmap(width: 0, height: 0)
        source.drawer(renderer)(source.frames(of: renderer), &target) { _, frame in
            frame.pixels.withUnsafeBytes { handle.write(Data($0)) }
        }
        try? handle.close()
        print(
            "{\"width\": \(renderer.pixelWidth), \"height\": \(renderer.pixelHeight), "
                + "\"frames\": \(renderer.frameCount), \"fps\": \(jsonNumber(renderer.framesPerSecond))}")
    }
}

// MARK: - cores

struct Cores: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the number of online cores (what --threads all uses).")

    func run() { print(ProcessorCount.online) }
}

// MARK: - Small utilities

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("shiftrender-bench: \(message)\n".utf8))
    exit(2)
}

/// Monotonic wall clock, seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// User + system CPU time of the whole process (all threads), seconds.
func cpuTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A field of /proc/self/status in KiB (VmHWM: peak resident set; VmRSS: now).
func procStatusKiB(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).filter(\.isNumber))
    }
    return nil
}

func directorySize(_ path: String) -> Int {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
    guard isDirectory.boolValue else { return ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0 }
    return ((try? fm.contentsOfDirectory(atPath: path)) ?? []).reduce(0) { $0 + directorySize(path + "/" + $1) }
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}

func jsonNumber(_ x: Double) -> String { x.isFinite ? String(format: "%.6g", x) : "null" }

Bench.main()
