import JPEGCodec

/// What an encoded image is, told by its first bytes (its magic number) and
/// never by a file's extension: a `.png` that holds a JPEG decodes as the
/// JPEG it is, and a GIF named `.png` is reported as the GIF it is. Scenes
/// take PNG and JPEG, as an iOS app's assets come; the other formats are
/// recognised only so that the message can name what was found.
enum ImageFormat: Equatable {
    case png, jpeg
    /// A format that is known but not decoded, by name ("a GIF", "a WebP image").
    case unsupported(String)
    /// Bytes no known format starts with (or none at all).
    case unknown

    /// The most bytes `init(sniffing:)` reads.
    static let sniffedByteCount = 32

    init(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(Self.sniffedByteCount))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset ..< offset + prefix.count]) == prefix
        }
        func starts(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if JPEGCodec.isJPEG(head) {
            self = .jpeg
        } else if starts("GIF87a") || starts("GIF89a") {
            self = .unsupported("a GIF")
        } else if starts("RIFF") && starts("WEBP", at: 8) {
            self = .unsupported("a WebP image")
        } else if starts("ftyp", at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8 ..< 12], as: UTF8.self) : ""
            switch brand {
            case "avif", "avis": self = .unsupported("an AVIF image")
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": self = .unsupported("a HEIC image")
            default: self = .unsupported("a video or ISO media file (brand \"\(brand)\")")
            }
        } else if starts("II*\0") || starts("MM\0*") {
            self = .unsupported("a TIFF image")
        } else if starts("BM") {
            self = .unsupported("a BMP image")
        } else if starts([0x00, 0x00, 0x01, 0x00]) {
            self = .unsupported("an ICO image")
        } else if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            self = .unsupported("a JPEG XL image")
        } else if starts([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            self = .unsupported("a JPEG 2000 image")
        } else if starts("%PDF") {
            self = .unsupported("a PDF")
        } else if starts("<svg") || starts("<?xml") {
            self = .unsupported("an SVG or other XML file")
        } else {
            self = .unknown
        }
    }

    /// Why an image of this format is refused (nil for PNG and JPEG), after
    /// `subject` ("image \"x.gif\""): "image \"x.gif\" is a GIF; images must
    /// be PNG or JPEG". `head` (the first bytes) is shown for unknown data.
    func refusal(_ subject: String, head: some Collection<UInt8>) -> String? {
        switch self {
        case .png, .jpeg:
            return nil
        case .unsupported(let name):
            return "\(subject) is \(name); images must be PNG or JPEG"
        case .unknown where head.isEmpty:
            return "\(subject) is empty; images must be PNG or JPEG"
        case .unknown:
            let shown = head.prefix(8).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
            return "\(subject) is not an image in any format known here (it starts with bytes \(shown.joined(separator: " "))); "
                + "images must be PNG or JPEG"
        }
    }
}
