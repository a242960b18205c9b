import Foundation
import OutputFiles
import ShiftRender
import Synchronization

/// One export at a time (MP4, GIF or a PNG folder) beside the scene file:
/// `<scene-name>.mp4`, `<scene-name>.gif`, `<scene-name>-frames/`, rendered
/// through `Renderer.render(to:...)` on a thread of its own, with progress
/// sent as `export` events.
///
/// Invariants: a second export while one runs is refused (409), not queued.
/// Nothing is replaced that the studio did not write (`ExportedFiles`): an
/// output that is already there, and is not what this studio exported,
/// is refused with `.outputExists` (the page asks the user) unless the
/// request says `replace`; the render runs with overwriting off, as the
/// command line does without -y, unless something of the studio's or a
/// confirmed file is there. An input of the scene is never replaced, even
/// then: refused here by device and inode, and again by the library.
/// The library writes each output under a temporary name and puts it in place
/// only when complete, so a cancelled export (the studio stopping) leaves
/// nothing behind. Progress events are at most ten a second, plus the stage
/// changes and the end, so a fast GIF does not flood the page.
final class StudioExport: Sendable {
    enum Format: String, CaseIterable, Sendable {
        case mp4, gif, png
    }

    private let running = Mutex<RenderCancellation?>(nil)
    private let exported = ExportedFiles()

    var isRunning: Bool { running.withLock { $0 != nil } }

    /// Where `format` goes for the scene at `scenePath`.
    static func outputPath(scenePath: String, format: Format) -> String {
        let url = URL(fileURLWithPath: scenePath)
        let base = url.deletingPathExtension().lastPathComponent
        let folder = url.deletingLastPathComponent().path
        switch format {
        case .mp4: return folder + "/" + base + ".mp4"
        case .gif: return folder + "/" + base + ".gif"
        case .png: return folder + "/" + base + "-frames/"
        }
    }

    /// Starts the export and returns its path; refused while another runs, when the
    /// output is an input of the scene, and when something the studio did not write is there and `replace` is false.
    func start(
        format: Format, renderer: Renderer, scenePath: String, replace: Bool = false,
        report: @escaping @Sendable (StudioEvent) -> Void
    ) -> Result<String, StudioRequestError> {
        let path = Self.outputPath(scenePath: scenePath, format: format)
        let target = format == .png ? String(path.dropLast()) : path
        if InputFiles(paths: renderer.inputFiles).contains(target) {
            return .failure(.conflict("'\(target)' is one of the scene's inputs; the studio never writes over it. Move it away"))
        }
        let cancellation = RenderCancellation()
        let started = running.withLock { running -> Bool in
            guard running == nil else { return false }
            running = cancellation
            return true
        }
        guard started else { return .failure(.conflict("an export is already running; wait for it to end")) }
        let occupied = ExportedFiles.isOccupied(target, folder: format == .png)
        guard !occupied || replace || exported.wrote(target) else {
            running.withLock { $0 = nil }
            return .failure(.outputExists(path: path))
        }
        let thread = Thread { [self] in
            let total = renderer.frameCount
            var lastSent = Date.distantPast
            var lastStage: RenderProgress.Stage?
            let outcome: StudioEvent.ExportProgress
            do {
                var settings = renderer.videoSettings()
                // What is there is the studio's own last export, or the user said to replace it.
                settings.overwrite = occupied
                try renderer.render(to: path, settings: settings, cancellation: cancellation) { progress in
                    let now = Date()
                    guard progress.stage != lastStage || now.timeIntervalSince(lastSent) >= 0.1 else { return }
                    lastSent = now
                    lastStage = progress.stage
                    report(.export(.init(format: format.rawValue, done: progress.framesDone, total: progress.frameCount)))
                }
                exported.record(target)
                outcome = .init(format: format.rawValue, done: total, total: total, path: path)
            } catch {
                outcome = .init(format: format.rawValue, done: 0, total: total, error: (error as? RenderError)?.message ?? "\(error)")
            }
            running.withLock { $0 = nil }
            report(.export(outcome))
        }
        thread.name = "studio export"
        thread.start()
        return .success(path)
    }

    /// Stops a running export; its output is not put in place.
    func cancel() {
        running.withLock { $0 }?.cancel()
    }
}
