#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PNG that could not be read or written, with a one-line message naming the
/// file and the reason libpng (or the file system) gave, for example
/// `cannot decode PNG 'assets/x.png': Not a PNG file` or
/// `cannot write PNG 'out/a.png': no space left on device (the disk is full)`.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case decode = "decode"
        case readHeader = "read the header of"
        case encode = "write"
    }

    /// What was being done.
    public let operation: Operation
    /// The file, or nil for PNG data in memory.
    public let path: String?
    /// Why it failed, as libpng or the system put it.
    public let reason: String

    public init(_ operation: Operation, path: String?, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let subject = path.map { "PNG '\($0)'" } ?? "PNG data"
        return "cannot \(operation.rawValue) \(subject): \(reason)"
    }
}

extension PNGError {
    /// The OS error `code` (an `errno` value) as a reason: the common causes of
    /// a failed write in words a user acts on, others as the system words them.
    public static func describe(errno code: Int32) -> String {
        switch code {
        case ENOSPC: return "no space left on device (the disk is full)"
        case EDQUOT: return "disk quota exceeded (the user's quota on this file system is used up)"
        case EFBIG: return "file too large for this file system"
        case EROFS: return "read-only file system"
        case EACCES: return "permission denied"
        case EPERM: return "operation not permitted"
        case EIO: return "input/output error (the disk or the file system failed)"
        case ENOENT: return "no such file or directory"
        default: return String(cString: strerror(code))
        }
    }
}
