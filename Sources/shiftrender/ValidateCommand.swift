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

    @Flag(help: "Warnings are errors: a scene with any is refused (exit 1).")
    var strict = false

    func run() throws {
        _ = try makeRenderer(scene, overrides: nil, quiet: quiet, strict: strict, restingJumps: true)
        print("\(scene): valid")
    }
}
