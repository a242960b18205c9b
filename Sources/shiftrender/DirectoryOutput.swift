import Foundation

/// A directory written under a temporary name beside its target and renamed
/// into place only when complete, so a failed or interrupted command leaves
/// nothing behind. An existing target must be empty, or hold an earlier
/// output of the same kind (recognised by `marker`) when `overwrite` is set.
final class DirectoryOutput {
    let target: String
    let temporary: String
    private let marker: String
    private let overwrite: Bool
    private var done = false

    init(target: String, marker: String, overwrite: Bool) throws {
        let fm = FileManager.default
        var trimmed = target
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.target = trimmed
        self.marker = marker
        self.overwrite = overwrite
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: trimmed, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputError("'\(trimmed)' exists and is not a directory") }
            let contents = (try? fm.contentsOfDirectory(atPath: trimmed)) ?? []
            if !contents.isEmpty && !(overwrite && contents.contains(marker)) {
                throw OutputError(overwrite
                    ? "'\(trimmed)' holds files that are not an earlier output; choose an empty or new directory"
                    : "'\(trimmed)' is not empty; use --overwrite to replace an earlier output, or choose a new directory")
            }
        }
        let parent = (trimmed as NSString).deletingLastPathComponent
        let name = (trimmed as NSString).lastPathComponent
        temporary = (parent.isEmpty ? "" : parent + "/") + ".\(name).partial-\(UUID().uuidString.prefix(8))"
        guard mkdir(temporary, 0o755) == 0 else {
            throw OutputError("cannot create '\(trimmed)': \(String(cString: strerror(errno)))")
        }
    }

    func path(_ relative: String) -> String { temporary + "/" + relative }

    func makeSubdirectory(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: path(name), withIntermediateDirectories: true)
    }

    func commit() throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
        guard rename(temporary, target) == 0 else {
            throw OutputError("cannot move the finished output into '\(target)': \(String(cString: strerror(errno)))")
        }
        done = true
    }

    func discard() {
        guard !done else { return }
        try? FileManager.default.removeItem(atPath: temporary)
        done = true
    }

    deinit { discard() }
}

struct OutputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
