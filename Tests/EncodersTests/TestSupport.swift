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

/// Runs a tool to completion. Output goes through temporary files, so a
/// chatty tool cannot block on a full pipe.
func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
    try withTemporaryDirectory { scratch in
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
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
}

func probe(_ path: String) throws -> ProbeResult {
    let result = try run("/usr/bin/ffprobe", [
        "-v", "error", "-select_streams", "v:0", "-count_frames",
        "-show_entries",
        "stream=codec_name,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,"
            + "color_space,color_primaries,color_transfer,color_range:format=duration",
        "-of", "json", path,
    ])
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
        let result = try run("/usr/bin/ffmpeg", [
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
        return stride(from: 0, to: bytes.count, by: frameSize).map { Array(bytes[$0..<($0 + frameSize)]) }
    }
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
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }
    while offset + 8 <= bytes.count {
        var size = be(offset, 4)
        types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
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
    for y in 0..<height {
        for x in 0..<width {
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
    for y in 0..<height {
        for x in 0..<width {
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
