import CPNGShim
import Primitives

extension PNGCodec {
    /// The zlib level `writeFrame` uses unless told otherwise.
    public static let defaultCompressionLevel = 6

    /// Writes one frame of a sequence straight to `path` (no temporary name:
    /// a sequence is written inside a temporary directory as a whole), with
    /// libpng's full API so the zlib level can be chosen.
    ///
    /// - keepAlpha: 8-bit straight-alpha RGBA (rounded as
    ///   `Bitmap.unpremultipliedPixels`); otherwise 8-bit RGB of the frame
    ///   over black.
    /// - compressionLevel: 0 (store) ... 9 (smallest). The bytes depend only
    ///   on the pixels and the level, so frames encoded on any thread, in any
    ///   order, are identical to a sequential run.
    ///
    /// Safe to call from several threads at once for different files.
    public static func writeFrame(_ bitmap: Bitmap, toFileAt path: String, keepAlpha: Bool,
                                  compressionLevel: Int = defaultCompressionLevel) throws {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count == bitmap.width * bitmap.height * 4 else {
            throw PNGError(.encode, path: path, reason:
                "a \(bitmap.width)x\(bitmap.height) frame with \(bitmap.pixels.count) bytes cannot be written")
        }
        guard bitmap.width <= Int(Int32.max) / 4, bitmap.height <= Int(Int32.max) else {
            throw PNGError(.encode, path: path, reason: "\(bitmap.width)x\(bitmap.height) pixels is too large")
        }
        var message = [CChar](repeating: 0, count: 320)
        let status = bitmap.pixels.withUnsafeBytes { pixels in
            message.withUnsafeMutableBufferPointer { buffer in
                sr_png_write_frame(path, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                   Int32(bitmap.width), Int32(bitmap.height), bitmap.bytesPerRow,
                                   keepAlpha ? 1 : 0, Int32(compressionLevel), buffer.baseAddress, buffer.count)
            }
        }
        guard status == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PNGError(.encode, path: path, reason: reason.isEmpty ? "libpng failed" : reason)
        }
    }
}
