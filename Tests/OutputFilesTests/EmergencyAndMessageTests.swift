import Foundation
@testable import OutputFiles
import Testing

@Suite("Emergency cleanup and messages")
struct EmergencyAndMessageTests {
    @Test("removeAllTemporaries removes every open temporary and leaves targets alone")
    func removeAll() throws {
        // In a child process: it takes every output of the process, and tests run in parallel here.
        try withTemporaryDirectory { dir in
            let lines = try runProbe("emergency", dir)
            #expect(lines == ["removed 2", "writeFailed", "writeFailed"], "unusable afterwards, and they say so")
            #expect(try contents(of: dir) == ["out.mp4"])
            #expect(try text(dir + "/out.mp4") == "earlier")
        }
    }

    @Test("after stopCommits no output is put in place, and what was written before is known")
    func stopCommits() throws {
        // In a child process: it stops every later commit of the process.
        try withTemporaryDirectory { dir in
            try makeFolder(dir + "/frames")
            let lines = try runProbe("stop", dir)
            #expect(lines == ["stopped", "stopped", "written: [\"\(dir)/a.txt\"]"])
            #expect(try contents(of: dir) == ["a.txt", "b.txt", "frames"])
            #expect(try contents(of: dir + "/frames") == ["a.txt"])
            #expect(try text(dir + "/a.txt") == "new")
            #expect(try text(dir + "/b.txt") == "earlier")
            #expect(try text(dir + "/frames/a.txt") == "earlier")
        }
    }

    @Test("a commit holds the gate: committedOutputs waits for it, or says it is busy", .timeLimit(.minutes(10)))
    func commitGate() throws {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? CommitGate.commit("somewhere") {
                held.signal()
                release.wait()
            }
        }
        holder.start()
        held.wait()
        #expect(AtomicOutput.committedOutputs(patience: 20) == nil)
        release.signal()
        while !holder.isFinished { usleep(1000) }
        #expect(AtomicOutput.committedOutputs(patience: 20)?.last == "somewhere")
    }

    // What is asserted is the call's own time (under 2 s); the limit only ends a hang. It is wide because a
    // full parallel run on two busy cores once took over a minute from this test's start to its end.
    @Test(
        "removeAllTemporaries gives up rather than wait for a registry lock a stuck thread holds",
        .timeLimit(.minutes(10)))
    func neverWaitsForTheLock() throws {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            TemporaryRegistry.withLockHeld {
                held.signal()
                release.wait()
            }
        }
        holder.start()
        held.wait()
        let start = DispatchTime.now()
        let result = AtomicOutput.removeAllTemporaries()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        release.signal()
        #expect(result == nil)
        #expect(seconds < 2, "\(seconds) s")
    }

    @Test("errno descriptions name the real cause")
    func describeErrno() {
        #expect(FileProblem.describe(errno: ENOSPC) == "no space left on device (the disk is full)")
        #expect(FileProblem.describe(errno: EDQUOT).hasPrefix("disk quota exceeded"))
        #expect(FileProblem.describe(errno: EROFS) == "read-only file system")
        #expect(FileProblem.describe(errno: ENAMETOOLONG).contains("at most 255 bytes a name"))
        #expect(FileProblem.describe(errno: EBADF) == "bad file descriptor")
        #expect(FileProblem.directoryProblem("out", errno: EROFS) == "the directory 'out' is on a read-only file system")
        #expect(FileProblem.directoryProblem("", errno: EACCES) == "the directory '.' is not writable (permission denied)")
    }

    @Test("a full disk is reported as one, and the target stays as it was")
    func fullDisk() throws {
        let ran: Void? = try withTinyFileSystem(kilobytes: 64) { mount in
            try write("earlier", to: mount + "/out.bin")
            let output = try AtomicOutput(path: mount + "/out.bin", overwrite: true, inputs: InputFiles())
            #expect(output.fileSystemProblem() == nil)
            let descriptor = open(output.temporaryPath, O_WRONLY)
            defer { close(descriptor) }
            let block = [UInt8](repeating: 7, count: 16384)
            var failure: Int32 = 0
            for _ in 0 ..< 16 where failure == 0 {
                if write(descriptor, block, block.count) < 0 { failure = errno }
            }
            #expect(FileProblem.describe(errno: failure) == "no space left on device (the disk is full)")
            #expect(output.fileSystemProblem() == "no space left on device (the disk is full)")
            output.discard()
            #expect(try text(mount + "/out.bin") == "earlier")
            #expect(try contents(of: mount) == ["out.bin"])

            // The helper turns a writer's vague failure into the cause.
            struct VagueFailure: Error {}
            let error = #expect(throws: OutputError.self) {
                try AtomicOutput.writeFile(at: mount + "/other.bin", overwrite: false, inputs: InputFiles()) { path in
                    try Data(repeating: 1, count: 200_000).write(to: URL(fileURLWithPath: path))
                    throw VagueFailure()
                }
            }
            #expect(error?.reason == "no space left on device (the disk is full)")
        }
        if ran == nil { try Test.cancel("cannot mount a tmpfs here (needs root)") }
    }
}
