// encoders-bench: encodes synthetic frames (gradients and moving shapes) to
// one output and prints throughput, file size and peak memory, one line of
// key=value pairs. The memory tests run it as a child process, so each
// measurement has a process of its own.
//
//   encoders-bench --format mp4|mov|webm|gif|png --frames N [--size 1920x1080]
//                  [--fps 60] [--transparent] [--threads N] [--png-level L]
//                  [--preset P] [--dither bayer|sierra|none] [--copy] [--out PATH]
//
// --copy hands frames over with append (a copy each) instead of exchange.
// --work-ms N spends N ms of CPU per frame before handing it over, standing in
// for the compositor, to show how much of the encoding overlaps it.
#if canImport(Glibc)
import Glibc
#endif
import Encoders
import Primitives

var options: [String: String] = [:]
var flags: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard argument.hasPrefix("--") else { fatalError("unexpected argument \(argument)") }
    let key = String(argument.dropFirst(2))
    if ["transparent", "copy"].contains(key) { flags.insert(key); continue }
    guard let value = arguments.popFirst() else { fatalError("\(argument) needs a value") }
    options[key] = value
}

let format = options["format"] ?? "mp4"
let frames = Int(options["frames"] ?? "60")!
let size = (options["size"] ?? "1920x1080").split(separator: "x").map { Int($0)! }
let (width, height) = (size[0], size[1])
let fps = Double(options["fps"] ?? "60")!
let transparent = flags.contains("transparent")

var settings = VideoSettings(width: width, height: height, framesPerSecond: fps,
                             background: transparent ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) : .black)
settings.overwrite = true
if let preset = options["preset"] { settings.preset = preset }
if let threads = options["threads"] { settings.encoderThreads = Int(threads)! }
if let level = options["png-level"] { settings.pngCompressionLevel = Int(level)! }
switch options["dither"] {
case "sierra": settings.gif.dither = .errorDiffusion
case "none": settings.gif.dither = .none
case let scale? where scale.hasPrefix("bayer"): settings.gif.dither = .bayer(scale: Int(scale.dropFirst(5)) ?? 3)
default: break
}
if let maxWidth = options["gif-width"] { settings.gif.maxWidth = Int(maxWidth)! }

let extensions = ["mp4": ".mp4", "mov": ".mov", "webm": ".webm", "gif": ".gif", "png": "/"]
let output = options["out"] ?? "/tmp/encoders-bench-\(getpid())\(extensions[format]!)"

/// A still background: diagonal gradients, translucent when asked.
func background() -> Bitmap {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let a = transparent ? UInt8(64 + (x * 191) / max(1, width - 1)) : 255
            let r = UInt8((x * 255) / max(1, width - 1)), g = UInt8((y * 255) / max(1, height - 1))
            let b = UInt8(((x + y) * 255) / max(1, width + height - 2))
            pixels[i] = UInt8(Int(r) * Int(a) / 255)
            pixels[i + 1] = UInt8(Int(g) * Int(a) / 255)
            pixels[i + 2] = UInt8(Int(b) * Int(a) / 255)
            pixels[i + 3] = a
        }
    }
    return Bitmap(width: width, height: height, premultipliedPixels: pixels)!
}

/// Frame `index`: the background and a card that slides and grows.
func draw(_ index: Int, base: Bitmap, into frame: inout Bitmap) {
    frame.pixels.withUnsafeMutableBytes { target in
        base.pixels.withUnsafeBytes { target.copyMemory(from: $0) }
        let t = Double(index % 120) / 120
        let cardWidth = Int(Double(width) * (0.2 + 0.3 * t)), cardHeight = height / 3
        let left = Int(Double(width - cardWidth) * t), top = height / 3
        let p = target.bindMemory(to: UInt8.self)
        for y in top..<min(height, top + cardHeight) {
            for x in left..<min(width, left + cardWidth) {
                let i = (y * width + x) * 4
                p[i] = 250; p[i + 1] = 250; p[i + 2] = UInt8(200 + index % 50); p[i + 3] = 255
            }
        }
    }
}

func peakMemoryKB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).trimmingPrefix(while: { $0 == " " || $0 == "\t" }).prefix { $0.isNumber }) ?? -1
        }
    }
    return -1
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func bytes(at path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else { return -1 }
    if info.st_mode & S_IFMT != S_IFDIR { return Int(info.st_size) }
    var total = 0
    if let directory = opendir(path) {
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { total += bytes(at: path + "/" + name) }
        }
        closedir(directory)
    }
    return total
}

let base = background()
var frame = Bitmap(width: width, height: height)
let start = now()
do {
    let encoder = try OutputFormat.encoder(forOutputPath: output, settings: settings)
    let workSeconds = Double(options["work-ms"] ?? "0")! / 1000
    for index in 0..<frames {
        draw(index, base: base, into: &frame)
        let until = now() + workSeconds
        var spin = 0
        while now() < until { spin &+= 1 }
        if flags.contains("copy") {
            try encoder.append(frame)
        } else {
            frame = try encoder.exchange(frame)
        }
    }
    try encoder.finish()
} catch {
    print("error=\"\(error)\"")
    exit(1)
}
let seconds = now() - start
func rounded(_ value: Double, _ places: Int) -> String {
    let scale = Double([1, 10, 100, 1000][places])
    return String((value * scale).rounded() / scale)
}
print("format=\(format) size=\(width)x\(height) frames=\(frames) seconds=\(rounded(seconds, 2))",
      "fps=\(rounded(Double(frames) / seconds, 1)) bytes=\(bytes(at: output))",
      "vmhwm_kb=\(peakMemoryKB()) output=\(output)")
if options["out"] == nil {
    if format == "png" { _ = system("rm -rf '\(output)'") } else { unlink(output) }
}
