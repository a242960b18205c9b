#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The GIF's frames, already scaled, kept on disk between the two passes a
/// palette for the whole clip needs (count the colours of every frame, then
/// map every frame): memory holds one frame whatever the clip's length.
///
/// The file is created beside the output and unlinked at once, so it has no
/// name: it disappears when closed, and even a `kill -9` leaves nothing
/// behind. Being beside the output keeps it off a RAM-backed /tmp.
final class GIFSpool {
    private var descriptor: Int32
    let frameBytes: Int
    private(set) var frameCount = 0

    /// Creates the spool in `directory` for frames of `frameBytes` bytes.
    init(directory: String, frameBytes: Int, path: String) throws {
        self.frameBytes = frameBytes
        let prefix = directory.isEmpty || directory == "." ? "" : directory + "/"
        for attempt in 0 ..< 16 {
            let name = prefix + ".shiftrender-gif-spool-" + String(UInt64.random(in: 0 ... UInt64.max), radix: 36)
            let fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                unlink(name)
                descriptor = fd
                return
            }
            let error = errno
            if error == EEXIST, attempt < 15 { continue }
            throw EncoderError(
                .targetNotWritable, path: path,
                reason:
                    "cannot make the GIF's frame spool: \(AtomicOutput.directoryProblem(directory, errno: error))")
        }
        throw EncoderError(.targetNotWritable, path: path, reason: "cannot find a free name for the GIF's frame spool")
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Appends one frame.
    func write(_ frame: UnsafeRawBufferPointer, path: String) throws {
        precondition(frame.count == frameBytes)
        var done = 0
        while done < frameBytes {
            let n = Glibc.write(descriptor, frame.baseAddress! + done, frameBytes - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw EncoderError(
                    .writeFailed, path: path,
                    reason:
                        "cannot spool a GIF frame: \(AtomicOutput.describe(errno: n < 0 ? errno : ENOSPC))")
            }
            done += n
        }
        frameCount += 1
    }

    /// Reads frame `index` into `frame`.
    func read(_ index: Int, into frame: UnsafeMutableRawBufferPointer, path: String) throws {
        precondition(frame.count == frameBytes)
        var done = 0
        while done < frameBytes {
            let n = pread(descriptor, frame.baseAddress! + done, frameBytes - done, off_t(index * frameBytes + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw EncoderError(
                    .writeFailed, path: path,
                    reason:
                        "cannot read back spooled GIF frame \(index): \(n < 0 ? AtomicOutput.describe(errno: errno) : "file ends early")")
            }
            done += n
        }
        // The frame is read once; leave the page cache to others.
        _ = posix_fadvise(descriptor, off_t(index * frameBytes), off_t(frameBytes), Int32(POSIX_FADV_DONTNEED))
    }
}
