import ArgumentParser
import ShiftRender

struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join video chunks rendered with --frames into one file, by stream copy (no re-encoding).",
        discussion: """
            The parts must be .mp4, .mov or .webm chunks of one scene rendered with the same settings, given in order,
            with consecutive frame ranges (each chunk knows its range, its clip and its scene). The joined file holds
            exactly the chunks' packets, with evenly spaced timestamps.

            Examples:
              shiftrender scene.json --frames 0-299 -o part1.mp4
              shiftrender scene.json --frames 300-599 -o part2.mp4
              shiftrender join part1.mp4 part2.mp4 -o clip.mp4
            """
    )

    @Argument(help: "The chunks, in frame order.")
    var parts: [String]

    @Option(name: [.short, .customLong("output")], help: "The joined file (.mp4, .mov or .webm, as the parts).")
    var output: String

    @Flag(name: [.customShort("y"), .long], help: "Replace the output if it is already there.")
    var overwrite = false

    @Flag(help: "Do not print what was joined.")
    var quiet = false

    func validate() throws {
        guard !parts.isEmpty else { throw ValidationError("give the chunks to join") }
        try OutputPathCheck.check(output, option: "-o")
    }

    func run() throws {
        let interruption = Interruption()
        let joiner = VideoChunkJoiner(parts: parts, output: output, overwrite: overwrite)
        let label: VideoChunkLabel
        do {
            label = try interruption.cancellation.whileRunning(onCancel: { joiner.cancel() }) { try joiner.join() }
        } catch let error as EncoderError {
            if let exit = interruption.report() { throw exit }
            printError(error.description)
            throw error.kind == .cannotJoin ? ExitStatus.usage : ExitStatus.inputOutput
        }
        if let exit = interruption.report() { throw exit }
        if !quiet {
            let chunk = label.chunk
            print("\(output): \(chunk.rangeText) of \(chunk.clipFrameCount) from \(parts.count) part\(parts.count == 1 ? "" : "s")")
        }
    }
}
