// shiftrender-bench: times one configuration of the pipeline per process, so
// that the process's peak resident memory (VmHWM) is that configuration's.
// The driver (benchmarks/bench.py, run by benchmarks/run.sh) calls it once per
// stage x resolution x thread count and gathers the JSON lines it prints.
//
// It uses only the public APIs the CLI uses (SceneLoader, TransitionTimeline,
// FrameRenderer(plan:threads:).render(frame:into:), OutputFormat.encoder(
// forOutputPath:settings:), VideoSettings), so it keeps working while the
// compositor and the encoders change underneath.
//
//   shiftrender-bench measure --scene S --stage engine|composite|png|mp4
//                             [--threads N] [--warmup W] [--warmup-frames F] [--repeats R] [--stride K]
//                             [--clip-scale X] [--crf 18] [--preset medium] [--work DIR]
//   shiftrender-bench dump --scene S --out FILE [--threads N]
//       writes every frame as raw RGBA8 (premultiplied; opaque for the bench
//       scene), back to back, for the ffmpeg baselines and the PSNR check.
//   shiftrender-bench cores
import Compositor
import Dispatch
import Encoders
import FramePlan
import Foundation
import Primitives
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

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
        let digits = line.dropFirst(field.count + 1).filter { $0.isNumber }
        return Int(digits)
    }
    return nil
}

func onlineCores() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

func directorySize(_ path: String) -> Int {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDir) else { return 0 }
    if !isDir.boolValue { return ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0 }
    var total = 0
    for name in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
        total += directorySize(path + "/" + name)
    }
    return total
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

struct Options {
    var command = ""
    var scene = ""
    var stage = "composite"
    var threads = 1
    var warmup = 1
    var warmupFrames = 0
    var repeats = 5
    var stride = 1
    var clipScale = 1.0
    var crf = 18
    var preset = "medium"
    var work = NSTemporaryDirectory()
    var out = ""

    init(_ arguments: [String]) {
        var args = arguments[...]
        guard let command = args.popFirst() else { fail("usage: shiftrender-bench measure|dump|cores ...") }
        self.command = command
        while let flag = args.popFirst() {
            guard let value = args.popFirst() else { fail("\(flag) needs a value") }
            func int() -> Int {
                guard let n = Int(value) else { fail("\(flag): '\(value)' is not an integer") }
                return n
            }
            switch flag {
            case "--scene": scene = value
            case "--stage": stage = value
            case "--threads": threads = value == "all" ? onlineCores() : max(1, int())
            case "--warmup": warmup = max(0, int())
            case "--warmup-frames": warmupFrames = max(0, int())
            case "--repeats": repeats = max(1, int())
            case "--stride": stride = max(1, int())
            case "--clip-scale":
                guard let x = Double(value), x > 0 else { fail("--clip-scale: '\(value)' is not a positive number") }
                clipScale = x
            case "--crf": crf = int()
            case "--preset": preset = value
            case "--work": work = value
            case "--out": out = value
            default: fail("unknown option \(flag)")
            }
        }
    }
}

// MARK: - Loading

func loadTimeline(_ options: Options) -> (TransitionTimeline, loadSeconds: Double, timelineSeconds: Double) {
    guard !options.scene.isEmpty else { fail("--scene is required") }
    let t0 = now()
    let timeline: TransitionTimeline
    let t1: Double
    do {
        let document = try SceneJSON.read(fileAt: options.scene)
        var scene = document.scene
        if options.clipScale != 1 {
            // A longer clip of the same motion: for checking that memory stays flat in clip length.
            scene.transition.baselineDuration *= options.clipScale
        }
        t1 = now()
        timeline = try Renderer(scene: scene, document: document).timeline
    } catch {
        fail("\(error)")
    }
    let t2 = now()
    return (timeline, t1 - t0, t2 - t1)
}

// MARK: - Measuring

