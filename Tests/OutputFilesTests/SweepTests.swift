import Foundation
@testable import OutputFiles
import Testing

/// Temporaries of dead writers are removed by the next output to the same
/// target; those of live writers, whose lock cannot be taken, never are.
@Suite("Sweeping stale temporaries")
struct SweepTests {
    @Test("an unlocked leftover is swept when the same target is opened; other names stay")
    func leftoversSwept() throws {
        try withTemporaryDirectory { dir in
            let leftovers = [".out.mp4.partial-0000000abc", ".out.mp4.partial-k3x9"]
            for name in leftovers { try write("dead", to: dir + "/" + name) }
            try makeFolder(dir + "/.out.mp4.partial-dir0000000/sub")
            let strangers = [
                ".out.mp4.partial-abc.replaced", ".out.mp4.partial-ABC", ".other.mp4.partial-0000000abc",
                "out.mp4.partial-0000000abc",
            ]
            for name in strangers { try write("keep", to: dir + "/" + name) }
            let output = try AtomicOutput(path: dir + "/out.mp4", overwrite: false, inputs: InputFiles())
            let temporary = String(output.temporaryPath.dropFirst(dir.count + 1))
            #expect(try contents(of: dir) == (strangers + [temporary]).sorted())
        }
    }

    @Test("a partial whose lock is held (another open file description, same process) is not swept")
    func lockedNotSwept() throws {
        try withTemporaryDirectory { dir in
            let live = dir + "/.out.mp4.partial-0000000abc"
            try write("live", to: live)
            let descriptor = open(live, O_RDONLY)
            #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            _ = try AtomicOutput(path: dir + "/out.mp4", overwrite: false, inputs: InputFiles())
            #expect(FileManager.default.fileExists(atPath: live))
            close(descriptor)
            _ = try AtomicOutput(path: dir + "/out.mp4", overwrite: false, inputs: InputFiles())
            #expect(!FileManager.default.fileExists(atPath: live))
        }
    }

    @Test("two live outputs to one target keep their own temporaries")
    func concurrentWriters() throws {
        try withTemporaryDirectory { dir in
            let first = try AtomicOutput(path: dir + "/out.mp4", overwrite: true, inputs: InputFiles())
            try write("first", to: first.temporaryPath)
            // The same folder by another name, so the two temporaries' paths differ as strings.
            try FileManager.default.createSymbolicLink(atPath: dir + "/alias", withDestinationPath: ".")
            let second = try AtomicOutput(path: dir + "/alias/out.mp4", overwrite: true, inputs: InputFiles())
            #expect(FileManager.default.fileExists(atPath: first.temporaryPath))
            try write("second", to: second.temporaryPath)
            try first.commit()
            try second.commit()
            #expect(try text(dir + "/out.mp4") == "second")
            #expect(try contents(of: dir) == ["alias", "out.mp4"])
        }
    }

    @Test(
        "a writer killed with SIGKILL leaves a partial the next output sweeps, and not before",
        arguments: ["file", "folder"])
    func killedWriter(kind: String) throws {
        try withTemporaryDirectory { dir in
            let target = dir + (kind == "file" ? "/out.mp4" : "/frames")
            let set = textFiles()
            let open = { () throws -> AtomicOutput in
                kind == "file"
                    ? try AtomicOutput(path: target, overwrite: true, inputs: InputFiles())
                    : try AtomicOutput(path: target, kind: .fileSet(set), overwrite: true, inputs: InputFiles())
            }
            let (probe, temporary) = try startProbe(kind, target: target)
            defer { if probe.isRunning { kill(probe.processIdentifier, SIGKILL) } }
            #expect(temporary.hasPrefix(dir + "/."), "\(temporary)")
            #expect(FileManager.default.fileExists(atPath: temporary))

            try open().discard()
            #expect(FileManager.default.fileExists(atPath: temporary), "a live writer's partial stays")

            kill(probe.processIdentifier, SIGKILL)
            probe.waitUntilExit()
            #expect(FileManager.default.fileExists(atPath: temporary), "kill -9 leaves it")
            try open().discard()
            #expect(!FileManager.default.fileExists(atPath: temporary))
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test("a dead writer's temporary folder inside an existing target folder is swept; the folder's files stay")
    func insideFolderSwept() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/frames"
            try makeFolder(target)
            try write("frame", to: target + "/f0.txt")
            let (probe, temporary) = try startProbe("folder", target: target)
            defer { if probe.isRunning { kill(probe.processIdentifier, SIGKILL) } }
            #expect(temporary.hasPrefix(target + "/.new-files.partial-"), "\(temporary)")
            kill(probe.processIdentifier, SIGKILL)
            probe.waitUntilExit()
            #expect(try contents(of: temporary) == ["member.txt"])
            let output = try AtomicOutput(path: target, kind: .fileSet(textFiles()), overwrite: false, inputs: InputFiles())
            #expect(!FileManager.default.fileExists(atPath: temporary))
            output.discard()
            #expect(try contents(of: target) == ["f0.txt"])
        }
    }

    @Test("a leftover of a 255-byte target name is found and swept")
    func longNameSwept() throws {
        try withTemporaryDirectory { dir in
            let name = String(repeating: "n", count: 251) + ".gif"
            let (probe, temporary) = try startProbe("file", target: dir + "/" + name)
            #expect(temporary.utf8.count - dir.utf8.count - 1 <= 255)
            kill(probe.processIdentifier, SIGKILL)
            probe.waitUntilExit()
            #expect(FileManager.default.fileExists(atPath: temporary))
            try AtomicOutput(path: dir + "/" + name, overwrite: false, inputs: InputFiles()).discard()
            #expect(try contents(of: dir).isEmpty)
        }
    }
}
