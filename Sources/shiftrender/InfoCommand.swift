import ArgumentParser
import Foundation
import ShiftRender

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "List the transient views (matched pairs, unmatched views and their animations), durations and frame count."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @OptionGroup var overrides: SceneOverrides

    @Flag(help: "Print JSON for machines instead of text.")
    var json = false

    func run() throws {
        let summary = try makeRenderer(scene, overrides: overrides, quiet: true).summary
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(Self.text(summary), terminator: "")
        }
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f s", s) }

    static func text(_ summary: TransitionSummary) -> String {
        var out = "\(summary.pixelWidth) x \(summary.pixelHeight) px, \(summary.framesPerSecond) fps, "
            + "\(summary.frameCount) frames (\(seconds(summary.seconds)))\n"
        for segment in summary.segments {
            out += "\n\(segment.direction): \(seconds(segment.duration)) (its longest view)\n"
            let matched = segment.views.filter { $0.matchedWith != nil }
            let unmatched = segment.views.filter { $0.matchedWith == nil }
            if !matched.isEmpty {
                out += "  matched pairs:\n"
                for v in matched {
                    let pair = v.screen == "from" ? "\(v.path) -> \(v.matchedWith!)" : "\(v.matchedWith!) -> \(v.path)"
                    out += "    \"\(v.id ?? "")\": \(pair)  \(seconds(v.duration)), moves \(String(format: "%.1f", v.distance)) pt\n"
                }
            }
            out += "  unmatched views:\n"
            for v in unmatched {
                let label = v.name.map { "\(v.path) (\($0))" } ?? v.path
                var line = "    \(label)  \(seconds(v.duration))"
                if v.superview != "container" { line += ", in \(v.superview)" } else { line += ", in container" }
                if !v.animations.isEmpty { line += ", " + v.animations.joined(separator: ", ") }
                out += line + "\n"
            }
        }
        return out
    }
}
