import Foundation
@testable import OutputFiles
import Synchronization
import Testing

/// A folder output is the set of files it writes: exactly those are checked
/// and replaced, nothing else in the folder is touched.
@Suite("File sets")
struct FileSetTests {
    /// Opens a set at `path`, writes `files` (relative path: text) into it and commits.
    @discardableResult
    func writeSet(
        _ path: String, _ files: [String: String], set: FileSet = textFiles(), overwrite: Bool = false,
        inputs: InputFiles = InputFiles()
    ) throws -> [String] {
        let output = try AtomicOutput(path: path, kind: .fileSet(set), overwrite: overwrite, inputs: inputs)
        for (name, body) in files {
            let file = output.temporaryPath + "/" + name
            try makeFolder((file as NSString).deletingLastPathComponent)
            try write(body, to: file)
        }
        try output.commit()
        return output.warnings
    }

    @Test("a new folder appears whole, by one rename of a temporary sibling")
    func newFolder() throws {
        try withTemporaryDirectory { dir in
            let output = try AtomicOutput(
                path: dir + "/frames/", kind: .fileSet(textFiles(folders: ["sub"])),
                overwrite: false, inputs: InputFiles())
            #expect(output.temporaryPath.hasPrefix(dir + "/.frames.partial-"))
            #expect(try contents(of: output.temporaryPath) == ["sub"], "declared folders are made")
            try write("a", to: output.temporaryPath + "/a.txt")
            let folderInode = inode(output.temporaryPath)
            #expect(!FileManager.default.fileExists(atPath: dir + "/frames"))
            try output.commit()
            #expect(try contents(of: dir) == ["frames"])
            #expect(inode(dir + "/frames") == folderInode)
            #expect(try contents(of: dir + "/frames") == ["a.txt", "sub"])
        }
    }

    @Test("files it writes that exist are refused without overwriting; then exactly those are replaced")
    func existingMembers() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out"
            try makeFolder(target)
            try write("old a", to: target + "/a.txt")
            try write("old b", to: target + "/b.txt")
            try write("mine", to: target + "/notes.md")
            try makeFolder(target + "/src")

