import Foundation
import ShiftRender
import Synchronization

/// The watched scene: its last good version (document and renderers), a
/// version number that grows with each good save, and the error of the
/// latest save when it was invalid.
///
/// Invariants: `version` changes only when a save reads and plans without
/// errors, so every frame cached under a version shows that version; an
/// invalid save never replaces the last good renderers (the page keeps its
/// frames and shows the error beside them). Renderers for other directions
/// are made on first request and dropped with their version.
///
/// Thread-safe: the state sits behind a mutex; planning a scene (slow) happens
/// outside it, and a result made for a version that has since moved on is not kept.
public final class SceneSession: Sendable {
    public let path: String

    private struct Good {
        var document: SceneDocument
        var renderers: [SceneVariant: Renderer]
        var version: Int
    }

    private struct State {
        var good: Good?
        var error: SceneErrorReport?
        /// The scene file and what its last good version read (images, fonts).
        var watchedFiles: [String]
        /// Those files as they were just before the latest read: a save that lands
        /// during or after the read differs from these, so the watcher never misses it.
        var stampsAtRead: [String: SceneWatcher.Stamp] = [:]
    }

    private let state: Mutex<State>

    /// Reads and plans the scene. An invalid scene still makes a session (the
    /// page shows the error until a fixed save); a file that cannot be read at
    /// all does not, since there would be nothing to watch.
    public init(path: String) throws(StudioError) {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw StudioError.unreadableScene("cannot read '\(path)': no such file")
        }
        state = Mutex(State(good: nil, error: nil, watchedFiles: [path]))
        _ = reload()
    }

    /// The version frames come from (0 before the first good read).
    public var version: Int { state.withLock { $0.good?.version ?? 0 } }

    /// The latest save's error, nil when the latest save was good.
    public var error: SceneErrorReport? { state.withLock { $0.error } }

    /// Files whose change means a reload.
    var watchedFiles: [String] { state.withLock { $0.watchedFiles } }

    /// The watched files as the latest read found them (`SceneWatcher` compares with these).
    var stampsAtRead: [String: SceneWatcher.Stamp] { state.withLock { $0.stampsAtRead } }

    /// Reads the file again: a new version and a reload event when it is good,
    /// an error event (the last good version kept) when it is not.
    @discardableResult
    public func reload() -> StudioEvent {
        let before = SceneWatcher.stamps(of: watchedFiles)
        let outcome = Self.load(path)
        return state.withLock { state in
            defer {
                // Files the new version reads for the first time (a new image) are stamped now.
                state.stampsAtRead = before.filter { state.watchedFiles.contains($0.key) }
                for file in state.watchedFiles where state.stampsAtRead[file] == nil {
                    state.stampsAtRead[file] = SceneWatcher.Stamp(path: file)
                }
            }
            switch outcome {
            case .success(let (document, renderer)):
                let version = (state.good?.version ?? 0) + 1
                state.good = Good(document: document, renderers: [.asWritten: renderer], version: version)
                state.error = nil
                state.watchedFiles = Self.unique([path] + renderer.inputFiles)
                return .reload(.init(version: version, frameCount: renderer.frameCount, fps: renderer.framesPerSecond))
            case .failure(let report):
                state.error = report
                return .error(report)
            }
        }
    }

    /// What a page that connects now needs to know: the version it should show,
    /// then the error of the latest save if there is one.
    func currentEvents() -> [StudioEvent] {
        state.withLock { state in
            var events: [StudioEvent] = []
            if let good = state.good, let renderer = good.renderers[.asWritten] {
                events.append(.reload(.init(version: good.version, frameCount: renderer.frameCount, fps: renderer.framesPerSecond)))
            }
            if let error = state.error { events.append(.error(error)) }
            return events
        }
    }

    /// The renderer of the last good version played as `variant`, and that version.
    func renderer(for variant: SceneVariant) -> Result<(Renderer, Int), StudioRequestError> {
        let snapshot = state.withLock { state -> (Good?, SceneErrorReport?) in (state.good, state.error) }
        guard let good = snapshot.0 else {
            return .failure(.unavailable("the scene has errors and no good version yet: \(snapshot.1?.message ?? "unknown")"))
        }
        if let made = good.renderers[variant] { return .success((made, good.version)) }
        var scene = good.document.scene
        if let direction = variant.direction { scene.transition.direction = direction }
        let renderer: Renderer
        do {
            renderer = try Renderer(scene: scene, document: good.document, reversed: variant.reversed)
        } catch {
            return .failure(.badRequest(error.message))
        }
        state.withLock { state in
            if state.good?.version == good.version { state.good?.renderers[variant] = renderer }
        }
        return .success((renderer, good.version))
    }

    /// Reads and plans the file at `path` as written.
    private static func load(_ path: String) -> Result<(SceneDocument, Renderer), SceneErrorReport> {
        do {
            let document = try SceneJSON.read(fileAt: path)
            let renderer = try Renderer(scene: document.scene, document: document)
            return .success((document, renderer))
        } catch let error as SceneFileError {
            return .failure(SceneErrorReport(RenderError(.invalidScene, error.description, diagnostics: SceneDiagnostics(
                file: error.file, problems: error.problems))))
        } catch let error as RenderError {
            return .failure(SceneErrorReport(error))
        } catch {
            return .failure(SceneErrorReport(message: "\(error)", problems: []))
        }
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
