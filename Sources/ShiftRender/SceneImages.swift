import Foundation
import JPEGCodec
import PNGCodec
import Primitives
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// The decoded image of every file and data source a scene names, with the
/// problems found reported at the first view using it (`to.subviews[2].image`).
/// Images are PNG or JPEG, told by their first bytes; another format is named
/// in the message (`image "x.gif" is a GIF; images must be PNG or JPEG`).
///
/// Headers first, then pixels: every image's header is read (PNG IHDR, JPEG
/// SOF through libjpeg) before any is decoded, so that a small hostile file
/// cannot make the decoder allocate gigabytes (the 8192 px limit a side), and
/// the images together are budgeted. A file is one image however it is named
/// (links and spellings of one file share a device and inode) and is decoded
/// once. When drawing (`keeping`), the bitmaps the images keep, and the most
/// any one decode holds besides, must fit in the memory limit with the program,
/// or nothing is decoded and `overBudget` says which files take what, where,
/// and the knob. Checking (`validate`) decodes each file to find its problems
/// and keeps none, so its memory is one image's.
struct SceneImages: Sendable {
    enum Decoding: Sendable {
        /// Decode each file to report what fails, keeping no bitmap (`validate`).
        case checkingEach
        /// Decode each file once and keep the bitmaps, if they fit in `memoryLimit` bytes (a render).
        case keeping(memoryLimit: Double)
    }

    var decoded: [ImageSource: Bitmap] = [:]
    var problems: [SceneProblem] = []
    /// The files read, resolved (inputs a render must never overwrite).
    var files: [String] = []
    /// Why nothing was decoded: the images would pass the memory limit (the message names the files, their views
    /// and `--memory-limit`). The renderer throws it as a `.memory` error.
    var overBudget: String?

    /// A source the scene names, and every place naming it.
    private struct Named {
        var source: ImageSource
        var places: [ScenePlace]
        var header: ImageHeader?
    }

