/// A JPEG that could not be read, with a one-line message naming the file
/// and the reason libjpeg (or the file system) gave, for example
/// `cannot decode JPEG 'assets/photo.jpg': Premature end of JPEG file`.
public struct JPEGError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case decode = "decode"
        case readHeader = "read the header of"
    }

    /// What was being done.
    public let operation: Operation
    /// The file, or nil for JPEG data in memory.
    public let path: String?
    /// Why it failed, as libjpeg or the system put it.
    public let reason: String

    public init(_ operation: Operation, path: String?, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let subject = path.map { "JPEG '\($0)'" } ?? "JPEG data"
        return "cannot \(operation.rawValue) \(subject): \(reason)"
    }
}
