import CFFmpegShim
import Primitives

/// Premultiplied RGBA frames to straight-alpha (or opaque) BGRA at the GIF's
/// size, via the shim's `sr_frame_scaler` (swscale, then alpha fixed up).
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
            sr_frame_scaler_open(Int32(sourceWidth), Int32(sourceHeight), Int32(width), Int32(height),
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
                sr_frame_scaler_scale(handle, source.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                      frame.bytesPerRow, output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                      width * 4, keepAlpha ? 1 : 0, $0.baseAddress, $0.count)
            }
        }
        guard status >= 0 else { throw EncoderError(.writeFailed, path: path, reason: shimMessage(message)) }
    }
}

/// The NUL-terminated message a shim call wrote.
func shimMessage(_ buffer: [CChar]) -> String {
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? "FFmpeg failed without a message" : text
}
