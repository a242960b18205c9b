/// PNGFrameWriter: the frames of a PNG sequence as files, over libdeflate.
///
/// A frame becomes RGB (opaque canvases: the premultiplied colour, which is the
/// frame over black; `PNGCodec.packRGB`) or straight-alpha RGBA
/// (`Unpremultiply.row`, the conversion every encoder uses), 8 bits a channel,
/// non-interlaced, tagged sRGB: the pixels libpng was given before. Each row gets a
/// filter (`PNGRowFilter`), the whole filtered image is deflated in one
/// `libdeflate_zlib_compress` call, and the file is written in one `write(2)`:
/// signature, IHDR, sRGB, one IDAT, IEND, CRCs by `libdeflate_crc32`. The bytes
/// depend only on the pixels and the level, never on the thread or the order
/// frames are written in.
///
/// The level is libdeflate's (0 stores ... 9), with the filter choice tied to it:
/// - 0: no filter (stored data gains nothing from one);
/// - 1, the default: a row whose bytes mostly (3 in 4) repeat the pixel to their
///   left, the flat fills and runs of UI frames, is left unfiltered; any other row
///   gets the filter with the least sum of |byte as Int8| (the usual heuristic);
/// - 2 to 9: that heuristic on every row.
///
/// Why (1080p benchmark scene; dated figures in benchmarks/RESULTS.md): libpng
/// over zlib at level 3 with the Paeth filter, the writer this replaces, spent
/// 3.8x the instructions and about 3.5x the CPU time of this one's default for
/// files 1% smaller. At libdeflate level 1, filtered flat rows deflate about 1.5x
/// slower than the same rows unfiltered (its fastest match finder does worse on
/// them), so filtering every row cost 1.5x the deflate time for a 12% smaller
/// file; leaving every row unfiltered made photograph-like frames 1.7x larger.
/// Run rows unfiltered and the heuristic elsewhere keeps the speed of the first
/// on UI frames and the size of the heuristic on photographs. From level 2 on,
/// the slower match finders lose nothing on filtered rows, so every row is filtered.
/// Rejected after a prototype: a deflate of our own with matches only one pixel
/// and one row back (run-length style, as the fastest PNG encoders do) found its
/// matches in 0.4x of libdeflate's level-1 time, but by an entropy estimate its
/// files would be 1.2x libdeflate's, 1.35x `ffmpeg -c:v png`'s: past the 1.2x budget.
///
/// Memory: one writer holds the filtered image (a byte per channel, one per row)
/// and its compressed form, bounded by the same size, both reused frame after
/// frame; a writer serves one thread at a time.
import CLibDeflate
import CPNGShim
import Primitives
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PNGCodec {
    /// The level `writeFrame` uses unless told otherwise, and PNG sequences'
    /// default (`VideoSettings.Defaults`): libdeflate's fastest, with flat rows
    /// unfiltered (`PNGFrameWriter`). 0 stores; 9 is smallest.
    public static let defaultCompressionLevel = 1

    /// Writes one frame of a sequence straight to `path` (no temporary name:
    /// a sequence is written inside a temporary directory as a whole) with a
    /// new `PNGFrameWriter`; a sink writing many frames keeps its writers.
    ///
    /// - keepAlpha: 8-bit straight-alpha RGBA (`Unpremultiply`); otherwise
    ///   8-bit RGB of the frame over black.
    /// - compressionLevel: 0 (store) ... 9 (smallest).
    public static func writeFrame(
        _ bitmap: Bitmap, toFileAt path: String, keepAlpha: Bool,
        compressionLevel: Int = defaultCompressionLevel
    ) throws {
        let writer = try PNGFrameWriter(compressionLevel: compressionLevel, path: path)
        try writer.write(bitmap, toFileAt: path, keepAlpha: keepAlpha)
    }

    /// `bitmap` as a PNG at `path` through CPNGShim's row writer, each row
    /// converted into a reused buffer just before libpng takes it: straight-alpha
    /// RGBA when `keepAlpha` (`Unpremultiply.row`), else RGB (`packRGB`: the
    /// premultiplied colour, which is the image over black), with libpng's
    /// defaults, as the simplified API writes. Stills take this way.
    static func writeFile(_ bitmap: Bitmap, path: String, keepAlpha: Bool) throws {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0, bitmap.pixels.count == width * height * 4 else {
            throw PNGError(
                .encode, path: path,
                reason:
                    "a \(width)x\(height) image with \(bitmap.pixels.count) bytes cannot be written")
        }
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw PNGError(.encode, path: path, reason: "\(width)x\(height) pixels is too large")
        }
        var status = sr_png_status()
        guard
            let writer = sr_png_writer_open(
                path, UInt32(width), UInt32(height), keepAlpha ? 1 : 0, &status)
        else {
            throw PNGError(.encode, path: path, reason: reason(status))
        }
        var handedOver = false
        defer { if !handedOver { sr_png_writer_discard(writer) } }
        try bitmap.pixels.withUnsafeBytes { pixels in
            let buffer = RowBufferPool.shared.take(byteCount: width * 4)
            defer { RowBufferPool.shared.recycle(buffer) }
            let row = buffer.bytes.assumingMemoryBound(to: UInt8.self)
            for y in 0 ..< height {
                let source = pixels.baseAddress! + y * width * 4
                if keepAlpha {
                    Unpremultiply.row(source, into: buffer.bytes, count: width)
                } else {
                    packRGB(source, into: buffer.bytes, count: width)
                }
                guard sr_png_writer_write_row(writer, row, &status) == 0 else {
                    throw PNGError(.encode, path: path, reason: reason(status))
                }
            }
        }
        handedOver = true
        guard sr_png_writer_finish(writer, &status) == 0 else {
            throw PNGError(.encode, path: path, reason: reason(status))
        }
    }

    /// RGB8 from `count` RGBA8 pixels (the alpha bytes dropped), `3 * count`
    /// bytes at `destination`: four pixels per step as three 32-bit words,
    /// then one pixel at a time. `packRGBReference` says it plainly.
    static func packRGB(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int) {
        var i = 0
        #if _endian(little)
        while i &+ 4 <= count {
            let p0 = source.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)
            let p1 = source.loadUnaligned(fromByteOffset: 4 &* i &+ 4, as: UInt32.self)
            let p2 = source.loadUnaligned(fromByteOffset: 4 &* i &+ 8, as: UInt32.self)
            let p3 = source.loadUnaligned(fromByteOffset: 4 &* i &+ 12, as: UInt32.self)
            // Little-endian words: byte k of the output is byte k of the
            // RGB stream r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3.
            let out = destination + 3 &* i
            out.storeBytes(of: (p0 & 0x00FF_FFFF) | (p1 &<< 24), as: UInt32.self)
            out.storeBytes(of: ((p1 &>> 8) & 0xFFFF) | (p2 &<< 16), toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: ((p2 &>> 16) & 0xFF) | (p3 &<< 8), toByteOffset: 8, as: UInt32.self)
            i &+= 4
        }
        #endif
        while i < count {
            for c in 0 ..< 3 {
                destination.storeBytes(
                    of: source.load(fromByteOffset: 4 &* i &+ c, as: UInt8.self),
                    toByteOffset: 3 &* i &+ c, as: UInt8.self)
            }
            i &+= 1
        }
    }

    /// The plain byte copy `packRGB` must equal.
    static func packRGBReference(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int) {
        for i in 0 ..< count {
            for c in 0 ..< 3 {
                destination.storeBytes(
                    of: source.load(fromByteOffset: 4 * i + c, as: UInt8.self), toByteOffset: 3 * i + c,
                    as: UInt8.self)
            }
        }
    }
}

