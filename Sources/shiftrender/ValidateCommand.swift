import ArgumentParser
import SceneFormat

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scene file and report every problem with its place in the scene."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    func run() throws {
        _ = try loadScene(scene)
        print("\(scene): valid")
    }
}
