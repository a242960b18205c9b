import CLibDeflate
@testable import Encoders
import Foundation
@testable import PNGCodec
import Primitives
import Synchronization
import Testing

@Suite("PNGFrameWriter: PNG frames over libdeflate")
struct PNGFrameWriterTests {
    /// Bytes that hit the kernels' edges: 0 and 255, the signed-magnitude turn
    /// at 127/128/129, and repeats (ties in Paeth, equal neighbours), mixed with
    /// pseudo-random ones.
    static func edgyBytes(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        let edges: [UInt8] = [0, 1, 127, 128, 129, 254, 255]
        return (0 ..< count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            let pick = Int(state >> 16)
            return pick % 3 == 0 ? edges[(pick >> 2) % edges.count] : UInt8(truncatingIfNeeded: pick >> 5)
        }
    }

    @Test("every filter kernel and the repeat count equal their plain references at every length, first row or not")
    func kernelsMatchReferences() {
        for bpp in [3, 4] {
            for count in 0 ... 150 {
                for (seed, firstRow) in [(UInt32(1), true), (2, false), (3, false)] {
                    let row = Self.edgyBytes(count, seed: seed)
                    let above = firstRow ? [UInt8](repeating: 0, count: count) : Self.edgyBytes(count, seed: seed &* 7)
                    for filter in PNGRowFilter.allCases {
                        var fast = [UInt8](repeating: 0xEE, count: count)
                        var plain = fast
                        let fastSum = fast.withUnsafeMutableBufferPointer { out in
                            filter.apply(row, previous: above, into: out.baseAddress!, count: count, bpp: bpp)
                        }
                        let plainSum = plain.withUnsafeMutableBufferPointer { out in
                            filter.reference(row, previous: above, into: out.baseAddress!, count: count, bpp: bpp)
                        }
                        let same = fast == plain && fastSum == plainSum  // a Bool, so a failure does not print the rows
                        #expect(same, "\(filter) bpp \(bpp) count \(count) seed \(seed)")
                    }
                    // Runs: the same pixel repeated, broken here and there.
                    var runs = row
                    for i in stride(from: bpp, to: count, by: 1) where (i / bpp) % 9 != 4 { runs[i] = runs[i - bpp] }
                    for sample in [row, runs] {
                        #expect(
                            PNGRowFilter.repeatedByteCount(sample, count: count, bpp: bpp)
                                == PNGRowFilter.repeatedByteCountReference(sample, count: count, bpp: bpp),
                            "bpp \(bpp) count \(count)")
                    }
                }
            }
        }
        // A long row (past 16383 steps of 32 bytes): the 16-bit lanes are totalled before they could wrap.
        let length = 600_000
        let long = [UInt8](repeating: 128, count: length)
        let zeros = [UInt8](repeating: 0, count: length)
        var out = [UInt8](repeating: 0, count: length)
        #expect(PNGRowFilter.up.apply(long, previous: zeros, into: &out, count: length, bpp: 4) == 128 * length)
        #expect(PNGRowFilter.repeatedByteCount(long, count: length, bpp: 4) == length - 4)
    }

    /// A frame with every kind of row: flat fills and UI-like runs (left
    /// unfiltered at level 1), then noise with alpha 0, 255 and between.
    static func mixedFrame(width: Int, height: Int) -> Bitmap {
        let top = transitionLikeFrames(width: width, height: height, count: 1, alpha: true)[0]
        let noise = variedPremultipliedBitmap(width: width, height: height)
        var frame = Bitmap(width: width, height: height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let source = y < height / 2 ? top : noise
                let i = 4 * (y * width + x)
                for c in 0 ..< 4 { frame.pixels[i + c] = source.pixels[i + c] }
            }
        }
        return frame
    }

    /// What the file must hold: straight RGBA (`Unpremultiply.referenceRow`) or
    /// the premultiplied colour as RGB.
    static func expectedPixels(_ bitmap: Bitmap, keepAlpha: Bool) -> [UInt8] {
        let count = bitmap.width * bitmap.height
        var out = [UInt8](repeating: 0, count: count * (keepAlpha ? 4 : 3))
        bitmap.pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                if keepAlpha {
                    Unpremultiply.referenceRow(source.baseAddress!, into: destination.baseAddress!, count: count)
                } else {
                    PNGCodec.packRGBReference(source.baseAddress!, into: destination.baseAddress!, count: count)
                }
            }
        }
        return out
    }

    @Test("files decode to the frame's pixels with ffmpeg and with libpng, at every level, RGB and RGBA, odd widths")
    func decodesEverywhere() throws {
        try withTemporaryDirectory { dir in
            for (width, height) in [(1, 1), (37, 23), (67, 6), (301, 40)] {
                let frame = Self.mixedFrame(width: width, height: height)
                for level in [0, 1, 2, 9] {
                    for keepAlpha in [true, false] {
                        let path = dir + "/f.png"
                        try PNGCodec.writeFrame(frame, toFileAt: path, keepAlpha: keepAlpha, compressionLevel: level)
                        let label = "\(width)x\(height) level \(level) alpha \(keepAlpha)"
                        let decoded = try decodeRaw(
                            path, pixelFormat: keepAlpha ? "rgba" : "rgb24", bytesPerPixel: keepAlpha ? 4 : 3,
                            width: width, height: height)
                        let sameAsFrame = decoded == [Self.expectedPixels(frame, keepAlpha: keepAlpha)]
                        #expect(sameAsFrame, "ffmpeg, \(label)")
                        // libpng reads the image the libpng writer makes of the same pixels.
                        let reference = try PNGCodec.decode(data: PNGCodec.encode(keepAlpha ? frame : opaque(frame)))
                        let sameAsLibpng = try PNGCodec.decode(fileAt: path).pixels == reference.pixels
                        #expect(sameAsLibpng, "libpng, \(label)")
                    }
                }
            }
        }
    }

    /// The frame over black, opaque: what an RGB file holds.
    func opaque(_ frame: Bitmap) -> Bitmap {
        var copy = frame
        for i in stride(from: 3, to: copy.pixels.count, by: 4) { copy.pixels[i] = 255 }
        return copy
    }

    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Undoes the filters as the specification defines them (section 9).
    static func unfilter(_ data: [UInt8], width: Int, height: Int, bpp: Int) -> (pixels: [UInt8], filters: [UInt8]) {
        let stride = width * bpp
        var pixels = [UInt8](repeating: 0, count: stride * height)
        var filters: [UInt8] = []
        for y in 0 ..< height {
            let type = data[y * (stride + 1)]
            filters.append(type)
            for i in 0 ..< stride {
                let x = Int(data[y * (stride + 1) + 1 + i])
                let a = i >= bpp ? Int(pixels[y * stride + i - bpp]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = i >= bpp && y > 0 ? Int(pixels[(y - 1) * stride + i - bpp]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default: predictor = Int(PNGRowFilter.paethReference(UInt8(a), UInt8(b), UInt8(c)))
                }
                pixels[y * stride + i] = UInt8((x + predictor) & 0xFF)
            }
        }
        return (pixels, filters)
    }

    @Test("chunks as PNG specifies (CRCs checked bit by bit); the filters the level says; unfiltered by hand to the pixels")
    func chunksAndFilters() throws {
        let width = 53
        let height = 20
        let frame = Self.mixedFrame(width: width, height: height)
        for level in [0, 1, 2, 6] {
            for keepAlpha in [true, false] {
                let label = "level \(level) alpha \(keepAlpha)"
                let bytes = try PNGFrameWriter(compressionLevel: level).encoded(frame, keepAlpha: keepAlpha)
                #expect(Array(bytes[0 ..< 8]) == [137, 80, 78, 71, 13, 10, 26, 10])
                var offset = 8
                var types: [String] = []
                var stream: [UInt8] = []
                while offset < bytes.count {
                    let length = Self.bigEndian(bytes, at: offset)
                    let type = String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)
                    types.append(type)
                    let data = Array(bytes[offset + 8 ..< offset + 8 + length])
                    #expect(
                        Self.crc32(bytes[offset + 4 ..< offset + 8 + length])
                            == UInt32(Self.bigEndian(bytes, at: offset + 8 + length)), "\(type) CRC, \(label)")
                    switch type {
                    case "IHDR":
                        #expect(Self.bigEndian(data, at: 0) == width && Self.bigEndian(data, at: 4) == height)
                        #expect(Array(data[8...]) == [8, keepAlpha ? 6 : 2, 0, 0, 0])
                    case "sRGB": #expect(data == [0])
                    case "IDAT": stream += data
                    default: break
                    }
                    offset += 12 + length
                }
                #expect(types == ["IHDR", "sRGB", "IDAT", "IEND"], "\(label)")
                let bpp = keepAlpha ? 4 : 3
                var inflated = [UInt8](repeating: 0, count: (width * bpp + 1) * height)
                let decompressor = try #require(libdeflate_alloc_decompressor())
                defer { libdeflate_free_decompressor(decompressor) }
                let result = libdeflate_zlib_decompress(decompressor, stream, stream.count, &inflated, inflated.count, nil)
                try #require(result == LIBDEFLATE_SUCCESS, "\(label)")
                let (pixels, filters) = Self.unfilter(inflated, width: width, height: height, bpp: bpp)
                let unfilteredAsFrame = pixels == Self.expectedPixels(frame, keepAlpha: keepAlpha)
                #expect(unfilteredAsFrame, "\(label)")
                let flatRows = filters[1 ..< height / 4]  // the gradient above the card: runs of equal pixels
                switch level {
                case 0: #expect(filters.allSatisfy { $0 == 0 }, "\(label): \(filters)")
                case 1:
                    #expect(flatRows.allSatisfy { $0 == 0 }, "\(label): \(filters)")
                    #expect(filters[(height / 2)...].contains { $0 != 0 }, "\(label): noise rows filtered, \(filters)")
                default: #expect(flatRows.allSatisfy { $0 != 0 }, "\(label): every row by the heuristic, \(filters)")
                }
            }
        }
    }

    @Test("the bytes depend only on the pixels: a reused writer, a new one, 1 and 3 sequence workers agree")
    func deterministic() throws {
        let frames = (0 ..< 3).map { Self.mixedFrame(width: 97 + $0, height: 31) }
        let reused = try PNGFrameWriter(compressionLevel: 1)
        let first = try reused.encoded(frames[0], keepAlpha: true)
        _ = try reused.encoded(frames[1], keepAlpha: false)
        _ = try reused.encoded(frames[2], keepAlpha: true)
        #expect(try reused.encoded(frames[0], keepAlpha: true) == first)
        #expect(try PNGFrameWriter(compressionLevel: 1).encoded(frames[0], keepAlpha: true) == first)
        try withTemporaryDirectory { dir in
            let moving = transitionLikeFrames(width: 160, height: 90, count: 12, alpha: false)
            for threads in [1, 3] {
                let settings = VideoSettings(
                    width: 160, height: 90, framesPerSecond: 30, background: .white, encoderThreads: threads)
                let encoder = try OutputFormat.encoder(forOutputPath: dir + "/t\(threads)/", settings: settings)
                for frame in moving { try encoder.append(frame) }
                try encoder.finish()
            }
            for index in 0 ..< 12 {
                let name = PNGSequenceEncoder.frameName(index)
                #expect(try fileBytes(dir + "/t1/" + name) == fileBytes(dir + "/t3/" + name), "\(name)")
            }
        }
    }

    @Test("a level outside 0...9 is refused with the reason")
    func badLevel() {
        for level in [-1, 10] {
            let error = #expect(throws: PNGError.self) { try PNGFrameWriter(compressionLevel: level, path: "f.png") }
            #expect(error?.description == "cannot write PNG 'f.png': PNG compression level must be 0...9, not \(level)")
        }
    }
}

@Suite("PNG sequence workers' priority")
struct PNGWorkerPriorityTests {
    @Test("a worker started with a niceness runs that much below the process; one without, at its priority")
    func workerNiceness() throws {
        #if os(Linux)
        errno = 0
        let process = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        try #require(errno == 0)
        let seen = Mutex<[Int32]>([])
        for niceness: Int32 in [PNGSequenceEncoder.workerNiceness, 0] {
            let thread = WorkerThread(name: "probe", niceness: niceness) {
                let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                seen.withLock { $0.append(mine) }
            }
            thread.join()
        }
        #expect(PNGSequenceEncoder.workerNiceness > 0)
        #expect(seen.withLock { $0 } == [min(19, process + PNGSequenceEncoder.workerNiceness), process])
        #endif
    }
}
