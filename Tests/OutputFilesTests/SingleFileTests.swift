import Foundation
@testable import OutputFiles
import Testing

/// One file: written beside its target, renamed over it; an existing target
/// needs overwriting allowed, and some never are replaced.
@Suite("Single files")
struct SingleFileTests {
    @Test("writes go to a locked temporary beside the target, which commit renames into place")
    func temporaryBesideTarget() throws {
        try withTemporaryDirectory { dir in
            let output = try AtomicOutput(path: dir + "/out.mp4", overwrite: false, inputs: InputFiles())
            #expect(output.temporaryPath.hasPrefix(dir + "/.out.mp4.partial-"))
            try write("new", to: output.temporaryPath)
            #expect(try contents(of: dir).count == 1)
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))
            try output.commit()
            #expect(try contents(of: dir) == ["out.mp4"])
            #expect(try text(dir + "/out.mp4") == "new")
            let again = #expect(throws: OutputError.self) { try output.commit() }
            #expect(again?.kind == .misuse)
        }
    }

    @Test("discard, and releasing an uncommitted output, leave nothing")
    func discardLeavesNothing() throws {
        try withTemporaryDirectory { dir in
            let output = try AtomicOutput(path: dir + "/a.gif", overwrite: false, inputs: InputFiles())
            try write("partial", to: output.temporaryPath)
            output.discard()
            output.discard()
            #expect(try contents(of: dir).isEmpty)
            do {
                let released = try AtomicOutput(path: dir + "/b.gif", overwrite: false, inputs: InputFiles())
                try write("partial", to: released.temporaryPath)
            }
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test("an existing file is refused unless overwriting; then it is replaced by one rename")
    func existingFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            try write("earlier", to: path)
            let refused = #expect(throws: OutputError.self) {
                try AtomicOutput(path: path, overwrite: false, inputs: InputFiles())
            }
            #expect(refused?.kind == .targetExists)
            #expect(
                refused?.description == "cannot write '\(path)': it already exists; "
                    + "allow overwriting (--overwrite) to replace it, or choose another name")
            #expect(try contents(of: dir) == ["out.mp4"])

            let output = try AtomicOutput(path: path, overwrite: true, inputs: InputFiles())
            try write("new", to: output.temporaryPath)
            let newInode = inode(output.temporaryPath)
            #expect(try text(path) == "earlier", "untouched until commit")
            try output.commit()
            #expect(try text(path) == "new")
            #expect(inode(path) == newInode, "renamed over, not rewritten in place")
            #expect(try contents(of: dir) == ["out.mp4"])
        }
    }

    @Test("a file that appears while writing is not overwritten")
    func appearsWhileWriting() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/out.mp4"
            let output = try AtomicOutput(path: path, overwrite: false, inputs: InputFiles())
            try write("new", to: output.temporaryPath)
            try write("someone else's", to: path)
            let error = #expect(throws: OutputError.self) { try output.commit() }
            #expect(error?.kind == .targetExists)
            #expect(try text(path) == "someone else's")
            #expect(try contents(of: dir) == ["out.mp4"])
        }
    }

    @Test("a read-only file is refused even when overwriting")
    func readOnlyFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/still.png"
            try write("keep me", to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            let error = #expect(throws: OutputError.self) {
                try AtomicOutput(path: path, overwrite: true, inputs: InputFiles())
            }
            #expect(error?.kind == .readOnly)
            #expect(error?.reason == "'\(path)' is read-only")
            #expect(try text(path) == "keep me")
            #expect(try contents(of: dir) == ["still.png"])
        }
    }

    @Test("a directory, a FIFO, a device at the target are named as such")
    func wrongTypes() throws {
        try withTemporaryDirectory { dir in
            try makeFolder(dir + "/clip.mp4")
            let folder = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/clip.mp4", overwrite: true, inputs: InputFiles())
            }
            #expect(folder?.reason == "it is a directory; name a file to write")

            #expect(mkfifo(dir + "/pipe.gif", 0o644) == 0)
            let fifo = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/pipe.gif", overwrite: true, inputs: InputFiles())
            }
            #expect(fifo?.reason == "'\(dir)/pipe.gif' is a FIFO, not a regular file")

            let device = #expect(throws: OutputError.self) {
                try AtomicOutput(path: "/dev/null", overwrite: true, inputs: InputFiles())
            }
            #expect(device?.reason == "'/dev/null' is a character device, not a regular file")
            #expect(try contents(of: dir) == ["clip.mp4", "pipe.gif"])
        }
    }

    @Test("a missing folder and a path through a file are named")
    func missingFolderAndFileInPath() throws {
        try withTemporaryDirectory { dir in
            let missing = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/nope/out.mp4", overwrite: false, inputs: InputFiles())
            }
            #expect(missing?.reason == "the directory '\(dir)/nope' does not exist")

            try write("x", to: dir + "/afile")
            let through = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/afile/deeper/out.mp4", overwrite: false, inputs: InputFiles())
            }
            #expect(through?.reason == "'\(dir)/afile' is not a directory")
            #expect(try contents(of: dir) == ["afile"])
        }
    }

    @Test("a 255-byte name gets a temporary name within NAME_MAX; a longer name is refused")
    func longNames() throws {
        try withTemporaryDirectory { dir in
            // 2-byte characters, so the cut must respect UTF-8 boundaries.
            let name = String(repeating: "é", count: 125) + "x.mp4"
            #expect(name.utf8.count == 255)
            let output = try AtomicOutput(path: dir + "/" + name, overwrite: false, inputs: InputFiles())
            let temporaryName = String(output.temporaryPath.dropFirst(dir.count + 1))
            #expect(temporaryName.utf8.count <= 255)
            #expect(TemporaryName.matches(temporaryName, stem: TemporaryName.stem(for: name)))
            try write("long", to: output.temporaryPath)
            try output.commit()
            #expect(try text(dir + "/" + name) == "long")

            let tooLong = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/" + name + "4", overwrite: false, inputs: InputFiles())
            }
            #expect(tooLong?.reason.contains("256 bytes long; file systems take at most 255") == true)
        }
    }

    @Test("the stem of a long name is deterministic, distinct per name, and cut on a character boundary")
    func stems() {
        let short = "out.mp4"
        #expect(TemporaryName.stem(for: short) == short)
        let a = String(repeating: "a", count: 240) + "1.mp4"
        let b = String(repeating: "a", count: 240) + "2.mp4"
        #expect(TemporaryName.stem(for: a) == TemporaryName.stem(for: a))
        #expect(TemporaryName.stem(for: a) != TemporaryName.stem(for: b))
        for name in [a, String(repeating: "日", count: 85), String(repeating: "🎬", count: 63)] {
            let stem = TemporaryName.stem(for: name)
            let made = TemporaryName.make(stem: stem)
            #expect(made.utf8.count <= 255, "\(made.utf8.count)")
            let kept = stem.split(separator: "~").first.map(String.init) ?? ""
            #expect(name.hasPrefix(kept) && !stem.contains("\u{FFFD}"), "cut between characters: \(stem)")
            #expect(TemporaryName.matches(made, stem: stem))
        }
        #expect(!TemporaryName.matches(".out.mp4.partial-UPPER", stem: "out.mp4"))
        #expect(!TemporaryName.matches(".out.mp4.partial-", stem: "out.mp4"))
        #expect(!TemporaryName.matches(".out.mp4.partial-abc.replaced", stem: "out.mp4"))
        #expect(!TemporaryName.matches(".xout.mp4.partial-abc", stem: "out.mp4"))
    }

    @Test("writeFile commits what the closure wrote, and leaves the target alone when it throws")
    func writeFileHelper() throws {
        struct Failure: Error {}
        try withTemporaryDirectory { dir in
            let path = dir + "/sheet.png"
            try AtomicOutput.writeFile(at: path, overwrite: false, inputs: InputFiles()) { try write("one", to: $0) }
            #expect(try text(path) == "one")
            #expect(throws: OutputError.self) {
                try AtomicOutput.writeFile(at: path, overwrite: false, inputs: InputFiles()) { try write("two", to: $0) }
            }
            #expect(throws: Failure.self) {
                try AtomicOutput.writeFile(at: path, overwrite: true, inputs: InputFiles()) { _ in throw Failure() }
            }
            #expect(try text(path) == "one")
            #expect(try contents(of: dir) == ["sheet.png"])
        }
    }
}