/// One timed run: the frames it covered, wall and CPU seconds, and bytes written (exports).
struct Run { var seconds: Double; var cpu: Double; var bytes: Int }

func measure(_ options: Options) {
    let (timeline, loadSeconds, timelineSeconds) = loadTimeline(options)
    let canvas = timeline.canvas
    let frames = Array(Swift.stride(from: 0, to: timeline.frameCount, by: options.stride))
    let threads = options.threads
    var setupSeconds = 0.0
    var engineFramesPerRun = 0
    var checksum = 0
    // A run covers `frames`; a warm-up run covers all of them, or only the
    // first `--warmup-frames` (a cheaper warm-up for the slow configurations).
    let runOnce: ([Int]) -> Run

    switch options.stage {
    case "engine":
        // Plans per second: the display list of every frame. With threads > 1,
        // frames are planned concurrently (displayList is a pure function of the index).
        // Planning a clip takes well under a millisecond, so a run plans it
        // `passes` times (enough for ~0.2 s) and counts every plan.
        let probe = now()
        for f in frames { checksum &+= timeline.displayList(frame: f).items.count }
        let passes = max(1, Int(0.2 / max(now() - probe, 1e-6)))
        engineFramesPerRun = frames.count * passes
        runOnce = { frames in
            let c0 = cpuTime(), t0 = now()
            var items = 0
            if threads == 1 {
                for _ in 0..<passes {
                    for f in frames { items += timeline.displayList(frame: f).items.count }
                }
            } else {
                let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: frames.count)
                counts.initialize(repeating: 0)
                let box = UncheckedBox(counts)
                for _ in 0..<passes {
                    DispatchQueue.concurrentPerform(iterations: threads) { worker in
                        var i = worker
                        while i < frames.count {
                            box.value[i] &+= timeline.displayList(frame: frames[i]).items.count
                            i += threads
                        }
                    }
                }
                items = counts.reduce(0, +)
                counts.deallocate()
            }
            let t1 = now(), c1 = cpuTime()
            checksum &+= items
            return Run(seconds: t1 - t0, cpu: c1 - c0, bytes: 0)
        }

    case "composite":
        let s0 = now()
        let renderer = FrameRenderer(plan: timeline, threads: threads)
        setupSeconds = now() - s0
        var target = Bitmap(width: canvas.pixelWidth, height: canvas.pixelHeight)
        runOnce = { frames in
            let c0 = cpuTime(), t0 = now()
            for f in frames { renderer.render(frame: f, into: &target) }
            let t1 = now(), c1 = cpuTime()
            checksum &+= Int(target.pixels[target.pixels.count / 2])
            return Run(seconds: t1 - t0, cpu: c1 - c0, bytes: 0)
        }

    case "png", "mp4":
        let s0 = now()
        let renderer = FrameRenderer(plan: timeline, threads: threads)
        setupSeconds = now() - s0
        let settings = VideoSettings(width: canvas.pixelWidth, height: canvas.pixelHeight,
                                     framesPerSecond: canvas.framesPerSecond,
                                     crf: options.crf, preset: options.preset, overwrite: true)
        let base = options.work + "/bench-\(options.stage)-\(getpid())"
        try? FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        var target = Bitmap(width: canvas.pixelWidth, height: canvas.pixelHeight)
        var counter = 0
        runOnce = { frames in
            counter += 1
            let path = options.stage == "png" ? base + "-\(counter)/" : base + "-\(counter).mp4"
            let c0 = cpuTime(), t0 = now()
            do {
                let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
                for f in frames {
                    renderer.render(frame: f, into: &target)
                    try encoder.append(target)
                }
                try encoder.finish()
            } catch {
                fail("\(options.stage) export failed: \(error)")
            }
            let t1 = now(), c1 = cpuTime()
            let bytes = directorySize(path)
            try? FileManager.default.removeItem(atPath: path)
            return Run(seconds: t1 - t0, cpu: c1 - c0, bytes: bytes)
        }

    default:
        fail("unknown stage '\(options.stage)' (engine, composite, png, mp4)")
    }

    let warmupFrames = options.warmupFrames > 0 ? Array(frames.prefix(options.warmupFrames)) : frames
    for _ in 0..<options.warmup { _ = runOnce(warmupFrames) }
    var runs: [Run] = []
    for _ in 0..<options.repeats { runs.append(runOnce(frames)) }

    let framesPerRun = options.stage == "engine" ? engineFramesPerRun : frames.count
    let fps = runs.map { Double(framesPerRun) / $0.seconds }.sorted()
    let median = fps.count % 2 == 1 ? fps[fps.count / 2] : (fps[fps.count / 2 - 1] + fps[fps.count / 2]) / 2
    var fields: [(String, String)] = [
        ("stage", jsonString(options.stage)),
        ("scene", jsonString(options.scene)),
        ("width", "\(canvas.pixelWidth)"), ("height", "\(canvas.pixelHeight)"),
        ("clip_frames", "\(timeline.frameCount)"), ("frames_per_run", "\(framesPerRun)"),
        ("stride", "\(options.stride)"), ("clip_scale", jsonNumber(options.clipScale)),
        ("threads", "\(threads)"), ("cores", "\(onlineCores())"),
        ("warmup", "\(options.warmup)"), ("warmup_frames", "\(warmupFrames.count)"), ("repeats", "\(options.repeats)"),
        ("fps_median", jsonNumber(median)), ("fps_min", jsonNumber(fps.first!)), ("fps_max", jsonNumber(fps.last!)),
        ("run_seconds", "[" + runs.map { jsonNumber($0.seconds) }.joined(separator: ", ") + "]"),
        ("run_cpu_seconds", "[" + runs.map { jsonNumber($0.cpu) }.joined(separator: ", ") + "]"),
        ("scene_load_seconds", jsonNumber(loadSeconds)), ("timeline_seconds", jsonNumber(timelineSeconds)),
        ("setup_seconds", jsonNumber(setupSeconds)),
        ("peak_rss_kib", procStatusKiB("VmHWM").map(String.init) ?? "null"),
        ("checksum", "\(checksum)"),
    ]
    if options.stage == "png" || options.stage == "mp4" {
        fields.append(("output_bytes", "\(runs.last!.bytes)"))
        if options.stage == "mp4" {
            fields.append(("crf", "\(options.crf)"))
            fields.append(("preset", jsonString(options.preset)))
        }
    }
    print("{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
}

