import Foundation
@testable import OutputFiles

/// A fresh folder under the system temporary folder, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("shiftrender-outputs-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
    return try body(url.path)
}

/// Names in a folder, sorted, hidden ones included.
func contents(of directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

func makeFolder(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

func inode(_ path: String) -> UInt64? {
    FileStatus.entry(path).map { UInt64($0.info.st_ino) }
}

/// A file set of `*.txt` files and `sub/*.txt`, like a small plan.
func textFiles(
    expected: [String] = [], last: [String] = [], earlier: FileSet.EarlierMembers = .keep,
    folders: [String] = []
) -> FileSet {
    FileSet(
        noun: "text file", isMember: { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }, folders: folders,
        expectedMembers: expected, lastMembers: last, earlierMembers: earlier)
}

/// The output-files-probe executable built beside the test bundle.
func probeExecutable() -> String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("output-files-probe").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "output-files-probe"
}

/// A probe holding an output to `target` open, and the temporary path it printed.
func startProbe(_ kind: String, target: String) throws -> (Process, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: probeExecutable())
    process.arguments = [kind, target]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    var line = Data()
    while true {
        let byte = out.fileHandleForReading.readData(ofLength: 1)
        if byte.isEmpty || byte == Data("\n".utf8) { break }
        line += byte
    }
    return (process, String(decoding: line, as: UTF8.self))
}

/// Runs the probe to completion; its output lines.
func runProbe(_ mode: String, _ path: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: probeExecutable())
    process.arguments = [mode, path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// Runs `body` with a tmpfs of `kilobytes` mounted on a fresh folder; nil
/// when mounting is not possible here (not root, no mount(8)).
func withTinyFileSystem<T>(kilobytes: Int, _ body: (String) throws -> T) throws -> T? {
    try withTemporaryDirectory { dir in
        let mountPoint = dir + "/tiny"
        try makeFolder(mountPoint)
        guard command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", mountPoint]) == 0 else {
            return nil
        }
        defer { _ = command("/bin/umount", [mountPoint]) }
        return try body(mountPoint)
    }
}

@discardableResult
func command(_ executable: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