/// Frames to PNG files (the file's doc says how and why). Not for concurrent use:
/// a writer keeps its buffers and compressor between frames, so a thread takes one
/// at a time (`PNGFrameWriter.Pool`).
public final class PNGFrameWriter: @unchecked Sendable {
    public let compressionLevel: Int
    private let compressor: OpaquePointer
    /// The filtered image: per row, the filter type byte and the filtered bytes.
    private var filtered = ByteBuffer()
    /// The file: the bytes before the deflate stream, the stream, the bytes after.
    private var file = ByteBuffer()
    /// A row of zeros (the row above the first), two rows kept unfiltered for the
    /// row below once their place in `filtered` holds filtered bytes, and two
    /// candidate filterings of a row.
    private var zeros = ByteBuffer(), savedRows = (ByteBuffer(), ByteBuffer()), trial = ByteBuffer(), best = ByteBuffer()

    /// The bytes before the deflate stream: signature (8), IHDR (12 + 13),
    /// sRGB (12 + 1), the IDAT length and type (8).
    static let prefixCount = 8 + 25 + 13 + 8
    /// The IDAT CRC and IEND.
    static let suffixCount = 4 + 12
    /// The largest chunk the PNG format allows.
    static let maximumChunkLength = Int(Int32.max)

    /// `path` only labels the error for an invalid level.
    public init(compressionLevel: Int, path: String? = nil) throws {
        guard (0 ... 9).contains(compressionLevel) else {
            throw PNGError(.encode, path: path, reason: "PNG compression level must be 0...9, not \(compressionLevel)")
        }
        guard let compressor = libdeflate_alloc_compressor(Int32(compressionLevel)) else {
            throw PNGError(.encode, path: path, reason: "libdeflate could not make a level \(compressionLevel) compressor")
        }
        self.compressionLevel = compressionLevel
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// Writes `bitmap` as a PNG at `path`, created or truncated. A failure names
    /// its cause (`cannot create the file: read-only file system`; `no space left
    /// on device (the disk is full)`); a file cut short by a failed write stays
    /// for the caller to remove.
    public func write(_ bitmap: Bitmap, toFileAt path: String, keepAlpha: Bool) throws {
        let bytes = try encode(bitmap, keepAlpha: keepAlpha, path: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw PNGError(.encode, path: path, reason: "cannot create the file: \(PNGError.describe(errno: errno))")
        }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let cause = written < 0 ? errno : EIO
                close(descriptor)
                throw PNGError(.encode, path: path, reason: PNGError.describe(errno: cause))
            }
            offset += written
        }
        guard close(descriptor) == 0 else {
            throw PNGError(.encode, path: path, reason: PNGError.describe(errno: errno))
        }
    }

    /// The PNG bytes of `bitmap`, a copy (for tests and callers that keep them).
    public func encoded(_ bitmap: Bitmap, keepAlpha: Bool) throws -> [UInt8] {
        Array(try encode(bitmap, keepAlpha: keepAlpha, path: nil))
    }

    /// The PNG of `bitmap` in `file`, valid until the next call.
    func encode(_ bitmap: Bitmap, keepAlpha: Bool, path: String?) throws -> UnsafeRawBufferPointer {
        let width = bitmap.width
        let height = bitmap.height
        guard width > 0, height > 0, bitmap.pixels.count == width * height * 4 else {
            throw PNGError(
                .encode, path: path,
                reason: "a \(width)x\(height) image with \(bitmap.pixels.count) bytes cannot be written")
        }
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw PNGError(.encode, path: path, reason: "\(width)x\(height) pixels is too large")
        }
        let bpp = keepAlpha ? 4 : 3
        let stride = width * bpp
        let filteredCount = (stride + 1) * height
        filtered.reserve(filteredCount)
        for row in [zeros, savedRows.0, savedRows.1, trial, best] { row.reserve(stride) }
        zeros.bytes.initialize(repeating: 0, count: stride)
        bitmap.pixels.withUnsafeBytes { pixels in
            // Each row is converted straight into its place in `filtered`; `above` is
            // the row above, unfiltered, wherever it is.
            var above = UnsafePointer(zeros.bytes)
            for y in 0 ..< height {
                let source = pixels.baseAddress! + y * width * 4
                let out = filtered.bytes + y * (stride + 1)
                let row = out + 1
                if keepAlpha {
                    Unpremultiply.row(source, into: row, count: width)
                } else {
                    PNGCodec.packRGB(source, into: row, count: width)
                }
                if compressionLevel == 0 || (compressionLevel == 1 && Self.isRunRow(row, count: stride, bpp: bpp)) {
                    out[0] = PNGRowFilter.none.rawValue
                    above = UnsafePointer(row)
                    continue
                }
                let saved = above == UnsafePointer(savedRows.0.bytes) ? savedRows.1 : savedRows.0
                saved.bytes.update(from: row, count: stride)
                out[0] = filterRow(saved.bytes, above: above, into: row, stride: stride, bpp: bpp).rawValue
                above = UnsafePointer(saved.bytes)
            }
        }
        let bound = libdeflate_zlib_compress_bound(compressor, filteredCount)
        file.reserve(Self.prefixCount + bound + Self.suffixCount)
        let streamCount = libdeflate_zlib_compress(
            compressor, filtered.bytes, filteredCount, file.bytes + Self.prefixCount, bound)
        guard streamCount > 0 else {
            throw PNGError(.encode, path: path, reason: "libdeflate could not compress the image")
        }
        guard streamCount <= Self.maximumChunkLength else {
            throw PNGError(.encode, path: path, reason: "\(width)x\(height) pixels is too large for one PNG chunk")
        }
        var header = PNGChunks(file.bytes)
        header.append(PNGChunks.signature)
        header.chunk("IHDR", [UInt8](bigEndian: UInt32(width)) + [UInt8](bigEndian: UInt32(height)) + [8, keepAlpha ? 6 : 2, 0, 0, 0])
        header.chunk("sRGB", [0])
        header.chunkHeader("IDAT", length: streamCount)
        var trailer = PNGChunks(file.bytes + Self.prefixCount + streamCount)
        trailer.appendCRC(of: file.bytes + Self.prefixCount - 4, count: streamCount + 4)
        trailer.chunk("IEND", [])
        return UnsafeRawBufferPointer(start: file.bytes, count: Self.prefixCount + streamCount + Self.suffixCount)
    }

    /// The filter of least sum for `row` (`above` it), its bytes written to `out`,
    /// which holds the row unfiltered already.
    private func filterRow(
        _ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        stride: Int, bpp: Int
    ) -> PNGRowFilter {
        var choice = PNGRowFilter.none
        var least = PNGRowFilter.absoluteSum(row, count: stride)
        for filter in [PNGRowFilter.sub, .up, .average, .paeth] {
            let sum = filter.apply(row, previous: above, into: trial.bytes, count: stride, bpp: bpp)
            if sum < least {
                least = sum
                choice = filter
                swap(&trial, &best)
            }
        }
        if choice != .none { out.update(from: best.bytes, count: stride) }
        return choice
    }

    /// A row at least 3 in 4 of whose bytes repeat the pixel to their left.
    static func isRunRow(_ row: UnsafePointer<UInt8>, count: Int, bpp: Int) -> Bool {
        PNGRowFilter.repeatedByteCount(row, count: count, bpp: bpp) * 4 >= (count - bpp) * 3
    }

    /// Writers kept for reuse by several threads (a PNG sequence's workers):
    /// `take` one, `recycle` it after the frame. Holds at most as many as were
    /// in use at once, and frees them with the pool.
    public final class Pool: Sendable {
        public let compressionLevel: Int
        private let idle = Mutex<[PNGFrameWriter]>([])

        public init(compressionLevel: Int) {
            self.compressionLevel = compressionLevel
        }

        public func take(path: String? = nil) throws -> PNGFrameWriter {
            if let writer = idle.withLock({ $0.popLast() }) { return writer }
            return try PNGFrameWriter(compressionLevel: compressionLevel, path: path)
        }

        public func recycle(_ writer: PNGFrameWriter) {
            idle.withLock { $0.append(writer) }
        }
    }
}

