import ArgumentParser
import Foundation
import ShiftRender

#if canImport(Glibc)
import Glibc
#endif

/// What can be said about an output path before the scene is even read, so a
/// typo costs nothing: a format the path names, and a folder to write in.
enum OutputPathCheck {
    /// Throws a usage error (exit 2) naming the problem with `path`, given with `option`.
    /// `detectFormat`: the path must name a format `OutputFormat` knows (not for stills, sheets and plans).
    static func check(_ path: String, option: String, detectFormat: Bool = true) throws {
        if path == "-" {
            throw ValidationError("\(option) -: writing to standard output is not supported; name a file or folder")
        }
        if path.isEmpty { throw ValidationError("\(option) needs a path") }
        if detectFormat {
            do {
                _ = try OutputFormat.detect(path: path)
            } catch {
                throw ValidationError("\(option) \(path): \((error as? EncoderError)?.reason ?? "\(error)")")
            }
        }
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        // A pattern's frames, a folder's and a file all land in the folder that holds the last component.
        // (Not NSString.deletingLastPathComponent: it traps on a one-component relative path here.)
        let directory = trimmed.lastIndex(of: "/").map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."

        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw ValidationError("\(option) \(path): the folder '\(directory)' does not exist")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ValidationError("\(option) \(path): '\(directory)' is not a folder")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ValidationError("\(option) \(path): the folder '\(directory)' is not writable (\(String(cString: strerror(errno))))")
        }
    }
}
