import Foundation

/// Where chromedriver and Chromium are on this machine. The browser tests
/// need both and fail (never skip) without them, so a machine that lacks them
/// cannot pass the suite by accident; CI installs them (scripts/install-deps.sh).
struct BrowserInstallation {
    var chromedriver: String
    var chromium: String

    static let installHint =
        "the studio's browser tests drive headless Chromium: install it with "
        + "`sudo apt-get install chromium chromium-driver` (or run scripts/install-deps.sh), "
        + "or point CHROMEDRIVER and CHROMIUM at your own"

    /// CHROMEDRIVER and CHROMIUM when set, else the usual names on PATH and Debian's paths.
    static func locate() throws -> BrowserInstallation {
        let environment = ProcessInfo.processInfo.environment
        func find(_ variable: String, _ names: [String]) throws -> String {
            if let given = environment[variable] {
                guard FileManager.default.isExecutableFile(atPath: given) else {
                    throw WebDriverError("\(variable)=\(given) is not an executable file; \(installHint)")
                }
                return given
            }
            let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/lib/chromium"]
            for name in names {
                for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                    return folder + "/" + name
                }
            }
            throw WebDriverError("\(names[0]) not found (looked for \(names.joined(separator: ", ")) on PATH); \(installHint)")
        }
        return BrowserInstallation(
            chromedriver: try find("CHROMEDRIVER", ["chromedriver"]),
            chromium: try find("CHROMIUM", ["chromium", "chromium-browser", "google-chrome"]))
    }
}

/// A fixture scene (the bundled example unless told) copied into a fresh
/// folder, scenes/ beside the images/ its ../images paths reach, so a test can
/// edit and break it without touching the repository. Removed when the value goes away.
final class SceneCopy {
    let folder: String
    let scenePath: String
    let original: String

    init(fixture: String = "fixtures/scenes/example-card.json") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shiftrender-studio-\(UUID().uuidString)").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/scenes", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
        for image in ["poster.png", "star.png"] {
            try manager.copyItem(atPath: Repository.path("fixtures/images/" + image), toPath: folder + "/images/" + image)
        }
        scenePath = folder + "/scenes/" + URL(fileURLWithPath: fixture).lastPathComponent
        original = try String(contentsOfFile: Repository.path(fixture), encoding: .utf8)
        try write(original)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Saves new contents as an editor would (the watcher sees a new mtime and size).
    func write(_ contents: String) throws {
        try contents.write(toFile: scenePath, atomically: true, encoding: .utf8)
    }

    /// The original with the first occurrence of `target` replaced; fails when it is not there,
    /// so a fixture change cannot turn an edit into a no-op.
    func edited(replacing target: String, with replacement: String) throws -> String {
        guard let range = original.range(of: target) else {
            throw WebDriverError("\(scenePath) no longer contains \(target)")
        }
        return original.replacingCharacters(in: range, with: replacement)
    }
}

/// A PNG's width and height from its IHDR chunk, or nil when the bytes are not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
    let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
}
