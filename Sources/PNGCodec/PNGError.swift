/// A PNG that could not be read or written, with a one-line message naming the
/// file and the reason libpng (or the file system) gave, for example
/// `cannot decode PNG 'assets/x.png': Not a PNG file`.
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