            // Known up front: refused before any work.
            let early = #expect(throws: OutputError.self) {
                try AtomicOutput(
                    path: target, kind: .fileSet(textFiles(expected: ["a.txt"])), overwrite: false,
                    inputs: InputFiles())
            }
            #expect(early?.kind == .targetExists)
            #expect(
                early?.reason == "the folder already holds 1 of the text files this output writes (a.txt); "
                    + "allow overwriting (--overwrite) to replace it, or choose another folder")
            // Found at commit.
            let late = #expect(throws: OutputError.self) { try writeSet(target, ["a.txt": "new", "b.txt": "new", "c.txt": "new"]) }
            #expect(late?.reason.hasPrefix("the folder already holds 2 of the text files this output writes (a.txt ... b.txt)") == true)
            #expect(try contents(of: target) == ["a.txt", "b.txt", "notes.md", "src"], "nothing added")
            #expect(try text(target + "/a.txt") == "old a")

            let warnings = try writeSet(target, ["a.txt": "new a", "c.txt": "new c"], overwrite: true)
            #expect(try text(target + "/a.txt") == "new a")
            #expect(try text(target + "/c.txt") == "new c")
            #expect(try text(target + "/b.txt") == "old b", "not written, so not touched")
            #expect(try text(target + "/notes.md") == "mine")
            #expect(try contents(of: target) == ["a.txt", "b.txt", "c.txt", "notes.md", "src"])
            #expect(warnings == ["'\(target)' still holds 1 text file (b.txt) from an earlier render"])
        }
    }

    @Test("disjoint sets join in one folder without overwriting; leftovers are named")
    func disjointSets() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/frames/"
            try writeSet(target, Dictionary(uniqueKeysWithValues: (0 ..< 3).map { ("f\($0).txt", "first") }))
            let warnings = try writeSet(target, Dictionary(uniqueKeysWithValues: (3 ..< 5).map { ("f\($0).txt", "second") }))
            #expect(try contents(of: target) == (0 ..< 5).map { "f\($0).txt" })
            #expect(warnings == ["'\(target)' still holds 3 text files (f0.txt ... f2.txt) from an earlier render"])
        }
    }

    @Test("stale earlier members go when overwriting, and only they; inputs stay")
    func staleMembersRemoved() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/plan"
            let set = textFiles(earlier: .removeWhenOverwriting, folders: ["images"])
            try writeSet(target, ["plan.txt": "1", "images/0.txt": "1", "images/1.txt": "1", "images/2.txt": "1"], set: set)
            try write("foreign", to: target + "/images/keep.png")
            try makeFolder(target + "/images/nested")
            try write("used by a scene", to: target + "/images/2.txt")
            let inputs = InputFiles(paths: [target + "/images/2.txt"])

            let warnings = try writeSet(
                target, ["plan.txt": "2", "images/0.txt": "2"], set: set, overwrite: true,
                inputs: inputs)
            #expect(try contents(of: target) == ["images", "plan.txt"])
            #expect(try contents(of: target + "/images") == ["0.txt", "2.txt", "keep.png", "nested"])
            #expect(try text(target + "/images/0.txt") == "2")
            #expect(warnings == ["'\(target)' still holds 1 text file (images/2.txt) from an earlier render"])
        }
    }

    @Test("last members move last: a plan never names a file not yet in place")
    func moveOrder() {
        let order = FileSet.moveOrder(["plan.json", "images/b.png", "a.png", "snapshots/s.png"], last: ["plan.json", "x"])
        #expect(order == ["a.png", "images/b.png", "snapshots/s.png", "plan.json"])
    }

    @Test("replacing in place: at no instant does the folder hold fewer files than before")
    func neverFewer() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/frames"
            let names = (0 ..< 400).map { String(format: "f%05d.txt", $0) }
            try writeSet(target, Dictionary(uniqueKeysWithValues: names.map { ($0, "old") }))
            let output = try AtomicOutput(path: target, kind: .fileSet(textFiles()), overwrite: true, inputs: InputFiles())
            for name in names { try write("new", to: output.temporaryPath + "/" + name) }

            let fewest = Atomic<Int>(Int.max)
            let done = Atomic<Bool>(false)
            let observer = Thread {
                while !done.load(ordering: .acquiring) {
                    let count = ((try? contents(of: target)) ?? []).filter { $0.hasSuffix(".txt") }.count
                    if count < fewest.load(ordering: .relaxed) { fewest.store(count, ordering: .relaxed) }
                }
            }
            observer.start()
            usleep(20_000)
            try output.commit()
            done.store(true, ordering: .releasing)
            while !observer.isFinished { usleep(1000) }
            #expect(fewest.load(ordering: .relaxed) == 400)
            #expect(try names.allSatisfy { try text(target + "/" + $0) == "new" })
            #expect(try contents(of: target).count == 400, "the temporary folder is gone")
        }
    }

    @Test("a folder target that is a file, or a member where a folder is needed, is refused")
    func wrongTypes() throws {
        try withTemporaryDirectory { dir in
            try write("x", to: dir + "/frames")
            let file = #expect(throws: OutputError.self) {
                try AtomicOutput(path: dir + "/frames/", kind: .fileSet(textFiles()), overwrite: true, inputs: InputFiles())
            }
            #expect(file?.reason == "it exists and is not a directory")

            try makeFolder(dir + "/plan")
            try write("x", to: dir + "/plan/images")
            let folder = #expect(throws: OutputError.self) {
                try AtomicOutput(
                    path: dir + "/plan", kind: .fileSet(textFiles(folders: ["images"])), overwrite: true,
                    inputs: InputFiles())
            }
            #expect(folder?.reason == "'\(dir)/plan/images' is not a directory; this output needs a folder there")

            try makeFolder(dir + "/plan2/a.txt")
            let member = #expect(throws: OutputError.self) { try writeSet(dir + "/plan2", ["a.txt": "x"], overwrite: true) }
            #expect(member?.reason == "'\(dir)/plan2/a.txt' is a directory, where a file of this output goes")
            #expect(try contents(of: dir + "/plan2") == ["a.txt"])
        }
    }

    @Test("a commit failing part way without overwriting takes back what it added")
    func failedCommitTakesBack() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/out"
            try makeFolder(target + "/zz")
            try write("foreign", to: target + "/readme.md")
            let output = try AtomicOutput(path: target, kind: .fileSet(textFiles()), overwrite: false, inputs: InputFiles())
            try makeFolder(output.temporaryPath + "/zz")
            for name in ["a.txt", "b.txt", "zz/z.txt"] { try write("new", to: output.temporaryPath + "/" + name) }
            // zz/z.txt moves last (by name); an immutable zz/ makes its move fail after the others moved in.
            guard command("/usr/bin/chattr", ["+i", target + "/zz"]) == 0 else {
                try Test.cancel("chattr +i is not possible here")
            }
            defer { command("/usr/bin/chattr", ["-i", target + "/zz"]) }
            let error = #expect(throws: OutputError.self) { try output.commit() }
            #expect(error?.kind == .writeFailed)
            #expect(error?.reason == "cannot move 'zz/z.txt' into place: operation not permitted")
            #expect(try contents(of: target) == ["readme.md", "zz"])
            #expect(try contents(of: dir) == ["out"])
        }
    }
}
