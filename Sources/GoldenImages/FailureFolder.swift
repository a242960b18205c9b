import Foundation
import OutputFiles
import PNGCodec
import Primitives

#if canImport(Glibc)
import Glibc
#endif

/// The folder a mismatch's images go to, and the record of which of its
/// files golden checks wrote: a hidden `.shiftrender-failures.json` listing,
/// per golden folder, each file with its device, inode, size and time of
/// change.
///
/// Invariants: a file verify did not write (absent from the record, or
/// changed since: another inode, size or time) is never replaced or removed;
/// one it wrote is replaced by the next failure of the same name, and removed
/// when the checks against the same goldens pass (`removeEarlier`). Every
/// file appears by `AtomicOutput` (complete or not at all, never over an
/// input of the run). Runs sharing a folder update the record one at a time
/// (`flock` on the folder).
struct FailureFolder {
    static let recordName = ".shiftrender-failures.json"

    let path: String
    /// The files no image may be written over (the scene and its images).
    let inputs: InputFiles

    /// A written file as the record keeps it.
    struct Entry: Codable, Equatable {
        var file: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var changed: Int64
    }

    /// Golden folder (resolved) -> the files written for its checks.
    private typealias Record = [String: [Entry]]

    /// The key for checks against goldens in `goldenFolder`: its absolute path, standardized.
    static func key(goldenFolder: String) -> String {
        let absolute = goldenFolder.hasPrefix("/") ? goldenFolder : FileManager.default.currentDirectoryPath + "/" + goldenFolder
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Writes `bitmap` as the PNG `name`, recorded under `key`, and returns its path. Throws
    /// `OutputError` when a file of that name is there that verify did not write.
    func write(_ bitmap: Bitmap, name: String, key: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let target = (path as NSString).appendingPathComponent(name)
        let bytes = try PNGCodec.encode(bitmap)
        try updatingRecord { record in
            let ours = Self.entry(for: target, name: name).map { current in record.values.contains { $0.contains(current) } }
            if ours == false {
                throw OutputError(
                    .targetExists, path: target,
                    reason: "it is there and golden checks did not write it; move it, or give another folder for failures")
            }
            try AtomicOutput.writeFile(at: target, overwrite: ours == true, inputs: inputs) { temporary in
                try Self.writeBytes(bytes, to: temporary)
            }
            for other in record.keys { record[other]?.removeAll { $0.file == name } }
            if let written = Self.entry(for: target, name: name) { record[key, default: []].append(written) }
        }
        return target
    }

    /// Removes the files recorded under `key` that are still as written,
    /// except those named in `keeping`; forgets the rest of `key`'s entries.
    func removeEarlier(key: String, keeping: Set<String> = []) throws {
        guard FileManager.default.fileExists(atPath: path + "/" + Self.recordName) else { return }
        try updatingRecord { record in
            guard let entries = record[key] else { return }
            var kept: [Entry] = []
            for entry in entries {
                if keeping.contains(entry.file) {
                    kept.append(entry)
                } else if Self.entry(for: (path as NSString).appendingPathComponent(entry.file), name: entry.file) == entry {
                    unlink((path as NSString).appendingPathComponent(entry.file))
                }
            }
            record[key] = kept.isEmpty ? nil : kept
        }
    }

    /// Runs `body` on the record with the folder locked, then writes it back
    /// (or removes it when it lists nothing).
    private func updatingRecord(_ body: (inout Record) throws -> Void) throws {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw OutputError(.notWritable, path: path, reason: FileProblem.describe(errno: errno))
        }
        defer { close(folder) }
        while flock(folder, LOCK_EX) != 0 && errno == EINTR {}
        let recordPath = (path as NSString).appendingPathComponent(Self.recordName)
        let stored = try? Data(contentsOf: URL(fileURLWithPath: recordPath))
        // An unreadable record lists nothing: then no file counts as ours, and none is replaced or removed.
        var record = stored.flatMap { try? JSONDecoder().decode(Record.self, from: $0) } ?? [:]
        try body(&record)
        record = record.filter { !$0.value.isEmpty }
        if record.isEmpty {
            unlink(recordPath)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(record)
        try AtomicOutput.writeFile(at: recordPath, overwrite: true, inputs: inputs) { temporary in
            try Self.writeBytes(Array(data), to: temporary)
        }
    }

    /// The file at `target` as the record would list it; nil when there is no regular file.
    private static func entry(for target: String, name: String) -> Entry? {
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            // Anything else there (a link, a folder) is not ours: report it as a foreign file.
            return lstat(target, &info) == 0 ? Entry(file: name, device: 0, inode: 0, size: -1, changed: -1) : nil
        }
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        return Entry(
            file: name, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), changed: changed)
    }

    /// Writes into the temporary file itself: it holds the output's lock, so it must not be replaced.
    private static func writeBytes(_ bytes: [UInt8], to temporary: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        defer { try? handle.close() }
        try handle.write(contentsOf: bytes)
    }
}
