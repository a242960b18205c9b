import Foundation
import Primitives

/// A fresh directory under the system temporary directory, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("shiftrender-encoders-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// Names in a directory, sorted, hidden ones included.
func contents(of directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

struct ProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: String
}

/// Runs a tool to completion, with `environment` added to this process's.
/// Output goes through temporary files, so a chatty tool cannot block on a full pipe.
func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    try withTemporaryDirectory { scratch in
        let outPath = scratch + "/stdout"
        let errPath = scratch + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
    }
}

struct ToolFailed: Error, CustomStringConvertible {
    var description: String
}

/// ffprobe's view of the first video stream and the container.
struct ProbeResult {
    var stream: [String: Any]
    var format: [String: Any]

    func string(_ key: String) -> String? { stream[key] as? String }
    func int(_ key: String) -> Int? {
        if let n = stream[key] as? Int { return n }
        return (stream[key] as? String).flatMap { Int($0) }
    }
    var duration: Double? { (format["duration"] as? String).flatMap { Double($0) } }
    /// A stream tag, case-insensitively (WebM writes ALPHA_MODE, ffprobe may lower it).
    func tag(_ key: String) -> String? {
        let tags = stream["tags"] as? [String: Any] ?? [:]
        return tags.first { $0.key.lowercased() == key.lowercased() }?.value as? String
    }
}

/// `inputOptions` go before the input, e.g. `["-c:v", "libvpx-vp9"]` to
/// decode VP9 with its alpha, or `["-f", "image2"]` for a PNG pattern.
func probe(_ path: String, inputOptions: [String] = []) throws -> ProbeResult {
    let result = try run(
        "/usr/bin/ffprobe",
        [
            "-v", "error", "-select_streams", "v:0", "-count_frames",
            "-show_entries",
            "stream=codec_name,profile,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,"
                + "color_space,color_primaries,color_transfer,color_range:stream_tags:format=duration",
            "-of", "json",
        ] + inputOptions + [path])
    guard result.status == 0 else { throw ToolFailed(description: "ffprobe failed: \(result.stderr)") }
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    let streams = json["streams"] as? [[String: Any]] ?? []
    guard let stream = streams.first else { throw ToolFailed(description: "ffprobe found no video stream") }
    return ProbeResult(stream: stream, format: json["format"] as? [String: Any] ?? [:])
}

/// Decodes a video to packed RGB24 frames with FFmpeg (BT.709, limited range,
/// as the file is tagged).
func decodeRGB(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
    try withTemporaryDirectory { scratch in
        let raw = scratch + "/frames.rgb"
        let result = try run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-i", path,
                "-vf", "scale=in_color_matrix=bt709:in_range=tv:out_range=pc",
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw,
            ])
        guard result.status == 0 else { throw ToolFailed(description: "ffmpeg failed: \(result.stderr)") }
        let bytes = try fileBytes(raw)
        let frameSize = width * height * 3
        guard frameSize > 0, bytes.count % frameSize == 0 else {
            throw ToolFailed(description: "decoded \(bytes.count) bytes, not a multiple of \(frameSize)")
        }
        return stride(from: 0, to: bytes.count, by: frameSize).map { Array(bytes[$0 ..< ($0 + frameSize)]) }
    }
}

/// Decodes a video to raw frames of `pixelFormat` ("rgba", "rgb24"), the
/// decoder chosen by `inputOptions` (`["-c:v", "libvpx-vp9"]` keeps VP9's alpha).
func decodeRaw(
    _ path: String, pixelFormat: String, bytesPerPixel: Int, width: Int, height: Int,
    inputOptions: [String] = [], filter: String? = nil
) throws -> [[UInt8]] {
    try withTemporaryDirectory { scratch in
        let raw = scratch + "/frames.raw"
        let result = try run(
            "/usr/bin/ffmpeg",
            ["-v", "error"] + inputOptions + ["-i", path]
                + (filter.map { ["-vf", $0] } ?? [])
                + ["-f", "rawvideo", "-pix_fmt", pixelFormat, "-y", raw])
        guard result.status == 0 else { throw ToolFailed(description: "ffmpeg failed: \(result.stderr)") }
        let bytes = try fileBytes(raw)
        let frameSize = width * height * bytesPerPixel
        guard frameSize > 0, bytes.count % frameSize == 0 else {
            throw ToolFailed(description: "decoded \(bytes.count) bytes, not a multiple of \(frameSize)")
        }
        return stride(from: 0, to: bytes.count, by: frameSize).map { Array(bytes[$0 ..< ($0 + frameSize)]) }
    }
}

/// The packets' durations of a file's first video stream (for GIF: the
/// frame delays in 1/100 s).
func packetDurations(_ path: String) throws -> [Int] {
    let result = try run(
        "/usr/bin/ffprobe",
        [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration", "-of", "csv=p=0", path,
        ])
    guard result.status == 0 else { throw ToolFailed(description: "ffprobe failed: \(result.stderr)") }
    return String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { Int($0) }
}

