import ArgumentParser
import SceneFormat
import TransitionEngine

/// Loads a scene for a subcommand, turning scene problems into exit code 1
/// (or 3 when the file itself cannot be read).
func loadScene(_ path: String) throws -> Scene {
    do {
        return try SceneLoader.load(fileAt: path)
    } catch {
        printError(error.description)
        throw error.kind == .unreadable ? ExitStatus.inputOutput : ExitStatus.invalidScene
    }
}

/// Loads a scene, applies the command-line overrides and plans it, refusing
/// (exit 1) a transition longer than the frame limit before any work.
func loadTimeline(_ path: String, overrides: SceneOverrides) throws -> TransitionTimeline {
    let scene = try overrides.apply(to: try loadScene(path))
    let timeline = TransitionTimeline(scene: scene)
    guard timeline.frameCount <= TransitionTimeline.maximumFrameCount else {
        printError("\(path): the transition makes \(timeline.frameCount) frames; the limit is \(TransitionTimeline.maximumFrameCount) (lower fps or the holds)")
        throw ExitStatus.invalidScene
    }
    return timeline
}