/// Bytes a writer reuses, grown on demand (never shrunk), 32-byte aligned.
final class ByteBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init() {
        capacity = 0
        bytes = .allocate(capacity: 0)
    }

    func reserve(_ count: Int) {
        guard count > capacity else { return }
        bytes.deallocate()
        bytes = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 32).bindMemory(to: UInt8.self, capacity: count)
        capacity = count
    }

    deinit { bytes.deallocate() }
}

/// Chunks written in place: length, type, data, CRC (of type and data).
struct PNGChunks {
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    private(set) var cursor: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { cursor = start }

    mutating func append(_ bytes: [UInt8]) {
        cursor.update(from: bytes, count: bytes.count)
        cursor += bytes.count
    }

    mutating func chunkHeader(_ type: String, length: Int) {
        append([UInt8](bigEndian: UInt32(length)) + Array(type.utf8))
    }

    mutating func chunk(_ type: String, _ data: [UInt8]) {
        chunkHeader(type, length: data.count)
        append(data)
        appendCRC(of: cursor - data.count - 4, count: data.count + 4)
    }

    /// The CRC of the `count` bytes at `start` (a chunk's type and data).
    mutating func appendCRC(of start: UnsafePointer<UInt8>, count: Int) {
        append([UInt8](bigEndian: libdeflate_crc32(0, start, count)))
    }
}

