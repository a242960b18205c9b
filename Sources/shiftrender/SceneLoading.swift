import ArgumentParser
import SceneFormat

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
