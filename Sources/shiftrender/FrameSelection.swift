import ArgumentParser
import TransitionEngine

/// Which frames a render writes: all of them, one still (`--at`, `--frame`) or
/// a range (`--frames A-B`, inclusive, so work can be split and joined).
struct FrameSelection: ParsableArguments {
    @Option(help: ArgumentHelp("Render one still PNG at this time in seconds.", valueName: "SECONDS"))
    var at: Double?

    @Option(help: ArgumentHelp("Render one still PNG of frame N (0-based).", valueName: "N"))
    var frame: Int?

    @Option(help: ArgumentHelp("Render frames A through B (0-based, inclusive), e.g. 0-59.", valueName: "A-B"))
    var frames: String?

    var isStill: Bool { at != nil || frame != nil }

    func validate() throws {
        let given = [at != nil, frame != nil, frames != nil].filter { $0 }.count
        if given > 1 { throw ValidationError("give only one of --at, --frame and --frames") }
        if let at, !(at.isFinite && at >= 0) { throw ValidationError("--at must be a time in seconds, 0 or more") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more") }
        if let frames { _ = try Self.parseRange(frames) }
    }

    static func parseRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a else {
            throw ValidationError("--frames must be A-B with 0 <= A <= B, e.g. 0-59")
        }
        return a...b
    }

    /// The frame indices to render, or a message when they fall outside the clip.
    func indices(frameCount: Int, fps: Double) -> Result<ClosedRange<Int>, SelectionError> {
        let last = frameCount - 1
        let length = String(format: "%.3f", Double(frameCount) / fps)
        if let at {
            let index = Int((at * fps).rounded())
            guard index <= last else {
                return .failure(SelectionError(description: "--at \(at) is past the end: the clip has \(frameCount) frames (\(length) s)"))
            }
            return .success(index...index)
        }
        if let frame {
            guard frame <= last else {
                return .failure(SelectionError(description: "--frame \(frame) is past the end: the clip has frames 0-\(last)"))
            }
            return .success(frame...frame)
        }
        if let frames, let range = try? Self.parseRange(frames) {
            guard range.upperBound <= last else {
                return .failure(SelectionError(description: "--frames \(frames) is past the end: the clip has frames 0-\(last)"))
            }
            return .success(range)
        }
        return .success(0...last)
    }

    struct SelectionError: Error, CustomStringConvertible { var description: String }
}