/// write(2), out of reach of `PNGFrameWriter.write`'s name.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension [UInt8] {
    init(bigEndian value: UInt32) {
        self = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// A row-sized scratch buffer of bytes, owned by one writer at a time.
final class RowBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = .allocate(byteCount: byteCount, alignment: 32)
        bytes.bindMemory(to: UInt8.self, capacity: byteCount)
    }

    deinit { bytes.deallocate() }
}

/// Row buffers kept between calls, so a thread writing frame after frame
/// reuses one instead of allocating per frame. Bounded whatever is written:
/// at most `limit` buffers, none larger than `keptByteLimit`.
final class RowBufferPool: Sendable {
    static let shared = RowBufferPool()

    let limit: Int
    let keptByteLimit: Int
    private let buffers = Mutex<[RowBuffer]>([])

    init(limit: Int = 64, keptByteLimit: Int = 1 << 22) {
        self.limit = limit
        self.keptByteLimit = keptByteLimit
    }

    /// A buffer of at least `byteCount` bytes; hand it back with `recycle`.
    func take(byteCount: Int) -> RowBuffer {
        if let reused = buffers.withLock({ $0.popLast() }), reused.byteCount >= byteCount { return reused }
        return RowBuffer(byteCount: byteCount)
    }

    func recycle(_ buffer: RowBuffer) {
        guard buffer.byteCount <= keptByteLimit else { return }
        buffers.withLock { if $0.count < limit { $0.append(buffer) } }
    }

    /// How many buffers the pool holds now.
    var count: Int { buffers.withLock { $0.count } }
}