    init(scene: Scene, decoding: Decoding = .checkingEach) {
        var named: [Named] = []
        var index: [ImageSource: Int] = [:]
        scene.forEachView { view, address, _ in
            guard let source = view.image else { return }
            let place = address.place.key("image")
            if let i = index[source] { return named[i].places.append(place) }
            index[source] = named.count
            named.append(Named(source: source, places: [place]))
        }
        for i in named.indices {
            switch inspect(named[i].source, directory: scene.directory) {
            case .success(let header): named[i].header = header
            case .failure(let failure): problems.append(SceneProblem(at: named[i].places[0], failure.message))
            }
        }
        // One decode per image, for every source naming it, in the order the scene names them.
        var groups: [ImageHeader.Identity: [Int]] = [:]
        var order: [ImageHeader.Identity] = []
        for (i, entry) in named.enumerated() {
            guard let identity = entry.header?.identity else { continue }
            if groups[identity] == nil { order.append(identity) }
            groups[identity, default: []].append(i)
        }
        if case .keeping(let limit) = decoding {
            let images = order.map { identity in groups[identity]!.map { named[$0] } }
            if let refusal = Self.budget(images, limit: limit) {
                overBudget = refusal
                return
            }
        }
        for identity in order {
            let members = groups[identity]!
            let first = named[members[0]]
            switch decode(first.source, header: first.header!, directory: scene.directory) {
            case .success(let bitmap):
                guard case .keeping = decoding else { continue }
                for i in members { decoded[named[i].source] = bitmap }
            case .failure(let failure):
                // Each spelling is reported at its first view, in its own words.
                for i in members {
                    let message = i == members[0] ? failure.message : Self.cannotDecode(named[i].source, failure, scene.directory)
                    problems.append(SceneProblem(at: named[i].places[0], message))
                }
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

    // MARK: The budget

    /// Nil when decoding `images` (each the sources naming one image) fits in `limit` with the program: the bitmaps
    /// they keep, and the most one decode holds besides while it runs. Otherwise the refusal, largest images first.
    /// No images, no refusal: a limit below the program alone is the render's estimate to refuse (`checkMemory`).
    private static func budget(_ images: [[Named]], limit: Double) -> String? {
        let headers = images.map { $0[0].header! }
        let kept = headers.reduce(0) { $0 + $1.keptBytes }
        let needed = MemoryEstimate.programBytes + kept + (headers.map(\.transientBytes).max() ?? 0)
        guard kept > 0, needed > limit else { return nil }
        var lines = [
            "the scene's images need about \(MemoryEstimate.format(needed)) to decode, before any frame is drawn "
                + "(\(images.count) \(images.count == 1 ? "image" : "different images"), "
                + "\(MemoryEstimate.format(kept)) decoded); the memory limit is \(MemoryEstimate.format(limit))."
                + " Raise the limit (--memory-limit on the command line) or use smaller images. The largest:"
        ]
        for image in images.sorted(by: { $0[0].header!.keptBytes > $1[0].header!.keptBytes }).prefix(5) {
            let header = image[0].header!
            let places = image.flatMap(\.places)
            let shown = places.prefix(3).map(\.description).joined(separator: ", ")
            lines.append(
                "  \(name(image[0].source)): \(header.width) x \(header.height) px, \(MemoryEstimate.format(header.keptBytes)), at "
                    + shown + (places.count > 3 ? " and \(places.count - 3) more" : ""))
        }
        if images.count > 5 { lines.append("  ... and \(images.count - 5) more images") }
        return lines.joined(separator: "\n")
    }

    /// How messages name a source: `"photos/hero.png"`, or `data` for bytes.
    private static func name(_ source: ImageSource) -> String {
        if case .file(let written) = source { return "\"\(written)\"" }
        return "image data"
    }

    // MARK: Headers

    /// The header of `source`, or why it is refused before decoding (missing, not a regular file, another format,
    /// damaged header, over the size limit); nil for a bitmap given decoded and for an empty path (the validator
    /// reports it).
    private mutating func inspect(_ source: ImageSource, directory: String?) -> Result<ImageHeader?, Failure> {
        switch source {
        case .bitmap:
            return .success(nil)  // the engine takes it as it is; the validator checked its size
        case .encoded(let bytes):
            if JPEGCodec.isCutAfterStartMarker(bytes) { return .failure(Failure(message: Self.cutJPEG("JPEG data"))) }
            let format = ImageFormat(sniffing: bytes)
            if let refusal = format.refusal("image data", head: bytes.prefix(8)) { return .failure(Failure(message: refusal)) }
            let subject = "data"
            do {
                if format == .jpeg {
                    let header = try JPEGCodec.readHeader(data: bytes)
                    return Self.checked(ImageHeader(width: header.width, height: header.height, format: .jpeg(header),
                                                    identity: .data(bytes)), subject)
                }
                // A PNG whose IHDR is missing or damaged is left to the decoder, which says why.
                let (width, height) = Self.headerSize(bytes) ?? (0, 0)
                return Self.checked(ImageHeader(width: width, height: height, format: .png, identity: .data(bytes)), subject)
            } catch {
                return .failure(Failure(message: "\(format == .jpeg ? "JPEG" : "PNG") data cannot be decoded: \(Self.reason(error))"))
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
            case .failure(let reason):
                return .failure(Failure(message: "image \"\(written)\" (\(path)) cannot be read: \(reason.message)"))
            }
            if JPEGCodec.isCutAfterStartMarker(head) {
                return .failure(Failure(message: Self.cutJPEG("image \"\(written)\" (\(path))")))
            }
            let format = ImageFormat(sniffing: head)
            if let refusal = format.refusal("image \"\(written)\"", head: head) { return .failure(Failure(message: refusal)) }
            let identity = ImageHeader.Identity.file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            do {
                if format == .jpeg {
                    let header = try JPEGCodec.readHeader(fileAt: path)
                    return Self.checked(
                        ImageHeader(width: header.width, height: header.height, format: .jpeg(header), identity: identity),
                        "\"\(written)\"")
                }
                let size = try PNGCodec.readSize(fileAt: path)
                return Self.checked(
                    ImageHeader(width: size.width, height: size.height, format: .png, identity: identity), "\"\(written)\"")
            } catch {
                return .failure(Failure(message: "image \"\(written)\" (\(path)) cannot be decoded: \(Self.reason(error))"))
            }
        }
    }

    /// `header`, or the refusal of an image over the size limit a side.
    private static func checked(_ header: ImageHeader, _ subject: String) -> Result<ImageHeader?, Failure> {
        let limit = SceneLimits.maximumImagePixels
        guard header.width > limit || header.height > limit else { return .success(header) }
        return .failure(Failure(message: "image \(subject) is \(header.width) x \(header.height) px; the limit is \(limit) px a side"))
    }

    /// A JPEG of two bytes: its start-of-image marker and nothing more.
    private static func cutJPEG(_ subject: String) -> String {
        "\(subject) cannot be decoded: it is a damaged JPEG, cut off after its first 2 bytes (the start-of-image marker); "
            + "the file is truncated"
    }

    private static func reason(_ error: any Error) -> String {
        (error as? JPEGError)?.reason ?? (error as? PNGError)?.reason ?? "\(error)"
    }

    // MARK: Decoding

    /// The image `header` describes, decoded; refused should the file have changed since its header was read (a
    /// size over the one budgeted).
    private func decode(_ source: ImageSource, header: ImageHeader, directory: String?) -> Result<Bitmap, Failure> {
        struct Changed: Error { var width: Int, height: Int }
        // A PNG whose IHDR was not at its place has no size yet (libpng will refuse it): the limit a side instead.
        let known = header.width > 0 && header.height > 0
        let most = known ? (header.width, header.height) : (SceneLimits.maximumImagePixels, SceneLimits.maximumImagePixels)
        func within(_ width: Int, _ height: Int) throws {
            guard width <= most.0 && height <= most.1 else { throw Changed(width: width, height: height) }
        }
        do {
            switch (source, header.format) {
            case (.encoded(let bytes), .jpeg): return .success(try JPEGCodec.decode(data: bytes) { try within($0.width, $0.height) })
            case (.encoded(let bytes), .png): return .success(try PNGCodec.decode(data: bytes, check: within))
            case (.file(let written), .jpeg):
                let path = Self.resolve(written, directory: directory)
                return .success(try JPEGCodec.decode(fileAt: path) { try within($0.width, $0.height) })
            case (.file(let written), .png):
                return .success(try PNGCodec.decode(fileAt: Self.resolve(written, directory: directory), check: within))
            case (.bitmap(let bitmap), _): return .success(bitmap)
            }
        } catch let changed as Changed {
            return .failure(Failure(message: Self.cannotDecode(source, Failure(message: "it changed while it was read: its header "
                + "said \(header.width) x \(header.height) px, now \(changed.width) x \(changed.height)"), directory)))
        } catch {
            return .failure(Failure(message: Self.cannotDecode(source, Failure(message: Self.reason(error)), directory)))
        }
    }

    /// "image "x.png" (/abs/x.png) cannot be decoded: reason", or for data "PNG data cannot be decoded: reason".
    private static func cannotDecode(_ source: ImageSource, _ reason: Failure, _ directory: String?) -> String {
        switch source {
        case .file(let written):
            return "image \"\(written)\" (\(resolve(written, directory: directory))) cannot be decoded: \(reason.message)"
        case .encoded(let bytes):
            return "\(ImageFormat(sniffing: bytes) == .jpeg ? "JPEG" : "PNG") data cannot be decoded: \(reason.message)"
        case .bitmap:
            return reason.message
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
