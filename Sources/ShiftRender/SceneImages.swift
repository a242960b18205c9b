import Foundation
import JPEGCodec
import PNGCodec
import Primitives
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// The decoded image of every file and data source a scene names, each
/// decoded once, with the problems found reported at the first view using it
/// (`to.subviews[2].image`). Images are PNG or JPEG, told by their first
/// bytes; another format is named in the message (`image "x.gif" is a GIF;
/// images must be PNG or JPEG`). Sizes are read from the PNG or JPEG header
/// and checked against the limit before decoding, so a small hostile file
/// cannot make the decoder allocate gigabytes.
struct SceneImages: Sendable {
    var decoded: [ImageSource: Bitmap] = [:]
    var problems: [SceneProblem] = []
    /// The files read, resolved (inputs a render must never overwrite).
    var files: [String] = []

    init(scene: Scene) {
        var failed = Set<ImageSource>()
        scene.forEachView { view, address, _ in
            guard let source = view.image, decoded[source] == nil, !failed.contains(source) else { return }
            let place = address.place.key("image")
            switch load(source, directory: scene.directory) {
            case .success(let bitmap?): decoded[source] = bitmap
            case .success(nil): break
            case .failure(let message):
                problems.append(SceneProblem(at: place, message.message))
                failed.insert(source)
            }
        }
    }

    /// Where a file source is read from.
    static func resolve(_ path: String, directory: String?) -> String {
        if path.hasPrefix("/") { return path }
        let joined = (directory?.isEmpty ?? true) ? path : directory! + "/" + path
        return (joined as NSString).standardizingPath
    }

    struct Failure: Error { var message: String }

    private mutating func load(_ source: ImageSource, directory: String?) -> Result<Bitmap?, Failure> {
        let limit = SceneLimits.maximumImagePixels
        func tooLarge(_ name: String, _ w: Int, _ h: Int) -> Failure {
            Failure(message: "image \(name) is \(w) x \(h) px; the limit is \(limit) px a side")
        }
        /// Thrown by the JPEG decoder's header check: refused before decoding.
        struct Refused: Error { var failure: Failure }
        /// A JPEG decoded by `decode`, whose header check refuses an image over the limit before any pixel is decoded.
        func jpeg(
            _ name: String, failure: (String) -> Failure,
            decode: ((JPEGCodec.Header) throws -> Void) throws -> Bitmap
        ) -> Result<Bitmap?, Failure> {
            do {
                return .success(
                    try decode { header in
                        if header.width > limit || header.height > limit {
                            throw Refused(failure: tooLarge(name, header.width, header.height))
                        }
                    })
            } catch let refused as Refused {
                return .failure(refused.failure)
            } catch {
                return .failure(failure((error as? JPEGError)?.reason ?? "\(error)"))
            }
        }
        switch source {
        case .bitmap:
            return .success(nil)  // the engine takes it as it is; the validator checked its size
        case .encoded(let bytes):
            let format = ImageFormat(sniffing: bytes)
            if let refusal = format.refusal("image data", head: bytes.prefix(8)) { return .failure(Failure(message: refusal)) }
            if format == .jpeg {
                return jpeg("data", failure: { Failure(message: "JPEG data cannot be decoded: \($0)") }) { check in
                    try JPEGCodec.decode(data: bytes, check: check)
                }
            }
            if let (w, h) = Self.headerSize(bytes), w > limit || h > limit { return .failure(tooLarge("data", w, h)) }
            do {
                return .success(try PNGCodec.decode(data: bytes))
            } catch {
                return .failure(Failure(message: "PNG data cannot be decoded: \((error as? PNGError)?.reason ?? "\(error)")"))
            }
        case .file(let written):
            guard !written.isEmpty else { return .success(nil) }  // the validator reports it
            let path = Self.resolve(written, directory: directory)
            files.append(path)
            var info = stat()
            guard stat(path, &info) == 0 else {
                let hint = ImageNameSuggestion.hint(written: written, path: path)
                return .failure(Failure(message: "image \"\(written)\" not found (looked for \(path))\(hint)"))
            }
            // A FIFO or a terminal would block the read forever, and a
            // device such as /dev/zero is no image.
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return .failure(Failure(message: "image \"\(written)\" (\(path)) is a directory, not an image file"))
            default:
                return .failure(
                    Failure(message: "image \"\(written)\" (\(path)) is not a regular file; images must be PNG or JPEG files"))
            }
            let head: [UInt8]
            switch Self.firstBytes(path, count: ImageFormat.sniffedByteCount) {
            case .success(let bytes): head = bytes
            case .failure(let reason): return .failure(Failure(message: "image \"\(written)\" (\(path)) cannot be read: \(reason.message)"))
            }
            let format = ImageFormat(sniffing: head)
            if let refusal = format.refusal("image \"\(written)\"", head: head) { return .failure(Failure(message: refusal)) }
            func cannotDecode(_ reason: String) -> Failure {
                Failure(message: "image \"\(written)\" (\(path)) cannot be decoded: \(reason)")
            }
            if format == .jpeg {
                return jpeg("\"\(written)\"", failure: cannotDecode) { check in try JPEGCodec.decode(fileAt: path, check: check) }
            }
            do {
                let size = try PNGCodec.readSize(fileAt: path)
                if size.width > limit || size.height > limit { return .failure(tooLarge("\"\(written)\"", size.width, size.height)) }
                return .success(try PNGCodec.decode(fileAt: path))
            } catch {
                return .failure(cannotDecode((error as? PNGError)?.reason ?? "\(error)"))
            }
        }
    }

    /// Up to `count` bytes from the start of the regular file at `path`, or why it cannot be read.
    static func firstBytes(_ path: String, count: Int) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Failure(message: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, count) }
        guard got >= 0 else { return .failure(Failure(message: String(cString: strerror(errno)))) }
        return .success(Array(bytes.prefix(got)))
    }

    /// Width and height from a PNG's IHDR (bytes 16...23, big-endian), or nil when it is not a PNG.
    static func headerSize(_ bytes: [UInt8]) -> (Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0 ..< 8]) == signature, Array(bytes[12 ..< 16]) == Array("IHDR".utf8) else {
            return nil
        }
        func word(_ at: Int) -> Int { bytes[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}
