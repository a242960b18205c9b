import CFFmpegShim

/// The clip's palette, counted frame by frame as the frames arrive (the
/// shim's `sr_palette_builder`, libavfilter's palettegen): only a colour
/// histogram is kept, so memory does not grow with the clip.
final class PaletteBuilder {
    private var handle: OpaquePointer?

    /// palettegen keeps one entry for transparency, always: it lets the GIF
    /// encoder mark pixels unchanged since the previous frame as transparent,
    /// which is most of a UI transition's pixels and most of the file saved.
    /// Colours are counted over whole frames ("full"), so the palette fits
    /// what is on screen for longest.
    static let options = "max_colors=256:reserve_transparent=1:stats_mode=full"

    init(width: Int, height: Int, path: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        var opened: OpaquePointer?
        let status = message.withUnsafeMutableBufferPointer {
            sr_palette_builder_open(Int32(width), Int32(height), Self.options, &opened, $0.baseAddress, $0.count)
        }
        guard status >= 0 else { throw EncoderError(.writeFailed, path: path, reason: shimMessage(message)) }
        handle = opened
    }

    deinit {
        sr_palette_builder_free(handle)
    }

    /// Counts the colours of one straight BGRA frame.
    func add(_ frame: UnsafeRawBufferPointer, bytesPerRow: Int, path: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer {
            sr_palette_builder_add(
                handle, frame.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow,
                $0.baseAddress, $0.count)
        }
        guard status >= 0 else { throw EncoderError(.writeFailed, path: path, reason: shimMessage(message)) }
    }

    /// The palette, 256 entries 0xAARRGGBB. Call once, after the last frame.
    func finish(path: String) throws -> [UInt32] {
        var palette = [UInt32](repeating: 0, count: 256)
        var message = [CChar](repeating: 0, count: 512)
        let status = palette.withUnsafeMutableBufferPointer { entries in
            message.withUnsafeMutableBufferPointer {
                sr_palette_builder_finish(handle, entries.baseAddress, $0.baseAddress, $0.count)
            }
        }
        guard status >= 0 else { throw EncoderError(.writeFailed, path: path, reason: shimMessage(message)) }
        return palette
    }
}
