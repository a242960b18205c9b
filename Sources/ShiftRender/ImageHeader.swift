import JPEGCodec
import Primitives

#if canImport(Glibc)
import Glibc
#endif

/// What an image's header says, read before any image of the scene is decoded: its size, how it decodes and
/// which file it is, so that the scene's images are budgeted and each file decoded once (`SceneImages`).
struct ImageHeader: Sendable {
    enum Format: Sendable {
        case png
        case jpeg(JPEGCodec.Header)
    }

    /// The same image, however it is named: a file by device and inode (links and spellings of one file are one
    /// image), data by its bytes.
    enum Identity: Hashable, Sendable {
        case file(device: UInt64, inode: UInt64)
        case data([UInt8])
    }

    /// As shown (a JPEG's EXIF orientation applied).
    var width: Int
    var height: Int
    var format: Format
    var identity: Identity

    /// What its decoded bitmap keeps: premultiplied RGBA8.
    var keptBytes: Double { Double(width) * Double(height) * 4 }

    /// What decoding it holds besides, while it runs: a PNG with alpha is premultiplied into a copy of its straight
    /// pixels; a progressive JPEG keeps every coefficient (2 bytes a sample of each component) until its last scan;
    /// a turned or mirrored JPEG (EXIF orientation) is copied upright.
    var transientBytes: Double {
        let pixels = Double(width) * Double(height)
        switch format {
        case .png: return pixels * 4
        case .jpeg(let header):
            return (header.isProgressive ? pixels * 2 * Double(header.components) : 0) + (header.orientation > 1 ? pixels * 4 : 0)
        }
    }

    /// The device and inode of the regular file at `path`, or nil when it cannot be stat'ed.
    static func fileIdentity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
