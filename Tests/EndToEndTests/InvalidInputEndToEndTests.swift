import Foundation
import Testing

/// One case of fixtures/invalid/expected.json.
struct InvalidInputCase: CustomTestStringConvertible, Sendable {
    var file: String
    var exit: Int32
    var messages: [String]
    var output: String?
    var testDescription: String { file }

    static let directory = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/invalid")

    static let all: [InvalidInputCase] = {
        let url = directory.appendingPathComponent("expected.json")
        guard let data = try? Data(contentsOf: url),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = json["cases"] as? [[String: Any]]
        else { return [] }
        return cases.map {
            InvalidInputCase(
                file: $0["file"] as? String ?? "?", exit: Int32($0["exit"] as? Int ?? -1),
                messages: $0["messages"] as? [String] ?? [], output: $0["output"] as? String)
        }
    }()

    var scenePath: String { Self.directory.appendingPathComponent(file).path }
}

/// Every file in fixtures/invalid/ given to each command: the documented exit
/// status, one `shiftrender: error:` line per problem naming the file and the
/// place in the scene, no crash report, and the output path (and the
/// directory around it) exactly as it was.
@Suite struct InvalidInputEndToEndTests {
    typealias Case = InvalidInputCase

    /// Whether `line` reads `expected`, where "..." in `expected` stands for any text.
    static func line(_ line: String, matches expected: String) -> Bool {
        var rest = Substring(line)
        let parts = expected.components(separatedBy: "...")
        for (i, part) in parts.enumerated() {
            if i == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if i == parts.count - 1 {
                guard rest.hasSuffix(part) else { return false }
            } else {
                guard let found = rest.range(of: part) else { return false }
                rest = rest[found.upperBound...]
            }
        }
        return parts.count > 1 || rest.isEmpty
    }