/// Frames like a UI transition's: a soft gradient background, a white card
/// with grey "text" bars that slides and grows, and an accent-coloured disc
/// with an anti-aliased edge; translucent towards the top when `alpha`. Not
/// flat colour, so codec tests mean something.
func transitionLikeFrames(width: Int, height: Int, count: Int, alpha: Bool = false) -> [Bitmap] {
    (0 ..< count).map { index in
        var bitmap = Bitmap(width: width, height: height)
        let t = Double(index) / Double(max(1, count - 1))
        let cx = Double(width) * (0.25 + 0.5 * t)
        let cy = Double(height) * 0.62
        let radius = Double(height) * 0.18
        let card = (
            x0: Int(Double(width) * 0.08), x1: Int(Double(width) * (0.5 + 0.4 * t)),
            y0: height / 10, y1: Int(Double(height) * 0.42)
        )
        for y in 0 ..< height {
            for x in 0 ..< width {
                var r = 200 + 40 * Double(x) / Double(width)
                var g = 215 + 25 * Double(y) / Double(height)
                var b = 250 - 30 * Double(x + y) / Double(width + height)
                var a = alpha ? 0.35 + 0.65 * Double(y) / Double(height) : 1
                if x >= card.x0, x < card.x1, y >= card.y0, y < card.y1 {
                    (r, g, b, a) = (255, 255, 255, 1)
                    // Text lines: grey bars every 12 pixels inside the card.
                    let row = (y - card.y0) % 12
                    if (y - card.y0) >= 10, row < 5, x >= card.x0 + 10, x < card.x1 - 10 - ((y / 12) % 3) * 20 {
                        (r, g, b) = (60, 60, 67)
                    }
                }
                let dx = Double(x) + 0.5 - cx
                let dy = Double(y) + 0.5 - cy
                let coverage = min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                r = r * (1 - coverage) + 30 * coverage
                g = g * (1 - coverage) + 122 * coverage
                b = b * (1 - coverage) + 240 * coverage
                a = a * (1 - coverage) + coverage
                bitmap.setPixel(
                    x: x, y: y,
                    (
                        UInt8((r * a).rounded()), UInt8((g * a).rounded()),
                        UInt8((b * a).rounded()), UInt8((a * 255).rounded())
                    ))
            }
        }
        return bitmap
    }
}

/// Peak signal-to-noise ratio in dB between byte arrays of equal length.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    var squared = 0.0
    for i in a.indices {
        let d = Double(a[i]) - Double(b[i])
        squared += d * d
    }
    let mse = squared / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// The RGB triple at (x, y) of a packed RGB24 frame.
func rgb(_ frame: [UInt8], width: Int, x: Int, y: Int) -> (Int, Int, Int) {
    let i = (y * width + x) * 3
    return (Int(frame[i]), Int(frame[i + 1]), Int(frame[i + 2]))
}

func isClose(_ a: (Int, Int, Int), _ b: (Int, Int, Int), within tolerance: Int) -> Bool {
    abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
}

/// The four-character types of an ISO-BMFF file's top-level boxes, in order.
func topLevelBoxes(_ bytes: [UInt8]) -> [String] {
    var types: [String] = []
    var offset = 0
    func be(_ at: Int, _ count: Int) -> Int {
        (0 ..< count).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }
    while offset + 8 <= bytes.count {
        var size = be(offset, 4)
        types.append(String(decoding: bytes[(offset + 4) ..< (offset + 8)], as: UTF8.self))
        if size == 1, offset + 16 <= bytes.count { size = be(offset + 8, 8) }
        if size == 0 { size = bytes.count - offset }
        guard size >= 8 else { break }
        offset += size
    }
    return types
}

/// An opaque frame: left half `left`, right half `right`.
func splitFrame(width: Int, height: Int, left: (UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8)) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    for y in 0 ..< height {
        for x in 0 ..< width {
            let c = x < width / 2 ? left : right
            bitmap.setPixel(x: x, y: y, (c.0, c.1, c.2, 255))
        }
    }
    return bitmap
}

/// A valid premultiplied bitmap with many colours and alphas, including 0, 255 and in between.
func variedPremultipliedBitmap(width: Int, height: Int) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    var state: UInt32 = 12345
    func next() -> UInt8 {
        state = state &* 1_103_515_245 &+ 12345
        return UInt8(truncatingIfNeeded: state >> 16)
    }
    for y in 0 ..< height {
        for x in 0 ..< width {
            let alphas: [UInt8] = [0, 1, 2, 37, 128, 200, 254, 255]
            let a = (x + y) % 3 == 0 ? alphas[(x + y * 3) % alphas.count] : next()
            func channel() -> UInt8 { a == 0 ? 0 : UInt8(Int(next()) * Int(a) / 255) }
            bitmap.setPixel(x: x, y: y, (channel(), channel(), channel(), a))
        }
    }
    return bitmap
}

/// The largest per-byte difference between two bitmaps of equal size.
func maximumDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}
