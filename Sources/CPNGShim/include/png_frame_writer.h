/*
 * png_frame_writer.h: one video frame to one PNG file, through libpng's full
 * write API, at a chosen zlib compression level.
 *
 * libpng's simplified API (used for reading and for single images) has no
 * compression level, and a PNG sequence spends most of its time in zlib, so
 * the level is the one knob that matters. The full API reports errors with
 * longjmp; that must never cross Swift frames, so setjmp lives here in C and
 * every failure becomes a negative return value plus a one-line message.
 */
#ifndef SHIFTRENDER_PNG_FRAME_WRITER_H
#define SHIFTRENDER_PNG_FRAME_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes a PNG of width x height to path (created or truncated; the caller
 * picks a temporary name if it needs one). pixels holds premultiplied RGBA8
 * rows of stride bytes.
 *
 * keep_alpha != 0: 8-bit RGBA with straight alpha (colour divided by alpha,
 *   rounded to nearest, exactly as Primitives' Bitmap.unpremultipliedPixels).
 * keep_alpha == 0: 8-bit RGB; premultiplied colour is the frame composited
 *   over black, which is what an opaque output shows.
 * compression_level: zlib 0 (store) ... 9 (smallest). The output for given
 *   pixels and level is deterministic, whichever thread writes it.
 *
 * Returns 0, or a negative value with a message in error (when error_size > 0);
 * after a failure the file may exist and is the caller's to remove.
 * Thread-safe: calls on different files may run concurrently.
 */
int sr_png_write_frame(const char *path, const uint8_t *pixels, int width, int height,
                       ptrdiff_t stride, int keep_alpha, int compression_level,
                       char *error, size_t error_size);

/*
 * Straight-alpha RGBA from premultiplied RGBA, pixel_count pixels, the same
 * rounding as sr_png_write_frame. src and dst may be the same buffer.
 * Exposed so tests can pin the rounding against Bitmap.unpremultipliedPixels.
 */
void sr_png_unpremultiply(const uint8_t *src, uint8_t *dst, size_t pixel_count);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_PNG_FRAME_WRITER_H */
