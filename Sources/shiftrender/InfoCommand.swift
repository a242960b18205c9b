import ArgumentParser
import Foundation
import ShiftRender

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Tell the whole clip: its frames phase by phase (holds, motion, pause; a finger's drag and why it finishes or "
            + "cancels), the transient views and durations."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @OptionGroup var overrides: SceneOverrides

    @Flag(help: "Print JSON for machines instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Print the clip split into N ranges for --frames, one a line, padded so they sort "
                + "(`info s.json --chunks 8 | parallel shiftrender s.json --frames {} -o parts/{}.mp4`).", valueName: "N"))
    var chunks: Int?

    @Flag(
        help: ArgumentHelp(
            "Print the peak memory each kind of output would need, by the estimate a render checks "
                + "against --memory-limit before any work (with the encoding and rendering options given)."))
    var memory = false

    @OptionGroup(title: "Rendering (with --memory)") var rendering: RenderingOptions
    @OptionGroup(title: "Encoding (with --memory)") var encoding: EncodingOptions

    func validate() throws {
        if let chunks, !(1 ... 100_000).contains(chunks) { throw ValidationError("--chunks must be between 1 and 100000") }
        if memory && chunks != nil { throw ValidationError("give --memory or --chunks, not both") }
    }

    func run() throws {
        if memory {
            let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: true)
            print(
                try MemoryReport(renderer, settings: encoding.settings(for: renderer.videoSettings())).text(json: json),
                terminator: "")
            return
        }
        if let chunks {
            let renderer = try makeRenderer(scene, overrides: overrides, quiet: true)
            for range in Self.split(frameCount: renderer.frameCount, into: chunks) {
                print(Self.padded(range.lowerBound) + "-" + Self.padded(range.upperBound))
            }
            return
        }
        let summary = try makeRenderer(scene, overrides: overrides, quiet: true).summary
        if json {
            print(try ReportJSON.text(summary), terminator: "")
        } else {
            print(Self.text(summary), terminator: "")
        }
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f s", s) }

    /// `frameCount` frames in `parts` consecutive ranges as even as can be (the
    /// first ones one frame longer), no more ranges than frames.
    static func split(frameCount: Int, into parts: Int) -> [ClosedRange<Int>] {
        let count = min(parts, frameCount)
        var ranges: [ClosedRange<Int>] = []
        var start = 0
        for k in 0 ..< count {
            let length = frameCount / count + (k < frameCount % count ? 1 : 0)
            ranges.append(start ... start + length - 1)
            start += length
        }
        return ranges
    }

    /// Five digits: every frame index of the longest clip (100 000 frames), so ranges sort as text.
    static func padded(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 5 - s.count)) + s
    }

    /// "0.476 s, standard", or "0.476 s from 0.100 s, spring(...)": how long, from when, on which curve.
    static func schedule(_ v: TransitionSummary.View) -> String {
        var text = seconds(v.duration)
        if v.delay > 0 { text += " from \(seconds(v.delay))" }
        text += ", \(v.curve)"
        if let arc = v.arc { text += ", arc \(arc == arc.rounded() ? String(Int(arc)) : String(arc))" }
        if !v.keyframes.isEmpty { text += ", keyframes: " + v.keyframes.joined(separator: " ") }
        return text
    }

    static func text(_ summary: TransitionSummary) -> String {
        var out =
            "\(summary.pixelWidth) x \(summary.pixelHeight) px, \(summary.framesPerSecond) fps, "
            + "\(summary.frameCount) frame\(summary.frameCount == 1 ? "" : "s") (\(seconds(summary.seconds)))\n"
        out += "\nframes:\n"
        let width = summary.phases.map(\.label.count).max() ?? 0
        for phase in summary.phases {
            let label = (phase.label + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0)
            var line = "  \(label)  \(phase.firstFrame)-\(phase.lastFrame)  (\(phase.frameCount) frame\(phase.frameCount == 1 ? "" : "s")"
            if let asked = phase.requestedSeconds { line += ", \(seconds(asked)) in the scene" }
            out += line + ")\n"
        }
        if let i = summary.interaction {
            let drag = summary.phases.first { $0.name == "drag" }
            let completion = summary.phases.first { $0.name == i.decision }
            let frames = { (p: TransitionSummary.Phase?) in p.map { "frames \($0.firstFrame)-\($0.lastFrame)" } ?? "no frames" }
            out += "\ninteraction (\(i.rule)): released at \(seconds(i.releaseTime)), p \(String(format: "%.3f", i.releaseProgress)), "
            out += "v \(String(format: "%.1f", i.releaseVelocity)) pt/s (\(i.velocitySource))\n"
            out += "  decision: \(i.decision), by \(i.reason)\n"
            out += "  drag: \(frames(drag)); \(i.decision): \(frames(completion)), \(seconds(i.completionSeconds))"
            out += " at speed \(String(format: "%.3f", i.completionSpeed))\n"
        }
        for segment in summary.segments {
            out += "\n\(segment.direction): \(seconds(segment.duration)) (until its last view ends); roots: \(segment.roots)\n"
            let matched = segment.views.filter { $0.matchedWith != nil }
            let unmatched = segment.views.filter { $0.matchedWith == nil }
            if !matched.isEmpty {
                out += "  matched pairs:\n"
                for v in matched {
                    let pair = v.screen == "from" ? "\(v.path) -> \(v.matchedWith!)" : "\(v.matchedWith!) -> \(v.path)"
                    out += "    \"\(v.id ?? "")\": \(pair)  \(schedule(v)), moves \(String(format: "%.1f", v.distance)) pt\n"
                }
            }
            out += "  unmatched views:\n"
            for v in unmatched {
                let label = v.name.map { "\(v.path) (\($0))" } ?? v.path
                var line = "    \(label)  \(schedule(v))"
                if v.superview != "container" { line += ", in \(v.superview)" } else { line += ", in container" }
                if !v.animations.isEmpty { line += ", " + v.animations.joined(separator: ", ") }
                out += line + "\n"
            }
        }
        return out
    }
}
