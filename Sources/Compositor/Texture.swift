import Dispatch
import Primitives

/// One level of a source bitmap in the form the samplers read: premultiplied
/// RGBA8 with one padding texel at the end of every row and one padding row at
/// the bottom, copies of the edge texels.
///
/// Why the padding: a bilinear sample reads texels `(x, y)`, `(x + 1, y)`,
/// `(x, y + 1)`, `(x + 1, y + 1)` for `x` in `0 ..< width`, `y` in `0 ..< height`.
/// With the padding those four reads are always in bounds and equal the
/// edge-clamped texels, so the kernels need no clamping per read, and a texel
/// pair is one unaligned 64-bit load. Past the padding row the storage holds
/// `TexelWindows.slackTexels` zeroed texels more, read (and discarded) by the
/// windows of the last row.
///
/// Immutable after init, hence `@unchecked Sendable` (the storage is a raw pointer).
final class Texture: @unchecked Sendable {
    let width: Int
    let height: Int
    /// `(width + 1) * 4`.
    let rowBytes: Int
    /// Every texel has alpha 255 (then bilinear samples are opaque too: an item
    /// drawing it at full coverage and opacity hides what is underneath).
    let isOpaque: Bool
    /// Which chunks of each row hold anything, for skipping transparent texels; nil when the texture
    /// is opaque or was made without it (`tracksInk`).
    let ink: InkMap?
    private let storage: UnsafeMutableRawPointer
    /// Where `storage` came from and goes back to, with its capacity; nil: allocated here, freed here.
    private let pool: TexturePool?
    private let capacity: Int

    var base: UnsafeRawPointer { UnsafeRawPointer(storage) }

    /// A copy of `bitmap` (which must be well formed and non-empty) with padding.
    convenience init(_ bitmap: Bitmap, threads: Int = 1, pool: TexturePool? = nil, tracksInk: Bool = true) {
        precondition(bitmap.width > 0 && bitmap.height > 0 && bitmap.pixels.count == bitmap.width * bitmap.height * 4)
        let rowBytes = bitmap.width * 4
        self.init(width: bitmap.width, height: bitmap.height, threads: threads, pool: pool, tracksInk: tracksInk) { dst, y in
            bitmap.pixels.withUnsafeBytes { src in
                dst.copyMemory(from: src.baseAddress! + y * rowBytes, byteCount: rowBytes)
            }
        }
    }

    /// Allocates the padded storage, lets `fillRow(rowStart, y)` write the
    /// `width` texels of every row, then writes the padding and scans for opacity.
    /// With `threads > 1`, blocks of rows are filled in parallel (a row's texels
    /// depend only on `fillRow`, so the bytes do not depend on the count): a
    /// projected item's plane layer and its levels are made every frame, before
    /// the frame's bands can start.
    /// `pool`, if given, lends the storage (every byte read is written here, so a reused block gives the same texels).
    /// `tracksInk`: also map the rows' inked chunks (`InkMap`), kept unless every texel is opaque.
    init(
        width: Int, height: Int, threads: Int = 1, pool: TexturePool? = nil, tracksInk: Bool = true,
        fillRow: @Sendable (UnsafeMutableRawPointer, Int) -> Void
    ) {
        self.width = width
        self.height = height
        let rowBytes = (width + 1) * 4
        self.rowBytes = rowBytes
        let slackBytes = TexelWindows.slackTexels * 4
        let byteCount = rowBytes * (height + 1) + slackBytes
        let storage: UnsafeMutableRawPointer
        if let pool {
            (storage, capacity) = pool.take(byteCount)
        } else {
            (storage, capacity) = (.allocate(byteCount: byteCount, alignment: 16), byteCount)
        }
        self.storage = storage
        self.pool = pool
        (storage + rowBytes * (height + 1)).initializeMemory(as: UInt8.self, repeating: 0, count: slackBytes)
        let blocks = max(1, min(threads, height / Rasterizer.chunkRows))
        let opaqueBlocks = UnsafeMutablePointer<Bool>.allocate(capacity: blocks)
        defer { opaqueBlocks.deallocate() }
        let out = SendablePointer(base: opaqueBlocks)
        let texels = SendablePointer(base: storage.assumingMemoryBound(to: UInt8.self))
        let inkWords = InkMap.wordsPerRow(texels: width + 1)
        let inkRows = tracksInk ? UnsafeMutablePointer<UInt64>.allocate(capacity: inkWords * (height + 1)) : nil
        let ink = inkRows.map { SendablePointer(base: $0) }
        withoutActuallyEscaping(fillRow) { fillRow in
            let fill: @Sendable (Int) -> Void = { block in
                var opaque = true
                for y in height * block / blocks ..< height * (block + 1) / blocks {
                    let row = UnsafeMutableRawPointer(texels.base) + y * rowBytes
                    fillRow(row, y)
                    row.storeBytes(
                        of: row.load(fromByteOffset: (width - 1) * 4, as: UInt32.self),
                        toByteOffset: width * 4, as: UInt32.self)
                    if opaque { opaque = Self.rowIsOpaque(UnsafeRawPointer(row), count: width) }
                    if let ink { InkMap.scan(row, texels: width + 1, into: ink.base + y * inkWords, words: inkWords) }
                }
                out.base[block] = opaque
            }
            if blocks == 1 { fill(0) } else { DispatchQueue.concurrentPerform(iterations: blocks, execute: fill) }
        }
        (storage + height * rowBytes).copyMemory(from: storage + (height - 1) * rowBytes, byteCount: rowBytes)
        isOpaque = (0 ..< blocks).allSatisfy { opaqueBlocks[$0] }
        if let inkRows, !isOpaque {
            (inkRows + height * inkWords).update(from: inkRows + (height - 1) * inkWords, count: inkWords)
            self.ink = InkMap(wordsPerRow: inkWords, words: inkRows, rows: height + 1, texels: width + 1)
        } else {
            inkRows?.deallocate()
            self.ink = nil
        }
    }

