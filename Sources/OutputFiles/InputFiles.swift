#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The files a run reads (its scene, images, fonts), which no output may
/// replace. Kept as (device, inode) pairs, so every name of a file is caught:
/// `./x.png` for `x.png`, a symbolic link, a hard link.
public struct InputFiles: Sendable, Equatable {
    private var identities: Set<FileIdentity> = []

    public init() {}

    public init(paths: [String]) {
        for path in paths { insert(path) }
    }

    /// Adds the file `path` leads to. Returns false when there is none.
    @discardableResult
    public mutating func insert(_ path: String) -> Bool {
        guard let status = FileStatus.resolved(path) else { return false }
        identities.insert(status.identity)
        return true
    }

    /// True when `path` leads to one of the files.
    public func contains(_ path: String) -> Bool {
        guard !identities.isEmpty, let status = FileStatus.resolved(path) else { return false }
        return identities.contains(status.identity)
    }

    public var isEmpty: Bool { identities.isEmpty }

    /// The files of both.
    public func union(_ other: InputFiles) -> InputFiles {
        var both = self
        both.identities.formUnion(other.identities)
        return both
    }

    /// The process's declared inputs: what an output checks when it is not
    /// given a set of its own. Process-wide because the outputs are opened
    /// deep inside encoders that know nothing of scenes.
    public static var declared: InputFiles {
        declaredInputs.withLock { $0 }
    }

    /// Adds `path` to the process's declared inputs. Returns false when
    /// nothing is there (then there is nothing to protect).
    @discardableResult
    public static func declare(_ path: String) -> Bool {
        declaredInputs.withLock { $0.insert(path) }
    }
}

private let declaredInputs = Mutex(InputFiles())
