import CPNGShim
import Primitives
import Synchronization

extension PNGCodec {
    /// The zlib level `writeFrame` uses unless told otherwise, and PNG
    /// sequences' default (`VideoSettings.Defaults`): with the Paeth filter,
    /// the fastest level whose files stay within 1.2x of ffmpeg's (figures in
    /// benchmarks/RESULTS.md). 1 for drafts, 9 for archives.
    public static let defaultCompressionLevel = 3

    /// Writes one frame of a sequence straight to `path` (no temporary name:
    /// a sequence is written inside a temporary directory as a whole), with
    /// libpng's full API so the zlib level can be chosen.
    ///
    /// - keepAlpha: 8-bit straight-alpha RGBA (`Unpremultiply`, row by row);
    ///   otherwise 8-bit RGB of the frame over black.
    /// - compressionLevel: 0 (store) ... 9 (smallest). The bytes depend only
    ///   on the pixels and the level, so frames encoded on any thread, in any
    ///   order, are identical to a sequential run.
    ///
    /// Safe to call from several threads at once for different files. Once each
    /// thread has written a frame, no pixel memory is allocated per frame (each
    /// row is converted into a reused buffer); libpng and zlib still set up
    /// their own state per file.
    public static func writeFrame(
        _ bitmap: Bitmap, toFileAt path: String, keepAlpha: Bool,
        compressionLevel: Int = defaultCompressionLevel
    ) throws {
        guard (0 ... 9).contains(compressionLevel) else {
            throw PNGError(.encode, path: path, reason: "PNG compression level must be 0...9, not \(compressionLevel)")
        }
        try writeFile(bitmap, path: path, keepAlpha: keepAlpha, compressionLevel: Int32(compressionLevel))
    }

    /// `bitmap` as a PNG at `path` through CPNGShim's row writer, each row
    /// converted into a reused buffer just before libpng takes it: straight-alpha
    /// RGBA when `keepAlpha` (`Unpremultiply.row`), else RGB (`packRGB`: the
    /// premultiplied colour, which is the image over black). `compressionLevel`
    /// -1 means libpng's defaults, as the simplified API writes.
    static func writeFile(_ bitmap: Bitmap, path: String, keepAlpha: Bool, compressionLevel: Int32) throws {
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
                path, UInt32(width), UInt32(height), keepAlpha ? 1 : 0,
                compressionLevel, &status)
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
