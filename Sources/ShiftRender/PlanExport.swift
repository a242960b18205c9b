import Compositor
import FramePlan
import Foundation
import OutputFiles
import PNGCodec
import Primitives

extension Renderer {
    /// Writes the frame plan into the folder `path`: every frame's display list
    /// (`plan.json`, streamed frame by frame, so memory stays flat in the clip's
    /// length) and each source image and rasterized snapshot once as a PNG
    /// (docs/frame-plan.md). The folder is created if needed; other files in it
    /// stay. With `overwrite`, an earlier plan's files there are replaced (and
    /// those it no longer needs removed); without, they make the export fail.
    /// Nothing appears unless the export completes. Returns warnings.
    @discardableResult
    public func exportPlan(
        to path: String, overwrite: Bool = false,
        cancellation: RenderCancellation? = nil
    ) throws(RenderError) -> [String] {
        try cancellation?.check()
        try refuseInputs(path)
        let files = PlanFiles(imageCount: timeline.images.count, snapshotCount: timeline.snapshots.count)
        let directory: AtomicOutput
        do {
            directory = try AtomicOutput(path: path, kind: .fileSet(files.fileSet), overwrite: overwrite)
        } catch {
            throw RenderError(error)
        }
        do {
            let compositor = try self.compositor()
            try PlanWriter(
                timeline: timeline, compositor: compositor, base: directory.temporaryPath, shownPath: path,
                cancellation: cancellation
            ).write()
            try directory.commit()
        } catch {
            // A full disk shows up as whatever write failed first; name the cause.
            let problem = directory.fileSystemProblem()
            directory.discard()
            if let error = error as? RenderError { throw error }
            if let error = error as? OutputError, error.kind == .stopped { throw RenderError(error) }
            throw RenderError(.output, problem.map { "cannot write '\(path)': \($0)" } ?? "\(error)")
        }
        return directory.warnings
    }
}

/// The files a frame plan is made of: `plan.json`, `images/image_NNNN.png`
/// and `snapshots/snapshot_NNNN.png` (four digits, more past 9999). Only
/// these are ever replaced or, when an earlier plan had more, removed.
struct PlanFiles {
    let imageCount: Int
    let snapshotCount: Int

    static let plan = "plan.json"

    static func image(_ index: Int) -> String { "images/image_\(fourDigits(index)).png" }
    static func snapshot(_ index: Int) -> String { "snapshots/snapshot_\(fourDigits(index)).png" }

    var fileSet: FileSet {
        FileSet(
            noun: "plan file", isMember: Self.isMember, folders: ["images", "snapshots"],
            expectedMembers: [Self.plan] + (0 ..< imageCount).map(Self.image) + (0 ..< snapshotCount).map(Self.snapshot),
            lastMembers: [Self.plan], earlierMembers: .removeWhenOverwriting)
    }

    /// True for exactly the names `image`, `snapshot` and `plan` give.
    static func isMember(_ path: String) -> Bool {
        path == plan || isNumbered(path, prefix: "images/image_") || isNumbered(path, prefix: "snapshots/snapshot_")
    }

    private static func isNumbered(_ path: String, prefix: String) -> Bool {
        guard path.hasPrefix(prefix), path.hasSuffix(".png") else { return false }
        let digits = path.dropFirst(prefix.count).dropLast(4)
        guard digits.count >= 4, digits.allSatisfy({ ("0" ... "9").contains($0) }) else { return false }
        return digits.count == 4 || digits.first != "0"
    }

    private static func fourDigits(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }
}

/// Streams plan.json frame by frame (memory stays flat in clip length) and
/// writes each source image and rasterized snapshot once as a PNG.
struct PlanWriter {
    let timeline: TransitionTimeline
    let compositor: FrameRenderer
    /// The folder written (the output's temporary one).
    let base: String
    /// The output as the user named it, for messages.
    let shownPath: String
    let cancellation: RenderCancellation?

    func write() throws {
        var header = "{\n  \"format\": \"shiftrender-frame-plan\",\n  \"version\": \(FramePlanFormat.version),\n"
        header += "  \"canvas\": \(FramePlanJSON.canvas(timeline.canvas)),\n  \"frameCount\": \(timeline.frameCount),\n"
        var images: [String] = []
        for (i, image) in timeline.images.enumerated() {
            let file = PlanFiles.image(i)
            try PNGCodec.encode(image, toFileAt: base + "/" + file)
            images.append("{\"index\": \(i), \"file\": \"\(file)\", \"width\": \(image.width), \"height\": \(image.height)}")
        }
        header += "  \"images\": [" + images.map { "\n    " + $0 }.joined(separator: ",") + (images.isEmpty ? "" : "\n  ") + "],\n"
        // The compositor rasterizes the snapshots exactly as it will sample them.
        var snapshots: [String] = []
        for (i, snapshot) in timeline.snapshots.enumerated() {
            let file = PlanFiles.snapshot(i)
            try cancellation?.check()
            try PNGCodec.encode(compositor.snapshotBitmap(i), toFileAt: base + "/" + file)
            snapshots.append(
                "{\"index\": \(i), \"name\": \(FramePlanJSON.string(snapshot.name)), \"file\": \"\(file)\", "
                    + "\"width\": \(snapshot.pixelWidth), \"height\": \(snapshot.pixelHeight), "
                    + "\"items\": \(FramePlanJSON.displayList(snapshot.content, indent: "    "))}")
        }
        header += "  \"snapshots\": [" + snapshots.map { "\n    " + $0 }.joined(separator: ",") + (snapshots.isEmpty ? "" : "\n  ") + "],\n"
        header += "  \"frames\": ["
        let planPath = base + "/" + PlanFiles.plan
        guard FileManager.default.createFile(atPath: planPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: planPath)
        else {
            throw PlanWriteError(description: "cannot write '\(shownPath)': cannot create \(PlanFiles.plan)")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(header.utf8))
        for index in 0 ..< timeline.frameCount {
            try cancellation?.check()
            let time = Double(index) / timeline.canvas.framesPerSecond
            let list = FramePlanJSON.displayList(timeline.displayList(frame: index), indent: "    ")
            let entry =
                (index == 0 ? "\n" : ",\n") + "    {\"index\": \(index), \"time\": \(FramePlanJSON.number(time)), \"items\": \(list)}"
            try handle.write(contentsOf: Data(entry.utf8))
        }
        try handle.write(contentsOf: Data("\n  ]\n}\n".utf8))
    }
}

struct PlanWriteError: Error, CustomStringConvertible {
    let description: String
}
