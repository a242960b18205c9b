import Foundation
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// Reading scene files.
public enum SceneJSON {
    /// Scene files larger than this are refused before reading: 10 000 views
    /// written out in full take under a tenth of it.
    public static let maximumFileBytes = 32 << 20

    /// Reads and decodes the scene file at `path`; relative image paths are
    /// resolved against the file's folder. Throws `.unreadable` when the file
    /// cannot be read and `.syntax` when it is not JSON; other problems are in
    /// the document's `problems`.
    public static func read(fileAt path: String) throws(SceneFileError) -> SceneDocument {
        let bytes = try contents(of: path)
        // Absolute, so that messages naming resolved image paths name a real place.
        let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        return try decode(bytes: bytes, file: path, directory: directory)
    }

    /// Decodes a scene from JSON text; `directory` is where relative image paths resolve (nil: the current directory).
    public static func decode(bytes: [UInt8], file: String = "scene", directory: String?) throws(SceneFileError) -> SceneDocument {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw SceneFileError(
                file: file, kind: .syntax,
                problems: [
                    SceneProblem(
                        at: .scene, "invalid JSON: \(error.message)", location: SourceLocation(line: error.line, column: error.column))
                ])
        }
        var decoder = SceneDecoder()
        let scene = decoder.decodeScene(root, directory: directory)
        return SceneDocument(scene: scene, file: file, problems: decoder.problems, locations: decoder.locations)
    }

    /// The bytes of a regular file of at most `maximumFileBytes`, or a message naming what is wrong.
    static func contents(of path: String) throws(SceneFileError) -> [UInt8] {
        func unreadable(_ reason: String) -> SceneFileError {
            SceneFileError(file: path, kind: .unreadable, problems: [SceneProblem(at: .scene, reason)])
        }
        // Checked before opening: opening a FIFO for reading blocks until a writer comes.
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadable(describe(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw unreadable("is a directory, not a scene file")
        case S_IFIFO: throw unreadable("is a FIFO (named pipe), not a scene file")
        case S_IFSOCK: throw unreadable("is a socket, not a scene file")
        default: throw unreadable("is a device, not a scene file")
        }
        guard info.st_size <= maximumFileBytes else {
            throw unreadable("is \(info.st_size) bytes; scene files are limited to \(maximumFileBytes >> 20) MiB")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(describe(errno: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw unreadable(describe(errno: errno))
            }
            if n == 0 { break }
            bytes += chunk[0 ..< n]
            guard bytes.count <= maximumFileBytes else {
                throw unreadable("is larger than \(maximumFileBytes >> 20) MiB; scene files are limited to that")
            }
        }
        return bytes
    }

    static func describe(errno error: Int32) -> String {
        switch error {
        case ENOENT: return "no such file"
        case EACCES: return "cannot be read: permission denied"
        case ENOTDIR: return "a part of the path is not a folder"
        case ELOOP: return "too many levels of symbolic links"
        case ENAMETOOLONG: return "the path is too long"
        case EISDIR: return "is a directory, not a scene file"
        default: return "cannot be read: \(String(cString: strerror(error)))"
        }
    }
}
