import CFFmpegShim
import Primitives

/// Premultiplied RGBA frames to straight-alpha (or opaque) BGRA at the GIF's
/// size: the shim's `sr_frame_scaler` (swscale) scales the premultiplied
/// pixels, so hidden colour under transparency does not bleed into edges, and
/// the alpha is fixed up here, with the module's one `Unpremultiply`.
final class FrameScaler {
    private var handle: OpaquePointer?
    let width: Int
    let height: Int

    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, path: String) throws {
        self.width = width
        self.height = height
        var message = [CChar](repeating: 0, count: 512)
        var opened: OpaquePointer?
        let status = message.withUnsafeMutableBufferPointer {
            sr_frame_scaler_open(
                Int32(sourceWidth), Int32(sourceHeight), Int32(width), Int32(height),
                &opened, $0.baseAddress, $0.count)
        }
        guard status >= 0 else { throw EncoderError(.invalidSettings, path: path, reason: shimMessage(message)) }
        handle = opened
    }

    deinit {
        sr_frame_scaler_free(handle)
    }

    /// Scales `frame` into `output` (width * height * 4 bytes). keepAlpha:
    /// straight alpha; otherwise opaque, the frame over black.
    func scale(_ frame: Bitmap, into output: UnsafeMutableRawBufferPointer, keepAlpha: Bool, path: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        let status = frame.pixels.withUnsafeBytes { source in
            message.withUnsafeMutableBufferPointer {
                sr_frame_scaler_scale(
                    handle, source.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    frame.bytesPerRow, output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    width * 4, $0.baseAddress, $0.count)
            }
        }
        guard status >= 0 else { throw EncoderError(.writeFailed, path: path, reason: shimMessage(message)) }
        let base = output.baseAddress!
        if keepAlpha {
            Unpremultiply.row(base, into: base, count: width * height)
        } else {
            Self.makeOpaque(base, count: width * height)
        }
    }

    /// Sets every pixel's alpha (byte 3) to 255: premultiplied colour is then
    /// the frame composited over black.
    static func makeOpaque(_ pixels: UnsafeMutableRawPointer, count: Int) {
        let alpha = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var i = 0
        while i + 8 <= count {
            let p = pixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
            pixels.storeBytes(of: p | alpha, toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            pixels.storeBytes(of: 0xFF as UInt8, toByteOffset: 4 * i + 3, as: UInt8.self)
            i += 1
        }
    }
}

/// The NUL-terminated message a shim call wrote.
func shimMessage(_ buffer: [CChar]) -> String {
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? "FFmpeg failed without a message" : text
}
