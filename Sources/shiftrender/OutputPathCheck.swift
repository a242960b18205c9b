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
        let directory = folderAndName(path).folder

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

    /// Throws a usage error when `first` and `second` (given with `firstOption`
    /// and `secondOption`) would write one file: the same name in the same
    /// folder, however spelt (`out.png`, `./out.png`, `dir/../out.png`, an
    /// absolute path, a link to the folder), or two names of one existing file.
    /// Call after `check` has found both folders.
    static func checkDistinct(_ first: String, option firstOption: String, _ second: String, option secondOption: String) throws {
        guard sameFile(first, second) else { return }
        throw ValidationError(
            "\(secondOption) \(second) names the same file as \(firstOption) \(first): one would write over the other; "
                + "give each its own name")
    }

    static func sameFile(_ first: String, _ second: String) -> Bool {
        if let a = identity(first), let b = identity(second), a == b { return true }
        let (folderA, nameA) = folderAndName(first)
        let (folderB, nameB) = folderAndName(second)
        guard nameA == nameB, let a = identity(folderA), let b = identity(folderB) else { return false }
        return a == b
    }

    /// The folder that holds the path's last component, and that component: a
    /// pattern's frames, a folder's and a file all land in that folder.
    private static func folderAndName(_ path: String) -> (folder: String, name: String) {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        // (Not NSString.deletingLastPathComponent: it traps on a one-component relative path here.)
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let folder = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return (folder, String(trimmed[trimmed.index(after: slash)...]))
    }

    /// (device, inode) of what `path` leads to, if anything.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
