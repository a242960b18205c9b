import ArgumentParser
import ShiftRender

/// How the renderer works, for every command that draws frames. `--threads`
/// takes the next argument whatever it looks like, so `--threads -2` is
/// refused with its range instead of as a missing value.
struct RenderingOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Threads the compositor uses (default: all cores). The pixels are the same for any count.")
    var threads: Int?

    @Option(
        name: .customLong("memory-limit"),
        help: ArgumentHelp(
            "The most memory a render may need, by the estimate made before any work, e.g. 8G or 512M "
                + "(default: half of this machine's memory).", valueName: "SIZE"))
    var memoryLimit: String?

    /// The limits a memory limit may be given between: below a megabyte no frame fits, and above a
    /// thousand terabytes the number is a slip of the keyboard, not a budget (and would let anything through).
    static let memoryLimitRange = 1e6 ... 1e15
    static let memoryLimitRangeText = "1M and 1000T"

    func validate() throws {
        if let threads, !(1 ... 256).contains(threads) { throw ValidationError("--threads must be between 1 and 256 (got \(threads))") }
        if let memoryLimit {
            guard let bytes = MemoryBudget.parse(memoryLimit) else {
                throw ValidationError("--memory-limit must be a size such as 8G, 512M or 2.5GB (got '\(memoryLimit)')")
            }
            guard Self.memoryLimitRange.contains(bytes) else {
                throw ValidationError("--memory-limit must be between \(Self.memoryLimitRangeText) (got '\(memoryLimit)')")
            }
        }
    }

    var options: Renderer.Options {
        Renderer.Options(threads: threads, memoryLimit: memoryLimit.flatMap(MemoryBudget.parse))
    }
}
