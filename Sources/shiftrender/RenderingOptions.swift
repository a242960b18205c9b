import ArgumentParser
import ShiftRender

/// How the renderer works, for every command that draws frames.
struct RenderingOptions: ParsableArguments {
    @Option(help: "Threads the compositor uses (default: all cores). The pixels are the same for any count.")
    var threads: Int?

    @Option(
        name: .customLong("memory-limit"),
        help: ArgumentHelp(
            "The most memory a render may need, by the estimate made before any work, e.g. 8G or 512M "
                + "(default: half of this machine's memory).", valueName: "SIZE"))
    var memoryLimit: String?

    func validate() throws {
        if let threads, !(1 ... 256).contains(threads) { throw ValidationError("--threads must be between 1 and 256") }
        if let memoryLimit, MemoryBudget.parse(memoryLimit) == nil {
            throw ValidationError("--memory-limit must be a size such as 8G, 512M or 2.5GB")
        }
    }

    var options: Renderer.Options {
        Renderer.Options(threads: threads, memoryLimit: memoryLimit.flatMap(MemoryBudget.parse))
    }
}
