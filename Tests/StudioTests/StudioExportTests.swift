import Foundation
import ShiftRender
import Synchronization
import Testing

@testable import Studio

/// One export at a time: a second start while one runs is refused with a
/// conflict (409 over HTTP) and leaves the first alone. The first is held at
/// its first progress report, so the refusal does not depend on how fast the
/// machine renders.
@Suite struct StudioExportTests {
    @Test func aSecondExportWhileOneRunsIsRefused() async throws {
        let scratch = try ScratchScene()
        let renderer = try Renderer(fileAt: scratch.scenePath)
        let export = StudioExport()
        let held = DispatchSemaphore(value: 0)
        let reachedFirstReport = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let reports = ReportCount()
        let first = export.start(format: .png, renderer: renderer, scenePath: scratch.scenePath) { event in
            let count = reports.add()
            if count == 1 {
                reachedFirstReport.signal()
                held.wait()
            }
            if case .export(let progress) = event, progress.path != nil || progress.error != nil { ended.signal() }
        }
        #expect(try first.get() == scratch.folder + "/scenes/card-frames/")
        try await RawHTTP.offPool { reachedFirstReport.wait() }
        #expect(export.isRunning)

        let second = export.start(format: .gif, renderer: renderer, scenePath: scratch.scenePath) { _ in }
        #expect(second == .failure(.conflict("an export is already running; wait for it to end")))
        #expect(!FileManager.default.fileExists(atPath: scratch.folder + "/scenes/card.gif"))

        held.signal()
        try await RawHTTP.offPool { ended.wait() }
        #expect(!export.isRunning)
        let written = try FileManager.default.contentsOfDirectory(atPath: scratch.folder + "/scenes/card-frames/")
        #expect(written.filter { $0.hasSuffix(".png") }.count == renderer.frameCount)
        // Once it has ended, the next export is accepted.
        let third = export.start(format: .gif, renderer: renderer, scenePath: scratch.scenePath) { event in
            if case .export(let progress) = event, progress.path != nil || progress.error != nil { ended.signal() }
        }
        #expect(try third.get() == scratch.folder + "/scenes/card.gif")
        try await RawHTTP.offPool { ended.wait() }
    }
}

/// What an export may replace: nothing the studio did not write unless told to (the page asks first), what
/// it wrote itself without asking, and an input of the scene never. Shown on the PNG folder, whose
/// export is the quickest; the HTTP tests show the same for a GIF.
@Suite struct StudioExportReplaceTests {
    /// Starts an export and waits for its end; the end's error, if any.
    static func run(
        _ export: StudioExport, _ renderer: Renderer, _ scenePath: String, replace: Bool = false
    ) async throws -> Result<String?, StudioRequestError> {
        let ended = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let started = export.start(format: .png, renderer: renderer, scenePath: scenePath, replace: replace) { event in
            guard case .export(let progress) = event, progress.path != nil || progress.error != nil else { return }
            failure.withLock { $0 = progress.error }
            ended.signal()
        }
        switch started {
        case .failure(let refusal): return .failure(refusal)
        case .success: break
        }
        try await RawHTTP.offPool { ended.wait() }
        return .success(failure.withLock { $0 })
    }

    @Test func aFolderTheStudioDidNotWriteIsReplacedOnlyWhenAsked() async throws {
        let scratch = try ScratchScene()
        let renderer = try Renderer(fileAt: scratch.scenePath)
        let folder = scratch.folder + "/scenes/card-frames"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let users = Data("the user's own frame".utf8)
        try users.write(to: URL(fileURLWithPath: folder + "/frame_00000.png"))
        let export = StudioExport()

        #expect(try await Self.run(export, renderer, scratch.scenePath) == .failure(.outputExists(path: folder + "/")))
        #expect(FileManager.default.contents(atPath: folder + "/frame_00000.png") == users)
        #expect(!export.isRunning)

        #expect(try await Self.run(export, renderer, scratch.scenePath, replace: true) == .success(nil))
        #expect(FileManager.default.contents(atPath: folder + "/frame_00000.png") != users)
        // Its own export the studio replaces without asking.
        #expect(try await Self.run(export, renderer, scratch.scenePath) == .success(nil))
        // Another studio (or this one after a restart) did not write it.
        #expect(try await Self.run(StudioExport(), renderer, scratch.scenePath) == .failure(.outputExists(path: folder + "/")))
    }

    @Test func anEmptyFolderOrNothingAtAllIsNotAskedAbout() async throws {
        let scratch = try ScratchScene()
        let renderer = try Renderer(fileAt: scratch.scenePath)
        try FileManager.default.createDirectory(atPath: scratch.folder + "/scenes/card-frames", withIntermediateDirectories: false)
        #expect(try await Self.run(StudioExport(), renderer, scratch.scenePath) == .success(nil))
    }

    @Test func anInputOfTheSceneIsNeverReplaced() async throws {
        let scratch = try ScratchScene()
        let renderer = try Renderer(fileAt: scratch.scenePath)
        // The frames folder is the scene's images folder.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.folder + "/scenes/card-frames", withDestinationPath: "../images/poster.png")
        let before = FileManager.default.contents(atPath: scratch.folder + "/images/poster.png")
        for replace in [false, true] {
            let refusal = try await Self.run(StudioExport(), renderer, scratch.scenePath, replace: replace)
            guard case .failure(.conflict(let message)) = refusal else {
                Issue.record("replace \(replace): \(refusal)")
                continue
            }
            #expect(message.contains("is one of the scene's inputs"))
        }
        #expect(FileManager.default.contents(atPath: scratch.folder + "/images/poster.png") == before)
    }
}

private final class ReportCount: Sendable {
    private let count = Mutex(0)
    func add() -> Int { count.withLock { $0 += 1; return $0 } }
}
