import Foundation
import ShiftRender

/// `info --memory`: the estimate a render of each kind of output is checked
/// against before any work (`MemoryEstimate`), and the limit it must fit in.
/// docs/memory.md compares these figures with measured peaks.
struct MemoryReport {
    struct Row: Encodable {
        var output: String
        var bytes: Double
        var parts: [String: Double]
    }

    var limitBytes: Double
    var defaultLimit: Bool
    var rows: [Row] = []

    init(_ renderer: Renderer, settings: VideoSettings) throws {
        limitBytes = renderer.options.memoryLimit ?? MemoryBudget.defaultBytes
        defaultLimit = renderer.options.memoryLimit == nil
        func add(_ output: String, _ extra: MemoryEstimate) {
            let estimate = renderer.memoryEstimate(adding: extra)
            rows.append(
                Row(
                    output: output, bytes: estimate.total,
                    parts: Dictionary(estimate.parts.map { ($0.name, $0.bytes) }, uniquingKeysWith: +)))
        }
        add("still", MemoryEstimate())
        add("sheet", try renderer.contactSheetMemory())
        for format in [OutputFormat.pngSequence, .gif, .mp4, .webm, .mov] {
            add(format == .pngSequence ? "png" : format.rawValue, MemoryEstimate.encoder(format, settings: settings))
        }
    }

    static let labels = ["still": "still (.png)", "sheet": "--sheet", "png": "PNG frames (dir/)"]

    func text(json: Bool) throws -> String {
        if json {
            struct Document: Encodable {
                var limitBytes: Double
                var outputs: [Row]
            }
            return try ReportJSON.text(Document(limitBytes: limitBytes, outputs: rows))
        }
        var out =
            "Peak memory, estimated before any work (limit \(MemoryEstimate.format(limitBytes))"
            + (defaultLimit ? ", half of this machine's memory):\n" : "):\n")
        for row in rows {
            let label = Self.labels[row.output] ?? "." + row.output
            var estimate = MemoryEstimate()
            for (name, bytes) in row.parts { estimate.add(name, bytes) }
            let over = row.bytes > limitBytes ? "  over the limit" : ""
            out += "  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + estimate.description + over + "\n"
        }
        return out
    }
}
