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

private final class ReportCount: Sendable {
    private let count = Mutex(0)
    func add() -> Int { count.withLock { $0 += 1; return $0 } }
}
