import ArgumentParser
import ShiftRender

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Write the frame plan: every frame's display list (plan.json) and the bitmaps it samples (PNG).",
        discussion: "The format is documented in docs/frame-plan.md; another renderer can draw the same frames from it."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(
        name: [.short, .customLong("output")],
        help: "The directory to write (created if needed; other files in it stay).")
    var output: String

    @OptionGroup var overrides: SceneOverrides
    @OptionGroup(title: "Rendering") var rendering: RenderingOptions

    @Flag(
        name: [.customShort("y"), .long],
        help: "Replace the files of an earlier plan in the directory (plan.json, images/, snapshots/); nothing else.")
    var overwrite = false

    func validate() throws {
        try OutputPathCheck.check(output, option: "-o", detectFormat: false)
    }

    func run() throws {
        let interruption = Interruption()
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
        let warnings: [String]
        do throws(RenderError) {
            warnings = try renderer.exportPlan(to: output, overwrite: overwrite, cancellation: interruption.cancellation)
        } catch {
            throw ExitStatus.report(error, interruption: interruption)
        }
        if let exit = interruption.report() { throw exit }
        warnings.forEach(printWarning)
    }
}
