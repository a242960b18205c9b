import Foundation
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress report on standard error (frames done of total, fps,
/// time left), redrawn in place. Silent when stderr is not a terminal or with
/// `--quiet`, so logs and pipes stay clean.
final class ProgressLine {
    private let enabled: Bool
    private let start = DispatchTime.now()
    private var lastDraw = DispatchTime(uptimeNanoseconds: 0)

    init(quiet: Bool) {
        self.enabled = !quiet && isatty(2) == 1
    }

    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        let now = DispatchTime.now()
        let done = progress.framesDone
        let total = progress.frameCount
        // A few redraws a second are enough and keep the terminal cheap.
        guard progress.stage != .frames || done == total || now.uptimeNanoseconds - lastDraw.uptimeNanoseconds > 100_000_000
        else { return }
        lastDraw = now
        switch progress.stage {
        case .preparing:
            FileHandleStderr.write("\r\u{1B}[Kpreparing")
        case .frames:
            let elapsed = Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            let fps = elapsed > 0 ? Double(done) / elapsed : 0
            let left = fps > 0 ? Double(total - done) / fps : 0
            FileHandleStderr.write(String(format: "\r\u{1B}[Kframe %d/%d  %.1f fps  %.1f s left", done, total, fps, left))
        case .finishing:
            FileHandleStderr.write("\r\u{1B}[Kframe \(done)/\(total)  finishing")
        }
    }

    func finish() {
        guard enabled else { return }
        FileHandleStderr.write("\r\u{1B}[K")
    }
}
