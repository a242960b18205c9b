/// PNGCodec: PNG files to and from `Bitmap`, over libpng.
///
/// Two ways into libpng, neither letting its `longjmp` cross Swift frames: the
/// simplified API (`png_image_*`), which reports errors through a message in
/// the `png_image`, and CPNGShim, C calls over the full API that keep their
/// `setjmp` in C. Every failure (missing file, not a PNG, truncated data, a
/// full disk) becomes a thrown `PNGError` and nothing crashes.
///
/// Decoding accepts any PNG colour type, bit depth and interlacing and returns
/// premultiplied RGBA8 in sRGB (libpng converts palette, grey, 16-bit and
/// gamma; 16-bit files without gamma information count as sRGB, not linear).
/// The header is read first, and the size limits apply before any pixel memory
/// is allocated. Non-interlaced images decode through the simplified API;
/// Adam7-interlaced ones through the shim's full-API reader with the same
/// transforms, because Debian 12's libpng 1.6.39 returns 16-bit interlaced
/// images from `png_image_finish_read` with every other row wrong (a test
/// compares interlaced fixtures with non-interlaced twins).
///
/// Encoding writes straight-alpha RGBA, or RGB when every pixel is opaque.
/// Stills go through the shim's row writer (rows un-premultiplied one at a
/// time, a failed write naming the OS error) with libpng's default settings,
/// so they are byte for byte what the simplified API writes to memory; a file
/// replaces its target only once it is complete. Sequence frames, where speed
/// counts, are written over libdeflate by `PNGFrameWriter` (same pixels, its
/// own filter choice and deflate level; its file says why).
import CLibPNG
import CPNGShim
import Primitives

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum PNGCodec {
    /// The largest image, in pixels, `decode` accepts (1 GiB of RGBA8), so a
    /// hostile header cannot make it try to allocate terabytes.
    public static let maximumPixelCount = 1 << 28

    // MARK: Decoding

    /// Decodes the PNG at `path` into a premultiplied bitmap. `check` sees the width and height before any pixel
    /// memory is allocated, and may throw to refuse the image (the size a caller budgeted from the header it read
    /// earlier, should the file have changed since).
    public static func decode(fileAt path: String, check: (Int, Int) throws -> Void = { _, _ in }) throws -> Bitmap {
        try refuseDirectory(path, .decode)
        // One open file for both readers, so the header checked is the image decoded.
        guard let file = fopen(path, "rb") else {
            throw PNGError(.decode, path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var info = stat()
        let byteCount = fstat(fileno(file), &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
        var header = [UInt8](repeating: 0, count: ihdrEnd)
        let interlaced = fread(&header, 1, ihdrEnd, file) == ihdrEnd && isInterlaced(header)
        rewind(file)
        return try decode(path: path, byteCount: byteCount, interlaced: interlaced, check: check) { image in
            png_image_begin_read_from_stdio(&image, file)
        } readInterlaced: { pixels, width, height, status in
            rewind(file)
            return sr_png_read_rgba8(file, nil, 0, pixels, width, height, &status)
        }
    }

    /// Decodes PNG bytes held in memory. `name` only labels error messages; `check` as for a file.
    public static func decode(data: [UInt8], name: String? = nil, check: (Int, Int) throws -> Void = { _, _ in }) throws -> Bitmap {
        try data.withUnsafeBytes { bytes in
            try decode(path: name, byteCount: data.count, interlaced: isInterlaced(data), check: check) { image in
                png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
            } readInterlaced: { pixels, width, height, status in
                sr_png_read_rgba8(
                    nil, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                    pixels, width, height, &status)
            }
        }
    }

    /// The end of the interlace byte, the last of the IHDR fields: signature (8),
    /// chunk length and type (8), width, height (8), depth, colour type,
    /// compression, filter, interlace.
    private static let ihdrEnd = 29

    /// True when `header`, the start of a PNG, declares Adam7 interlacing. Only
    /// read once libpng has accepted the header, which makes IHDR the first
    /// chunk, at its fixed place.
    static func isInterlaced(_ header: [UInt8]) -> Bool {
        header.count >= ihdrEnd && header[12 ..< 16].elementsEqual("IHDR".utf8) && header[ihdrEnd - 1] != 0
    }

    /// The image size from the PNG header, without decoding the pixels.
    public static func readSize(fileAt path: String) throws -> (width: Int, height: Int) {
        try refuseDirectory(path, .readHeader)
        var image = newImage()
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGError(.readHeader, path: path, reason: reason(image))
        }
        return (Int(image.width), Int(image.height))
    }

    /// The fewest bytes a PNG of `width` x `height` pixels can take: one bit
    /// per pixel and a filter byte per row, deflated at the best ratio deflate
    /// can reach (1032:1), with a factor of two to spare. A file shorter than
    /// this cannot hold its pixels, so it is refused before the pixel buffer
    /// (up to 1 GiB) is allocated for a decode bound to fail.
    static func minimumByteCount(width: Int, height: Int) -> Int {
        height * (1 + (width + 7) / 8) / 2064
    }

    private static func decode(
        path: String?, byteCount: Int?, interlaced: Bool, check: (Int, Int) throws -> Void, begin: (inout png_image) -> Int32,
        readInterlaced: (UnsafeMutablePointer<UInt8>, UInt32, UInt32, inout sr_png_status) -> Int32
    ) throws -> Bitmap {
        var image = newImage()
        defer { png_image_free(&image) }
        guard begin(&image) != 0 else {
            throw PNGError(.decode, path: path, reason: reason(image))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        try check(width, height)
        guard width * height <= maximumPixelCount, width * 4 <= Int(Int32.max) else {
            throw PNGError(
                .decode, path: path,
                reason:
                    "\(width)x\(height) pixels is more than the \(maximumPixelCount) this decoder accepts")
        }
        let minimum = minimumByteCount(width: width, height: height)
        if let byteCount, byteCount < minimum {
            throw PNGError(
                .decode, path: path,
                reason:
                    "the PNG ends early: \(width)x\(height) pixels need at least \(minimum) bytes, and it has \(byteCount)")
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        // A 16-bit PNG without gAMA/sRGB is taken as sRGB-encoded, as every
        // viewer does; libpng would otherwise assume linear and wash it out.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        if interlaced {
            var status = sr_png_status()
            let result = straight.withUnsafeMutableBufferPointer { buffer in
                readInterlaced(buffer.baseAddress!, UInt32(width), UInt32(height), &status)
            }
            guard result == 0 else {
                throw PNGError(.decode, path: path, reason: reason(status))
            }
        } else {
            let finished = straight.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
            }
            guard finished != 0 else {
                throw PNGError(.decode, path: path, reason: reason(image))
            }
        }
        guard let bitmap = Bitmap(width: width, height: height, straightPixels: straight) else {
            throw PNGError(.decode, path: path, reason: "decoded pixel count does not match \(width)x\(height)")
        }
        return bitmap
    }

    // MARK: Encoding

    /// Writes `bitmap` as a PNG at `path`: RGB when every pixel is opaque, else
    /// straight-alpha RGBA, the same bytes `encode(_:)` returns. The PNG is
    /// written beside `path` under a temporary name and renamed over it when
    /// complete, so a reader never sees half a file and a failed write leaves
    /// any earlier file in place. A failed write names its OS cause, e.g.
    /// `no space left on device (the disk is full)`.
    public static func encode(_ bitmap: Bitmap, toFileAt path: String) throws {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw PNGError(.encode, path: path, reason: "a PNG cannot be \(bitmap.width)x\(bitmap.height) pixels")
        }
        let temporary = temporaryPath(beside: path)
        do {
            try writeFile(bitmap, path: temporary, keepAlpha: !isOpaque(bitmap))
        } catch let error as PNGError {
            unlink(temporary)
            throw PNGError(.encode, path: path, reason: error.reason)
        }
        guard rename(temporary, path) == 0 else {
            let why = PNGError.describe(errno: errno)
            unlink(temporary)
            throw PNGError(.encode, path: path, reason: why)
        }
    }

    /// The PNG bytes for `bitmap` (RGB when opaque, else straight-alpha RGBA).
    public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        var (image, pixels) = try prepare(bitmap, path: nil)
        defer { png_image_free(&image) }
        // A first guess that fits most images; libpng reports the exact size
        // needed when it does not, and the second attempt uses that.
        var capacity = pixels.count / 2 + 1024
        for _ in 0 ..< 2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let written = output.withUnsafeMutableBytes { out in
                pixels.withUnsafeBytes { buffer in
                    png_image_write_to_memory(&image, out.baseAddress, &size, 0, buffer.baseAddress, 0, nil)
                }
            }
            if written != 0 {
                output.removeSubrange(Int(size)...)
                return output
            }
            guard Int(size) > capacity else {
                throw PNGError(.encode, path: nil, reason: reason(image))
            }
            capacity = Int(size)
            image.warning_or_error = 0
        }
        throw PNGError(.encode, path: nil, reason: "libpng kept asking for a larger buffer")
    }

    /// The png_image and matching pixel bytes for writing `bitmap`.
    private static func prepare(_ bitmap: Bitmap, path: String?) throws -> (png_image, [UInt8]) {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw PNGError(.encode, path: path, reason: "a PNG cannot be \(bitmap.width)x\(bitmap.height) pixels")
        }
        guard bitmap.width * 4 <= Int(Int32.max), bitmap.height <= Int(Int32.max) else {
            throw PNGError(.encode, path: path, reason: "\(bitmap.width)x\(bitmap.height) pixels is too large")
        }
        var image = newImage()
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        if isOpaque(bitmap) {
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
            return (image, rgbBytes(of: bitmap))
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        return (image, bitmap.unpremultipliedPixels())
    }

    static func isOpaque(_ bitmap: Bitmap) -> Bool {
        var index = 3
        let pixels = bitmap.pixels
        while index < pixels.count {
            if pixels[index] != 255 { return false }
            index += 4
        }
        return true
    }

    /// The colour bytes of an opaque bitmap (premultiplied equals straight there).
    private static func rgbBytes(of bitmap: Bitmap) -> [UInt8] {
        let source = bitmap.pixels
        let count = bitmap.width * bitmap.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            for i in 0 ..< count {
                out[i * 3] = source[i * 4]
                out[i * 3 + 1] = source[i * 4 + 1]
                out[i * 3 + 2] = source[i * 4 + 2]
            }
            initialized = count * 3
        }
    }

    // MARK: Helpers

    private static func newImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return image
    }

    /// libpng's message from a failed call, or a fallback when it left none.
    /// Its terse "ran out of input" messages get a plainer sentence.
    private static func reason(_ image: png_image) -> String {
        plain(withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) })
    }

    /// A failed CPNGShim call as a reason: the OS error in words (after what
    /// was being done, when the shim says), else the shim's or libpng's message.
    static func reason(_ status: sr_png_status) -> String {
        let message = withUnsafeBytes(of: status.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        guard status.os_error != 0 else { return plain(message) }
        let cause = PNGError.describe(errno: status.os_error)
        return message.isEmpty ? cause : "\(message): \(cause)"
    }

    private static func plain(_ text: String) -> String {
        switch text {
        case "":
            return "libpng reported an unspecified error"
        case "Read Error", "read beyond end of data":
            return "the PNG ends early: truncated or unreadable (libpng: \(text))"
        default:
            return text
        }
    }

    /// fopen(3) opens a directory, and libpng then reports a bare read error.
    private static func refuseDirectory(_ path: String, _ operation: PNGError.Operation) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw PNGError(operation, path: path, reason: "it is a directory, not a file")
        }
    }

    private static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let suffix = String(UInt64.random(in: 0 ... UInt64.max), radix: 36)
        return "\(directory).\(name).partial-\(suffix)"
    }
}
