/// shiftrender: the command line on top of the pipeline
/// (scene -> engine -> frame plan -> compositor -> encoder).
///
/// It owns what a person sees: options, messages and exit codes (0 success,
/// 1 invalid scene, 2 usage, 3 input/output or encoder failure). Frames stream
/// from the compositor to the encoder one at a time, so memory does not grow
/// with the clip's length; any failure or interruption cancels the encoder,
/// which removes its temporary output.
import ArgumentParser

@main
struct ShiftRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shiftrender",
        abstract: "Render Shift-style UI transitions to video and image sequences.",
        discussion: """
            Examples:
              shiftrender scene.json -o out.mp4        H.264 MP4 video
              shiftrender scene.json -o frames/        one PNG per frame
              shiftrender validate scene.json          check a scene, list every problem
              shiftrender info scene.json              transient views, durations, frame count
              shiftrender plan scene.json -o plan/     the frame plan: display lists and bitmaps
              shiftrender verify scene.json --golden goldens/   compare frames with approved PNGs
              shiftrender join part1.mp4 part2.mp4 -o out.mp4    join chunks rendered with --frames

            Exit codes: 0 success, 1 invalid scene, 2 usage error, 3 input/output or encoder failure.
            """,
        subcommands: [
            RenderCommand.self, ValidateCommand.self, InfoCommand.self, PlanCommand.self, VerifyCommand.self,
            JoinCommand.self,
        ],
        defaultSubcommand: RenderCommand.self
    )

    /// Parses and runs, mapping argument errors to exit code 2 (ArgumentParser's default is 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                // One line like every other error; ArgumentParser's own form
                // ("Error: ... Usage: ...") would add the whole usage block.
                printError(message(for: error))
                exit(withError: ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}
