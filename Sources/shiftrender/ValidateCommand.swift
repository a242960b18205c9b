import ArgumentParser
import ShiftRender

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scene file and report every problem with its place in the scene (exit 0 when it can be rendered)."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Flag(help: "No warnings.")
    var quiet = false

    func run() throws {
        _ = try makeRenderer(scene, overrides: nil, quiet: quiet)
        print("\(scene): valid")
    }
}
