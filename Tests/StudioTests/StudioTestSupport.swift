import Foundation
import ShiftRender
import Studio

/// Places in this repository, and a scratch copy of the bundled example
/// scene with its images (`../images/` beside it, as in fixtures/), which the
/// live tests rewrite.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static func path(_ relative: String) -> String { root + "/" + relative }
    static let exampleScene = path("fixtures/scenes/example-card.json")
}

final class ScratchScene {
    let folder: String
    let scenePath: String
    let original: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-tests-\(UUID().uuidString)").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/scenes", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
        for image in ["poster.png", "star.png"] {
            try fm.copyItem(atPath: Repository.path("fixtures/images/" + image), toPath: folder + "/images/" + image)
        }
        scenePath = folder + "/scenes/card.json"
        original = try String(contentsOfFile: Repository.exampleScene, encoding: .utf8)
        try write(original)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Rewrites the scene file in place, as an editor that does not rename does.
    func write(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scenePath), creatingIfMissing: true)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// The example with `old` replaced by `new` (which must be in it).
    func edited(_ old: String, _ new: String) throws -> String {
        guard original.contains(old) else { throw RawHTTPError(description: "the example scene no longer contains \(old)") }
        return original.replacingOccurrences(of: old, with: new)
    }
}

extension FileHandle {
    convenience init(forWritingTo url: URL, creatingIfMissing: Bool) throws {
        if creatingIfMissing, !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        try self.init(forWritingTo: url)
    }
}

/// A studio on a free port in a process of its own (`StudioProcess` says why),
/// stopped when the test lets go of it or calls `stop()`.
struct StartedStudio {
    let process: StudioProcess
    var port: Int { process.port }

    init(scene: String) async throws {
        process = try await StudioProcess(scene: scene)
    }

    func get(_ target: String, host: String? = "") async throws -> RawResponse {
        try await RawHTTP.get(target, port: port, host: host)
    }

    func stop() async { await process.stop() }

    /// The session token the studio wrote into its page (`<meta name="studio-token">`).
    func token() async throws -> String {
        let page = try await get("/").text
        guard let range = page.range(of: #"name="studio-token" content="([0-9a-f]{64})""#, options: .regularExpression) else {
            throw RawHTTPError(description: "the page has no session token")
        }
        return String(page[range].dropLast().suffix(64))
    }

    /// `POST /export?query` as the studio's page sends it: its Origin and the session's token.
    func export(_ query: String) async throws -> RawResponse {
        let headers = [("Origin", "http://127.0.0.1:\(port)"), ("X-Studio-Token", try await token())]
        return try await RawHTTP.request("POST", "/export?" + query, port: port, headers: headers)
    }
}

/// `info --json`'s bytes for a renderer: the encoder settings InfoCommand uses, and its newline.
func infoJSON(_ renderer: Renderer) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return Array(try encoder.encode(renderer.summary)) + Array("\n".utf8)
}