    deinit {
        ink?.words.deallocate()
        if let pool { pool.give(storage, capacity: capacity) } else { storage.deallocate() }
    }

    private static func rowIsOpaque(_ row: UnsafeRawPointer, count: Int) -> Bool {
        var all: UInt32 = 0xFF00_0000
        for i in 0 ..< count { all &= row.load(fromByteOffset: i &* 4, as: UInt32.self) }
        return all == 0xFF00_0000
    }

    /// The texels back as a `Bitmap` (without padding), for tests.
    func bitmap() -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBytes { dst in
            for y in 0 ..< height {
                (dst.baseAddress! + y * width * 4).copyMemory(from: base + y * rowBytes, byteCount: width * 4)
            }
        }
        return Bitmap(width: width, height: height, premultipliedPixels: bytes)!
    }

    // MARK: Halving (mip levels)

    /// Half as wide (rounded up): each texel is the rounded-up mean of a
    /// horizontal pair, the last one of an odd row paired with itself.
    func halvedWidth(threads: Int = 1, pool: TexturePool? = nil, tracksInk: Bool = true) -> Texture {
        let w = (width + 1) / 2
        let source = self
        let sourceRowBytes = rowBytes
        let lastOffset = (width - 1) * 4
        return Texture(width: w, height: height, threads: threads, pool: pool, tracksInk: tracksInk) { dst, y in
            let row = source.base + y * sourceRowBytes
            for i in 0 ..< w {
                let a = row.load(fromByteOffset: 8 &* i, as: UInt32.self)
                let b = row.load(fromByteOffset: min(8 &* i &+ 4, lastOffset), as: UInt32.self)
                dst.storeBytes(of: Self.average(a, b), toByteOffset: 4 &* i, as: UInt32.self)
            }
        }
    }

    /// Half as tall (rounded up), pairing rows the same way.
    func halvedHeight(threads: Int = 1, pool: TexturePool? = nil, tracksInk: Bool = true) -> Texture {
        let h = (height + 1) / 2
        let source = self
        let sourceRowBytes = rowBytes
        let lastRow = height - 1
        let w = width
        return Texture(width: w, height: h, threads: threads, pool: pool, tracksInk: tracksInk) { dst, y in
            let r0 = source.base + 2 * y * sourceRowBytes
            let r1 = source.base + min(2 * y + 1, lastRow) * sourceRowBytes
            for i in 0 ..< w {
                let a = r0.load(fromByteOffset: 4 &* i, as: UInt32.self)
                let b = r1.load(fromByteOffset: 4 &* i, as: UInt32.self)
                dst.storeBytes(of: Self.average(a, b), toByteOffset: 4 &* i, as: UInt32.self)
            }
        }
    }

    /// Per-byte `(a + b + 1) / 2` of four channels at once (carry-free: the
    /// halved XOR never crosses a byte). Monotone, so premultiplied stays premultiplied.
    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (a | b) &- (((a ^ b) & 0xFEFE_FEFE) &>> 1)
    }
}
