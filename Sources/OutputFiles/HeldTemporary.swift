#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file or folder that holds an exclusive `flock` for as long as
/// its output is open, which tells a sweeping run that its writer is alive.
struct HeldTemporary {
    let path: String
    let identity: FileIdentity
    private let descriptor: Int32

    /// Creates `directory/.STEM.partial-TOKEN` (a file, or a folder when
    /// `isFolder`), locks it and registers it. Returns the errno of a failed
    /// creation.
    static func create(in directory: String, stem: String, isFolder: Bool) -> Result<HeldTemporary, Errno> {
        for _ in 0 ..< 16 {
            let path = FileSystem.join(directory, TemporaryName.make(stem: stem))
            let descriptor: Int32
            if isFolder {
                guard mkdir(path, 0o777) == 0 else {
                    if errno == EEXIST { continue }
                    return .failure(Errno(errno))
                }
                descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if descriptor < 0 {
                    let error = errno
                    if error == ENOENT { continue }  // swept before we could lock it
                    rmdir(path)
                    return .failure(Errno(error))
                }
            } else {
                descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                guard descriptor >= 0 else {
                    if errno == EEXIST { continue }
                    return .failure(Errno(errno))
                }
            }
            // A sweeper may lock a fresh temporary in the instant before we
            // do; it then removes it, so take another name. A file system
            // without flock cannot be swept either, so going on unlocked is safe.
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
                close(descriptor)
                continue
            }
            var own = stat()
            guard fstat(descriptor, &own) == 0, FileStatus.entry(path)?.identity == FileIdentity(own) else {
                close(descriptor)  // removed by a sweeper before we locked it
                continue
            }
            let held = HeldTemporary(path: path, identity: FileIdentity(own), descriptor: descriptor)
            TemporaryRegistry.register(path, identity: held.identity)
            return .success(held)
        }
        return .failure(Errno(EEXIST))
    }

    /// Drops the lock and the registration. The path is left as it is.
    func release() {
        TemporaryRegistry.unregister(path)
        close(descriptor)
    }

    /// Removes the temporaries of `stem` in `directory` whose writer is gone:
    /// those whose lock can be taken and that are not this process's own.
    static func sweep(in directory: String, stem: String) {
        guard let names = FileSystem.list(directory) else { return }
        for name in names where TemporaryName.matches(name, stem: stem) {
            let path = FileSystem.join(directory, name)
            guard let entry = FileStatus.entry(path), entry.isRegularFile || entry.isDirectory,
                !TemporaryRegistry.contains(entry.identity)
            else { continue }
            // O_NONBLOCK: the name could have been swapped for a FIFO since lstat.
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, FileIdentity(opened) == entry.identity,
                flock(descriptor, LOCK_EX | LOCK_NB) == 0,
                FileStatus.entry(path)?.identity == entry.identity
            else { continue }
            FileSystem.removeTree(path)
        }
    }
}

/// An errno value, so that `Result` can carry it.
struct Errno: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
