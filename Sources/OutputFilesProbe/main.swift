// Runs OutputFiles in a process of its own, for tests of what must not
// happen inside the shared test process:
//
//     output-files-probe file out.mp4     hold an output open until killed
//     output-files-probe folder frames    (a file set), printing its temporary path
//     output-files-probe emergency DIR    removeAllTemporaries, which takes every output of the process
//     output-files-probe declared DIR     process-wide declared inputs, which would outlive the test's files
//     output-files-probe stop DIR         stopCommits, which stops every later commit of the process
#if canImport(Glibc)
import Glibc
#endif
import OutputFiles

func say(_ line: String, to descriptor: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
}

func write(_ text: String, to path: String) {
    guard let file = fopen(path, "w") else { return }
    fputs(text, file)
    fclose(file)
}

/// Commits each output, saying "committed" or the error's kind.
func commitEach(_ outputs: [AtomicOutput]) {
    for output in outputs {
        do {
            try output.commit()
            say("committed")
        } catch {
            say("\(error.kind)")
        }
    }
}

let textFiles = FileSet(noun: "file", isMember: { $0.hasSuffix(".txt") })
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    say("usage: output-files-probe file|folder|emergency|declared|stop PATH", to: 2)
    exit(2)
}
let path = arguments[2]
do {
    switch arguments[1] {
    case "file", "folder":
        let isFile = arguments[1] == "file"
        let output = try AtomicOutput(
            path: path, kind: isFile ? .file : .fileSet(textFiles), overwrite: true,
            inputs: InputFiles())
        write("partial\n", to: isFile ? output.temporaryPath : output.temporaryPath + "/member.txt")
        say(output.temporaryPath)
        while true { pause() }
    case "emergency":
        write("earlier", to: path + "/out.mp4")
        let file = try AtomicOutput(path: path + "/out.mp4", overwrite: true, inputs: InputFiles())
        write("new", to: file.temporaryPath)
        let set = try AtomicOutput(path: path + "/frames", kind: .fileSet(textFiles), overwrite: false, inputs: InputFiles())
        write("new", to: set.temporaryPath + "/a.txt")
        say("removed \(AtomicOutput.removeAllTemporaries().map(String.init) ?? "nothing: the registry was busy")")
        commitEach([file, set])
    case "declared":
        write("a scene named like an output", to: path + "/scene.gif")
        say("declared: \(InputFiles.declare(path + "/scene.gif")), missing: \(InputFiles.declare(path + "/none.json"))")
        do {
            _ = try AtomicOutput(path: path + "/./scene.gif", overwrite: true)
            say("opened")
        } catch {
            say(error.description)
        }
    case "stop":
        write("earlier", to: path + "/b.txt")
        write("earlier", to: path + "/frames/a.txt")
        try AtomicOutput.writeFile(at: path + "/a.txt", overwrite: false, inputs: InputFiles()) { write("new", to: $0) }
        let file = try AtomicOutput(path: path + "/b.txt", overwrite: true, inputs: InputFiles())
        write("new", to: file.temporaryPath)
        let set = try AtomicOutput(path: path + "/frames", kind: .fileSet(textFiles), overwrite: true, inputs: InputFiles())
        write("new", to: set.temporaryPath + "/a.txt")
        AtomicOutput.stopCommits()
        commitEach([file, set])
        say("written: \(AtomicOutput.committedOutputs(patience: 100) ?? ["busy"])")
    default:
        say("output-files-probe: unknown mode '\(arguments[1])'", to: 2)
        exit(2)
    }
} catch {
    say("output-files-probe: \(error)", to: 2)
    exit(1)
}
