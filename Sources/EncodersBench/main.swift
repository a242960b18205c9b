// encoders-bench: encodes synthetic frames (gradients and a moving card) to
// one output and prints throughput, file size and peak memory on one line of
// key=value pairs. The memory tests run it as a child process, so that each
// measurement has a process of its own. `encoders-bench --help` lists the options.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Encoders
import Primitives

struct EncodersBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encoders-bench",
        abstract: "Encode synthetic frames and report fps, bytes and peak memory (VmHWM).")

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case mp4, mov, webm, gif, png

        /// What the output path ends with.
        var suffix: String { self == .png ? "/" : "." + rawValue }
    }

    /// "1920x1080".
    struct FrameSize: ExpressibleByArgument {
        var width: Int
        var height: Int

        init?(argument: String) {
            let sides = argument.split(separator: "x").compactMap { Int($0) }
            guard sides.count == 2, sides[0] > 0, sides[1] > 0 else { return nil }
            (width, height) = (sides[0], sides[1])
        }

        var defaultValueDescription: String { "\(width)x\(height)" }
    }

    @Option(help: "Output format.")
    var format: Format = .mp4

    @Option(help: "Frames to encode.")
    var frames = 60

    @Option(help: "Frame size, WIDTHxHEIGHT.")
    var size = FrameSize(argument: "1920x1080")!

    @Option(help: "Frames per second.")
    var fps = 60.0

    @Flag(help: "A translucent canvas (alpha kept where the format can).")
    var transparent = false

    @Option(help: "Encoder threads. Default: one per online core.")
    var threads: Int?

    @Option(name: .customLong("png-level"), help: "PNG compression level.")
    var pngLevel = VideoSettings.Defaults.pngCompressionLevel

    @Option(help: "x264 preset (also VP9's speed).")
    var preset = VideoSettings.Defaults.preset

    @Option(help: "GIF dithering.")
    var dither = GIFOptions.Defaults.dither

    @Option(name: .customLong("gif-width"), help: "Largest GIF width.")
    var gifWidth = GIFOptions.Defaults.maxWidth

    @Flag(help: "Hand frames over with append (a copy each) instead of exchange.")
    var copy = false

    @Option(
        name: .customLong("work-ms"),
        help: "CPU milliseconds spent per frame before handing it over, standing in for the compositor.")
    var workMilliseconds = 0.0

    @Option(help: "Where to write; the output is kept. Default: a file in /tmp, removed afterwards.")
    var out: String?

    func validate() throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
    }

    func run() throws {
        var settings = VideoSettings(
            width: size.width, height: size.height, framesPerSecond: fps, preset: preset,
            overwrite: true, background: transparent ? .clear : .black,
            pngCompressionLevel: pngLevel, encoderThreads: threads)
        settings.gif.dither = dither
        settings.gif.maxWidth = gifWidth
        let output = out ?? "/tmp/encoders-bench-\(getpid())\(format.suffix)"
        let frame = SyntheticFrames(width: size.width, height: size.height, transparent: transparent)

        var bitmap = Bitmap(width: size.width, height: size.height)
        let start = Self.now()
        do {
            let encoder = try OutputFormat.encoder(forOutputPath: output, settings: settings)
            for index in 0 ..< frames {
                frame.draw(index, into: &bitmap)
                let until = Self.now() + workMilliseconds / 1000
                while Self.now() < until {}
                if copy {
                    try encoder.append(bitmap)
                } else {
                    bitmap = try encoder.exchange(bitmap)
                }
            }
            try encoder.finish()
        } catch {
            print("error=\"\(error)\"")
            throw ExitCode.failure
        }
        let seconds = Self.now() - start
        print(
            "format=\(format.rawValue) size=\(size.width)x\(size.height) frames=\(frames)",
            "seconds=\(Self.rounded(seconds, 2)) fps=\(Self.rounded(Double(frames) / seconds, 1))",
            "bytes=\(Self.bytes(at: output)) vmhwm_kb=\(Self.peakMemoryKB())",
            "threads=\(threads ?? ProcessorCount.online) cores=\(ProcessorCount.online) output=\(output)")
        if out == nil { Self.remove(output) }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func rounded(_ value: Double, _ places: Int) -> String {
        let scale = Double([1, 10, 100, 1000][places])
        return String((value * scale).rounded() / scale)
    }

    /// The process's peak resident memory (VmHWM), or -1.
    static func peakMemoryKB() -> Int {
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

    /// Bytes of a file, or of every file in a directory.
    static func bytes(at path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        if info.st_mode & S_IFMT != S_IFDIR { return Int(info.st_size) }
        return names(in: path).reduce(0) { $0 + bytes(at: path + "/" + $1) }
    }

    static func remove(_ path: String) {
        for name in names(in: path) { unlink(path + "/" + name) }
        if rmdir(path) != 0 { unlink(path) }
    }

    static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

/// A still background (diagonal gradients, translucent when asked) and a
/// card that slides and grows over it.
struct SyntheticFrames {
    let width: Int
    let height: Int
    let background: Bitmap

    init(width: Int, height: Int, transparent: Bool) {
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let i = (y * width + x) * 4
                let a = transparent ? 64 + (x * 191) / max(1, width - 1) : 255
                let r = (x * 255) / max(1, width - 1)
                let g = (y * 255) / max(1, height - 1)
                let b = ((x + y) * 255) / max(1, width + height - 2)
                pixels[i] = UInt8(r * a / 255)
                pixels[i + 1] = UInt8(g * a / 255)
                pixels[i + 2] = UInt8(b * a / 255)
                pixels[i + 3] = UInt8(a)
            }
        }
        background = Bitmap(width: width, height: height, premultipliedPixels: pixels)!
    }

    func draw(_ index: Int, into frame: inout Bitmap) {
        frame.pixels.withUnsafeMutableBytes { target in
            background.pixels.withUnsafeBytes { target.copyMemory(from: $0) }
            let t = Double(index % 120) / 120
            let cardWidth = Int(Double(width) * (0.2 + 0.3 * t))
            let cardHeight = height / 3
            let left = Int(Double(width - cardWidth) * t)
            let top = height / 3
            let p = target.bindMemory(to: UInt8.self)
            for y in top ..< min(height, top + cardHeight) {
                for x in left ..< min(width, left + cardWidth) {
                    let i = (y * width + x) * 4
                    p[i] = 250
                    p[i + 1] = 250
                    p[i + 2] = UInt8(200 + index % 50)
                    p[i + 3] = 255
                }
            }
        }
    }
}

extension GIFDither: ExpressibleByArgument {}

EncodersBench.main()