/// Hands a buffer to concurrentPerform's closure; each worker writes its own indices.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

// MARK: - Dumping frames

func dump(_ options: Options) {
    guard !options.out.isEmpty else { fail("--out is required") }
    let (timeline, _, _) = loadTimeline(options)
    let renderer = FrameRenderer(plan: timeline, threads: options.threads)
    guard FileManager.default.createFile(atPath: options.out, contents: nil),
          let handle = FileHandle(forWritingAtPath: options.out) else { fail("cannot write \(options.out)") }
    var target = Bitmap(width: timeline.canvas.pixelWidth, height: timeline.canvas.pixelHeight)
    for f in Swift.stride(from: 0, to: timeline.frameCount, by: options.stride) {
        renderer.render(frame: f, into: &target)
        target.pixels.withUnsafeBytes { handle.write(Data($0)) }
    }
    try? handle.close()
    print("{\"width\": \(timeline.canvas.pixelWidth), \"height\": \(timeline.canvas.pixelHeight), "
        + "\"frames\": \(timeline.frameCount), \"fps\": \(jsonNumber(timeline.canvas.framesPerSecond))}")
}

// MARK: - Main

let options = Options(Array(CommandLine.arguments.dropFirst()))
switch options.command {
case "measure": measure(options)
case "dump": dump(options)
case "cores": print(onlineCores())
default: fail("unknown command '\(options.command)' (measure, dump, cores)")
}
