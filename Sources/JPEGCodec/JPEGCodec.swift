/// JPEGCodec: JPEG files and data to `Bitmap`, over libjpeg-turbo.
///
/// Images come to a scene as the assets of an iOS app do, and those are PNG
/// or JPEG. libjpeg's error handling leaves by `longjmp` (its default calls
/// `exit()`), so all of it lives in the CJPEGShim C target, whose calls
/// report failure by return value: a corrupt or truncated JPEG is a thrown
/// `JPEGError`, never a crash or a message on stderr. Data that ends early or
/// holds bad codes is a failure, where libjpeg alone would warn and paint the
/// rest grey.
///
/// Baseline and progressive, greyscale and colour (YCbCr, RGB) decode
/// through libjpeg-turbo's own colour conversion; CMYK and YCCK are converted
/// to RGB without colour management (an approximation: no ICC profile is
/// read). The EXIF orientation is applied, so the bitmap is upright as
/// UIKit shows it. A JPEG is opaque: every pixel has alpha 255, so the
/// straight pixels are the premultiplied ones.
///
/// The header is read first and handed to the caller's check before any
/// pixel memory is allocated, from the same open file or bytes, so the size
/// checked is the size decoded. Rows are written into a buffer whose pages
/// the system provides only as they are written, so a small file claiming a
/// large image costs the rows it really holds.
import CJPEGShim
import Primitives

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum JPEGCodec {
    /// The largest image, in pixels, `decode` accepts (1 GiB of RGBA8), as for PNG.
    public static let maximumPixelCount = 1 << 28

    /// What a JPEG's header says.
    public struct Header: Sendable, Equatable {
        /// The size as stored in the file.
        public var storedWidth: Int
        public var storedHeight: Int
        /// 1 (greyscale), 3 (colour) or 4 (CMYK or YCCK).
        public var components: Int
        public var isCMYK: Bool
        public var isProgressive: Bool
        /// The EXIF orientation, 1 (upright) ... 8; 1 when the file has none.
        public var orientation: Int

        /// The size shown: orientations 5 to 8 turn the image a quarter.
        public var width: Int { orientation >= 5 ? storedHeight : storedWidth }
        public var height: Int { orientation >= 5 ? storedWidth : storedHeight }
    }

    /// True when `bytes` start as a JPEG does (SOI, then a marker).
    public static func isJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// True when `bytes` are a JPEG cut off right after its start-of-image marker (FF D8 and nothing more): too short
    /// for `isJPEG`, but nothing else starts so, so it is a damaged JPEG rather than "not an image".
    public static func isCutAfterStartMarker(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.elementsEqual([0xFF, 0xD8])
    }

    /// The header of JPEG bytes held in memory, without decoding the pixels.
    public static func readHeader(data: [UInt8], name: String? = nil) throws -> Header {
        try data.withUnsafeBufferPointer { bytes in
            var info = sr_jpeg_info()
            var status = sr_jpeg_status()
            guard let decoder = sr_jpeg_decoder_open(nil, bytes.baseAddress, bytes.count, &info, &status) else {
                throw JPEGError(.readHeader, path: name, reason: reason(status))
            }
            sr_jpeg_decoder_close(decoder)
            return Header(info)
        }
    }

    /// The header of the JPEG at `path`, without decoding the pixels.
    public static func readHeader(fileAt path: String) throws -> Header {
        try withDecoder(fileAt: path, operation: .readHeader) { _, header in header }
    }

    /// Decodes the JPEG at `path`. `check` sees the header before any pixel
    /// memory is allocated, and may throw to refuse the image.
    public static func decode(fileAt path: String, check: (Header) throws -> Void = { _ in }) throws -> Bitmap {
        try withDecoder(fileAt: path, operation: .decode) { decoder, header in
            try check(header)
            return try read(decoder, header, path: path)
        }
    }

    /// Decodes JPEG bytes held in memory. `name` only labels error messages;
    /// `check` sees the header before any pixel memory is allocated.
    public static func decode(data: [UInt8], name: String? = nil, check: (Header) throws -> Void = { _ in }) throws -> Bitmap {
        try data.withUnsafeBufferPointer { bytes in
            var info = sr_jpeg_info()
            var status = sr_jpeg_status()
            guard let decoder = sr_jpeg_decoder_open(nil, bytes.baseAddress, bytes.count, &info, &status) else {
                throw JPEGError(.decode, path: name, reason: reason(status))
            }
            defer { sr_jpeg_decoder_close(decoder) }
            let header = Header(info)
            try check(header)
            return try read(decoder, header, path: name)
        }
    }

    // MARK: Helpers

    private static func withDecoder<T>(
        fileAt path: String, operation: JPEGError.Operation, _ body: (OpaquePointer, Header) throws -> T
    ) throws -> T {
        var information = stat()
        if stat(path, &information) == 0, information.st_mode & S_IFMT == S_IFDIR {
            throw JPEGError(operation, path: path, reason: "it is a directory, not a file")
        }
        guard let file = fopen(path, "rb") else {
            throw JPEGError(operation, path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var info = sr_jpeg_info()
        var status = sr_jpeg_status()
        guard let decoder = sr_jpeg_decoder_open(file, nil, 0, &info, &status) else {
            throw JPEGError(operation, path: path, reason: reason(status))
        }
        defer { sr_jpeg_decoder_close(decoder) }
        return try body(decoder, Header(info))
    }

    private static func read(_ decoder: OpaquePointer, _ header: Header, path: String?) throws -> Bitmap {
        let width = header.storedWidth
        let height = header.storedHeight
        guard width > 0, height > 0, width * height <= maximumPixelCount else {
            throw JPEGError(
                .decode, path: path, reason: "\(width)x\(height) pixels is more than the \(maximumPixelCount) this decoder accepts")
        }
        var status = sr_jpeg_status()
        var failed = false
        // Uninitialised capacity: untouched pages cost nothing, so a truncated
        // file makes resident only the rows it held before it failed.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            failed = sr_jpeg_decoder_read_rgba8(decoder, buffer.baseAddress, &status) != 0
            initialized = failed ? 0 : buffer.count
        }
        if failed { throw JPEGError(.decode, path: path, reason: reason(status)) }
        guard let bitmap = Bitmap(width: width, height: height, premultipliedPixels: pixels) else {
            throw JPEGError(.decode, path: path, reason: "decoded pixel count does not match \(width)x\(height)")
        }
        return oriented(bitmap, header.orientation)
    }

    /// `bitmap` turned and mirrored upright for EXIF `orientation` (1 ... 8).
    static func oriented(_ bitmap: Bitmap, _ orientation: Int) -> Bitmap {
        guard (2 ... 8).contains(orientation) else { return bitmap }
        let width = bitmap.width
        let height = bitmap.height
        let turned = orientation >= 5
        let outWidth = turned ? height : width
        let outHeight = turned ? width : height
        let source = bitmap.pixels
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            source.withUnsafeBufferPointer { input in
                for y in 0 ..< outHeight {
                    for x in 0 ..< outWidth {
                        // The stored pixel shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (width - 1 - x, y)
                        case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                        case 4: (sx, sy) = (x, height - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, height - 1 - x)
                        case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                        default: (sx, sy) = (width - 1 - y, x)
                        }
                        let from = (sy * width + sx) * 4
                        let to = (y * outWidth + x) * 4
                        out[to] = input[from]
                        out[to + 1] = input[from + 1]
                        out[to + 2] = input[from + 2]
                        out[to + 3] = input[from + 3]
                    }
                }
            }
            initialized = width * height * 4
        }
        return Bitmap(width: outWidth, height: outHeight, premultipliedPixels: pixels)!
    }

    private static func reason(_ status: sr_jpeg_status) -> String {
        let message = withUnsafeBytes(of: status.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        switch message {
        case "": return "libjpeg reported an unspecified error"
        case let text where text.hasPrefix("Premature end of JPEG file"):
            return "the JPEG ends early: truncated (libjpeg: \(text))"
        case let text where text.hasPrefix("Corrupt JPEG data: premature end of data segment"):
            return "the JPEG's image data ends early: truncated or corrupt (libjpeg: \(text))"
        default: return message
        }
    }
}

extension JPEGCodec.Header {
    init(_ info: sr_jpeg_info) {
        self.init(
            storedWidth: Int(info.width), storedHeight: Int(info.height), components: Int(info.components),
            isCMYK: info.is_cmyk != 0, isProgressive: info.is_progressive != 0, orientation: Int(info.orientation))
    }
}
