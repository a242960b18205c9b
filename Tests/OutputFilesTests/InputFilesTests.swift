import Foundation
@testable import OutputFiles
import Testing

/// Outputs never write over the run's inputs, whatever name reaches them.
@Suite("Inputs are never outputs")
struct InputFilesTests {
    @Test("the input itself, ./ spellings, a symbolic link and a hard link are refused, even when overwriting")
    func everyNameOfAnInput() throws {
        try withTemporaryDirectory { dir in
            let poster = dir + "/poster.png"
            try write("input", to: poster)
            try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: poster)
            try FileManager.default.linkItem(atPath: poster, toPath: dir + "/hard.png")
            let inputs = InputFiles(paths: [poster])
            for path in [poster, dir + "/./poster.png", dir + "/link.png", dir + "/hard.png"] {
                let error = #expect(throws: OutputError.self) {
                    try AtomicOutput(path: path, overwrite: true, inputs: inputs)
                }
                #expect(error?.kind == .isInput)
                #expect(
                    error?.description == "cannot write '\(path)': '\(path)' is an input of this render; "
                        + "refusing to write over it")
            }
            #expect(try text(poster) == "input")
            #expect(try contents(of: dir) == ["hard.png", "link.png", "poster.png"])
            // Another file is fine.
            try AtomicOutput(path: dir + "/other.png", overwrite: true, inputs: inputs).discard()
        }
    }

    @Test("a union holds the files of both sets")
    func union() throws {
        try withTemporaryDirectory { dir in
            for name in ["a", "b", "c"] { try write(name, to: dir + "/" + name) }
            let both = InputFiles(paths: [dir + "/a"]).union(InputFiles(paths: [dir + "/b"]))
            #expect(both.contains(dir + "/./a") && both.contains(dir + "/b"))
            #expect(!both.contains(dir + "/c"))
            #expect(InputFiles().union(InputFiles()).isEmpty)
        }
    }

    @Test("an input among the files a set writes is refused, when opening and at commit")
    func inputInFileSet() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/p"
            try makeFolder(target)
            try write("{}", to: target + "/plan.txt")
            try write("scene image", to: target + "/img.txt")
            let inputs = InputFiles(paths: [target + "/plan.txt", target + "/img.txt"])
            let early = #expect(throws: OutputError.self) {
                try AtomicOutput(
                    path: target, kind: .fileSet(textFiles(expected: ["plan.txt"])), overwrite: true,
                    inputs: inputs)
            }
            #expect(early?.reason == "'\(target)/plan.txt' is an input of this render; refusing to write over it")

            let output = try AtomicOutput(path: target, kind: .fileSet(textFiles()), overwrite: true, inputs: inputs)
            try write("new", to: output.temporaryPath + "/img.txt")
            let late = #expect(throws: OutputError.self) { try output.commit() }
            #expect(late?.kind == .isInput)
            #expect(try text(target + "/img.txt") == "scene image")
            #expect(try contents(of: target) == ["img.txt", "plan.txt"])
        }
    }

    @Test("the process's declared inputs are what outputs check by default")
    func declaredInputs() throws {
        // In a child process: a declared input outlives this test's files, and
        // a later file with its inode number would be refused.
        try withTemporaryDirectory { dir in
            let lines = try runProbe("declared", dir)
            #expect(
                lines == [
                    "declared: true, missing: false",
                    "cannot write '\(dir)/./scene.gif': '\(dir)/./scene.gif' is an input of this render; "
                        + "refusing to write over it",
                ])
            #expect(try text(dir + "/scene.gif") == "a scene named like an output")
        }
    }
}
