import ArgumentParser
import ShiftRender

/// Which frames a render writes: all of them, one still (`--at`, `--frame`,
/// `--progress`) or a range (`--frames A-B`, inclusive, so work can be split
/// and joined). Numbers take the next argument whatever it looks like, so
/// `--at -1` is refused with its range instead of as a missing value.
struct FrameSelection: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Render one still PNG at this time in seconds.", valueName: "SECONDS"))
    var at: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Render one still PNG of frame N (0-based).", valueName: "N"))
    var frame: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Render one still PNG of the transition at progress P (0...1), between frames too; for a scene a finger "
                + "drives (transition.interaction), what the screen shows while the finger holds it at P.",
            valueName: "P"))
    var progress: Double?

    @Option(help: ArgumentHelp("Render frames A through B (0-based, inclusive), e.g. 0-59.", valueName: "A-B"))
    var frames: String?

    var isStill: Bool { moment != nil }

    /// The still asked for, if any.
    var moment: Moment? {
        if let at { return .time(at) }
        if let frame { return .frame(frame) }
        if let progress { return .progress(progress) }
        return nil
    }

    /// Past the end of any clip (100 000 frames at 1 fps or more): checked before the scene is read only so
    /// that arithmetic on a moment stays finite. A moment past the end of this scene's clip is refused
    /// once it is read, with the clip's own range.
    static let latestTime = 1e6
    static let lastFrame = 10_000_000

    /// `--at` and `--frame` values in range, or a usage error that says the range and what was given.
    static func checkMoments(at times: [Double], frames: [Int]) throws {
        for time in times where !(time.isFinite && (0 ... latestTime).contains(time)) {
            throw ValidationError("--at must be a time in seconds from 0 to \(Int(latestTime)) (got \(time))")
        }
        for frame in frames where !(0 ... lastFrame).contains(frame) {
            throw ValidationError("--frame must be a frame number from 0 to \(lastFrame) (got \(frame))")
        }
    }

    /// The flag that names the still, for messages.
    var momentFlag: String { at != nil ? "--at" : frame != nil ? "--frame" : "--progress" }

    func validate() throws {
        let given = [at != nil, frame != nil, progress != nil, frames != nil].filter { $0 }.count
        if given > 1 { throw ValidationError("give only one of --at, --frame, --progress and --frames") }
        try Self.checkMoments(at: at.map { [$0] } ?? [], frames: frame.map { [$0] } ?? [])
        if let progress, !(progress.isFinite && (0 ... 1).contains(progress)) {
            throw ValidationError("--progress must be between 0 and 1 (got \(progress))")
        }
        if let frames { _ = try Self.parseRange(frames) }
    }

    static func parseRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a else {
            throw ValidationError("--frames must be A-B with 0 <= A <= B, e.g. 0-59")
        }
        return a ... b
    }

    /// The range given with `--frames`, if any (already validated).
    var range: ClosedRange<Int>? { frames.flatMap { try? Self.parseRange($0) } }
}