    /// stderr is one `shiftrender: error:` line per expected message, each
    /// naming the scene, and nothing a crash would print.
    func expectMessages(
        _ result: CommandRunner.Result, _ c: Case, command: String, prefixedWithScene: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result.status == c.exit, "\(command) \(c.file): exit \(result.status), stderr:\n\(result.stderr)",
            sourceLocation: sourceLocation)
        for marker in ["Fatal error", "crashed", "Backtrac", "Stack dump", "Illegal instruction", "Segmentation", "panic"] {
            #expect(!result.stderr.contains(marker), "\(command) \(c.file) crashed:\n\(result.stderr)", sourceLocation: sourceLocation)
        }
        var lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        // A usage error found while reading the command line ends with the command's usage (two lines).
        if result.status == 2, lines.count >= 2, lines[lines.count - 2].hasPrefix("Usage: shiftrender "),
            lines[lines.count - 1].hasPrefix("  See 'shiftrender ")
        {
            lines.removeLast(2)
        }
        #expect(
            result.stderr.hasSuffix("\n"), "\(command) \(c.file): stderr does not end a line: \(result.stderr.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(
            lines.count == c.messages.count, "\(command) \(c.file): expected \(c.messages.count) error lines, got:\n\(result.stderr)",
            sourceLocation: sourceLocation)
        let prefix = "shiftrender: error: " + (prefixedWithScene ? "\(c.scenePath): " : "")
        for (line, expected) in zip(lines, c.messages) {
            #expect(
                line.hasPrefix(prefix) && Self.line(String(line.dropFirst(prefix.count)), matches: expected),
                "\(command) \(c.file):\n  got      \(line)\n  expected \(prefix)\(expected)", sourceLocation: sourceLocation)
        }
    }

    /// Every file under `url` with its bytes, to compare before and after.
    static func snapshot(_ url: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: url.path) else { return found }
        for case let name as String in walker {
            let path = url.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            found[name] =
                isDirectory.boolValue ? Data("<directory>".utf8) : (FileManager.default.contents(atPath: path) ?? Data("<unreadable>".utf8))
        }
        return found
    }

    /// Runs `body` with a fresh directory, then checks the directory and the
    /// fixtures are exactly as they were before the command ran.
    func inScratch(_ c: Case, prepare: (URL) throws -> Void = { _ in }, _ body: (URL) throws -> Void) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try prepare(dir)
        let before = Self.snapshot(dir)
        let fixturesBefore = Self.snapshot(Case.directory)
        try body(dir)
        let after = Self.snapshot(dir)
        #expect(after == before, "\(c.file): the output directory changed: before \(before.keys.sorted()), after \(after.keys.sorted())")
        #expect(Self.snapshot(Case.directory) == fixturesBefore, "\(c.file): something was written in fixtures/invalid")
    }

    @Test func theTableCoversEveryFileInTheCorpus() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Case.directory.path)
            .filter { ($0.hasSuffix(".json") || $0.hasSuffix(".bin")) && $0 != "expected.json" }
        #expect(Set(names) == Set(Case.all.map(\.file)))
        #expect(Case.all.count >= 40)
    }

    // MARK: Problems in the scene or its images

    static var sceneCases: [Case] { Case.all.filter { $0.output == nil } }

    @Test(arguments: sceneCases)
    func renderRefusesAndCreatesNothing(_ c: Case) throws {
        try inScratch(c) { dir in
            let result = try CommandRunner.shiftrender(c.scenePath, "-o", dir.appendingPathComponent("out.mp4").path)
            expectMessages(result, c, command: "render")
        }
    }

    @Test(arguments: sceneCases)
    func renderLeavesAnExistingOutputAsItWas(_ c: Case) throws {
        let precious = Data("precious bytes, not a video".utf8)
        try inScratch(
            c,
            prepare: { dir in
                try precious.write(to: dir.appendingPathComponent("out.mp4"))
                try FileManager.default.createDirectory(at: dir.appendingPathComponent("frames"), withIntermediateDirectories: false)
                try Data("old frame".utf8).write(to: dir.appendingPathComponent("frames/frame_0000.png"))
            }
        ) { dir in
            let video = try CommandRunner.shiftrender(c.scenePath, "-o", dir.appendingPathComponent("out.mp4").path)
            expectMessages(video, c, command: "render")
            let frames = try CommandRunner.shiftrender(c.scenePath, "-o", dir.appendingPathComponent("frames").path + "/", "--overwrite")
            expectMessages(frames, c, command: "render to frames/")
        }
    }

    @Test(arguments: sceneCases)
    func validateInfoAndPlanGiveTheSameAnswer(_ c: Case) throws {
        try inScratch(c) { dir in
            expectMessages(try CommandRunner.shiftrender("validate", c.scenePath), c, command: "validate")
            expectMessages(try CommandRunner.shiftrender("info", c.scenePath), c, command: "info")
            expectMessages(
                try CommandRunner.shiftrender("plan", c.scenePath, "-o", dir.appendingPathComponent("plan").path), c, command: "plan")
        }
    }

    // MARK: An output that cannot be written

    static var outputCases: [Case] { Case.all.filter { $0.output == "under-a-file" } }

    @Test(arguments: outputCases)
    func outputBelowARegularFileIsAnInputOutputError(_ c: Case) throws {
        let blocker = Data("a regular file where a directory should be".utf8)
        try inScratch(c, prepare: { dir in try blocker.write(to: dir.appendingPathComponent("afile")) }) { dir in
            let validate = try CommandRunner.shiftrender("validate", c.scenePath)
            #expect(validate.status == 0, "the scene itself is valid: \(validate.stderr)")
            let video = try CommandRunner.shiftrender(c.scenePath, "-o", dir.appendingPathComponent("afile/out.mp4").path)
            expectMessages(video, c, command: "render", prefixedWithScene: false)
            let frames = try CommandRunner.shiftrender(c.scenePath, "-o", dir.appendingPathComponent("afile/frames").path + "/")
            #expect(frames.status == 2, "\(frames.stderr)")
            #expect(frames.stderr.hasPrefix("shiftrender: error: ") && frames.stderr.contains("afile/frames"), "\(frames.stderr)")
            let plan = try CommandRunner.shiftrender("plan", c.scenePath, "-o", dir.appendingPathComponent("afile/plan").path)
            #expect(plan.status == 2, "\(plan.stderr)")
            #expect(plan.stderr.hasPrefix("shiftrender: error: ") && plan.stderr.contains("afile/plan"), "\(plan.stderr)")
        }
    }

    // MARK: The oversized PNG header

    /// The 69-byte PNG whose header claims 100000 x 100000 px (40 GB decoded)
    /// is refused from its header: the process never grows anywhere near that.
    @Test func hugePNGHeaderIsRefusedWithoutDecoding() throws {
        let c = try #require(Case.all.first { $0.file == "huge-png-header.json" })
        let png = Case.directory.appendingPathComponent("huge-header.png")
        #expect(try Data(contentsOf: png).count < 100)
        // /usr/bin/time reports the peak resident size of the command it runs.
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            expectMessages(try CommandRunner.shiftrender("validate", c.scenePath), c, command: "validate")
            return
        }
        let result = try CommandRunner.run(time, ["-f", "maxrss-kb=%M", CommandRunner.shiftrender, "validate", c.scenePath])
        #expect(result.status == 1)
        let peak = result.stderr.split(separator: "\n").first { $0.hasPrefix("maxrss-kb=") }.flatMap { Int($0.dropFirst(10)) }
        let kilobytes = try #require(peak, "\(result.stderr)")
        #expect(kilobytes < 200_000, "validate peaked at \(kilobytes) KB for a 69-byte PNG")
    }
}
