import Encoders
import Foundation
import Primitives

/// One packet as ffprobe lists it, in decode order.
struct ProbedPacket: Equatable {
    var pts: Int
    var dts: Int
    var duration: Int
    var isKeyframe: Bool
}

/// The packets of a file's first video stream, in decode order, and its time base.
func probePackets(_ path: String) throws -> (packets: [ProbedPacket], timeBase: (Int, Int)) {
    let result = try run(
        "/usr/bin/ffprobe",
        [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base:packet=pts,dts,duration,flags",
            "-of", "json", path,
        ])
    guard result.status == 0 else { throw ToolFailed(description: "ffprobe failed: \(result.stderr)") }
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    let base = ((json["streams"] as? [[String: Any]])?.first?["time_base"] as? String ?? "")
        .split(separator: "/").compactMap { Int($0) }
    guard base.count == 2 else { throw ToolFailed(description: "no time base for \(path)") }
    let packets = (json["packets"] as? [[String: Any]] ?? []).map { packet in
        ProbedPacket(
            pts: packet["pts"] as? Int ?? Int.min, dts: packet["dts"] as? Int ?? Int.min,
            duration: packet["duration"] as? Int ?? 0,
            isKeyframe: (packet["flags"] as? String ?? "").hasPrefix("K"))
    }
    return (packets, (base[0], base[1]))
}

/// The container tags ffprobe shows, keys lower-cased (Matroska's are capitals).
func formatTags(_ path: String) throws -> [String: String] {
    let result = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
    guard result.status == 0 else { throw ToolFailed(description: "ffprobe failed: \(result.stderr)") }
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    let tags = (json["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
    return Dictionary(uniqueKeysWithValues: tags.map { ($0.key.lowercased(), $0.value) })
}

/// The MD5 of every packet's data, in decode order, as ffmpeg's framemd5
/// muxer computes it from a stream copy: the packets themselves, not frames.
func packetHashes(_ path: String) throws -> [String] {
    let result = try run(
        "/usr/bin/ffmpeg",
        [
            "-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy",
            "-f", "framemd5", "-",
        ])
    guard result.status == 0 else { throw ToolFailed(description: "ffmpeg failed: \(result.stderr)") }
    return String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
        .filter { !$0.hasPrefix("#") }
        .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
}

/// Encodes `frames[range]` as one labelled chunk of a clip of `frames.count` frames.
func encodeChunk(
    _ frames: [Bitmap], _ range: ClosedRange<Int>, to path: String, settings base: VideoSettings,
    digest: String = "sha256:0123abcd"
) throws {
    var settings = base
    settings.chunk = VideoChunk(
        firstFrame: range.lowerBound, frameCount: range.count, clipFrameCount: frames.count,
        sceneDigest: digest)
    let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
    for index in range { try encoder.append(frames[index]) }
    try encoder.finish()
}

/// Encodes `frames` whole, without a chunk label.
func encodeWhole(_ frames: [Bitmap], to path: String, settings: VideoSettings) throws {
    let encoder = try OutputFormat.encoder(forOutputPath: path, settings: settings)
    for frame in frames { try encoder.append(frame) }
    try encoder.finish()
}
