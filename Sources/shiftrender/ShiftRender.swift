/// shiftrender: the command line on top of the pipeline
/// (scene -> engine -> frame plan -> compositor -> encoder).
///
/// It owns what a person sees: options, messages and exit codes (0 success,
/// 1 invalid scene, 2 usage, 3 input/output or encoder failure, 128 + N on
/// signal N). Frames stream
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
              shiftrender scene.json -o back.mp4 --reverse   the way back (to -> from)
              shiftrender validate scene.json          check a scene, list every problem
              shiftrender info scene.json              phases and frames, transient views
              shiftrender info drag.json               a finger's drag: finish or cancel, and why
              shiftrender plan scene.json -o plan/     the frame plan: display lists and bitmaps
              shiftrender verify scene.json --golden goldens/   compare frames with approved PNGs
              shiftrender join part1.mp4 part2.mp4 -o out.mp4    join chunks rendered with --frames
              shiftrender studio scene.json --open     live preview in the browser, redrawn on each save

            Exit codes: 0 success, 1 invalid scene, 2 usage error, 3 input/output or encoder failure,
            128+N stopped by signal N.
            """,
        version: ToolVersion.current,
        subcommands: [
            RenderCommand.self, ValidateCommand.self, InfoCommand.self, PlanCommand.self, VerifyCommand.self,
            JoinCommand.self, StudioCommand.self,
        ],
        defaultSubcommand: RenderCommand.self
    )

    /// Installs the signal handlers, then parses and runs, so that every error
    /// reads as the tool's own: `shiftrender: error: <message>` on stderr, like
    /// every other message. ArgumentParser's errors (unknown option, missing
    /// argument, bad value, a failed `validate()`) are usage errors: the
    /// message, then the usage of the command they belong to, exit 2
    /// (ArgumentParser's default is 64; this tool documents 2). `--help` and
    /// `help` print ArgumentParser's text on stdout, exit 0. Every way out
    /// goes through `Interruption.exit`, so a signal that came before it ends
    /// the process with 128 + N and its message, whatever the command was doing.
    static func main() {
        // First of all: a signal in the first instant finds the handlers in place too.
        Interruption.install()
        // A server runs until stopped: for the studio a signal is its normal end.
        var signalEndsNormally = false
        do {
            var command = try parseAsRoot()
            signalEndsNormally = command is StudioCommand
            try command.run()
            Interruption.exit(.success, signalEndsNormally: signalEndsNormally)
        } catch let code as ExitCode {
            Interruption.exit(code, signalEndsNormally: signalEndsNormally)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else {
                let text = fullMessage(for: error)
                if !text.isEmpty { print(text) }
                Interruption.exit(code)
            }
            if code == .validationFailure {
                printError(sentence(message(for: error)))
                FileHandleStderr.write(usage(for: error))
                Interruption.exit(ExitStatus.usage)
            }
            // Anything else a command throws: its message in our form, its exit
            // code (an ExitCode thrown from validate() has no message).
            let text = message(for: error)
            if !text.isEmpty { printError(sentence(text)) }
            Interruption.exit(code, signalEndsNormally: signalEndsNormally)
        }
    }

    /// ArgumentParser's messages start with a capital ("Unknown option ..."),
    /// ours with a lower-case letter after `error:`.
    static func sentence(_ message: String) -> String {
        guard let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true else { return message }
        return first.lowercased() + message.dropFirst()
    }

    /// The "Usage: ..." part of ArgumentParser's full message for `error`: the
    /// usage of the command the error belongs to, and where its help is.
    static func usage(for error: Error) -> String {
        let full = fullMessage(for: error)
        guard let start = full.range(of: "Usage: ") else { return "" }
        let text = String(full[start.lowerBound...])
        return text.hasSuffix("\n") ? text : text + "\n"
    }
}
