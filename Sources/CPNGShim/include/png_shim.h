/*
 * png_shim.h: the parts of libpng's full API that PNGCodec needs, behind calls
 * that report failure by return value. libpng reports errors with longjmp,
 * which must never cross Swift frames, so every setjmp lives here in C and
 * every entry point arms its own before calling libpng.
 *
 * Writing: an incremental writer (rows in, file out), so the caller converts
 * each row (premultiplied to straight alpha, in Swift) into a buffer it reuses
 * instead of a whole straight-alpha copy of the image. (Sequence frames are
 * written over libdeflate instead: PNGCodec's PNGFrameWriter.) A failed write
 * names the OS error behind it (a full disk, a read-only file system) instead
 * of libpng's bare "Write Error".
 *
 * Reading: one call that decodes a whole image to 8-bit straight RGBA through
 * the full API with interlace handling, with the transforms the simplified
 * API's png_image_finish_read applies for PNG_FORMAT_RGBA with
 * PNG_IMAGE_FLAG_16BIT_sRGB. PNGCodec uses it for Adam7-interlaced images,
 * which libpng 1.6.39's simplified API (as patched in Debian 12) decodes wrongly
 * at 16 bits per channel.
 */
#ifndef SHIFTRENDER_PNG_SHIM_H
#define SHIFTRENDER_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a call failed: the errno of the failed system call (0 when the failure
   was not the system's), and a message: libpng's or the shim's, or, next to an
   errno, what was being done ("cannot create the file"; empty for a write). */
typedef struct sr_png_status {
    int os_error;
    char message[256];
} sr_png_status;

typedef struct sr_png_writer sr_png_writer;

/*
 * Creates (or truncates) path and writes the header of a width x height PNG,
 * 8 bits per channel, sRGB: RGBA when keep_alpha != 0, else RGB, with libpng's
 * defaults (zlib's default level and the adaptive per-row filter choice), which
 * write byte for byte the file png_image_write_to_file writes for the same pixels.
 * Returns NULL with status filled on failure (the file may then exist).
 */
sr_png_writer *sr_png_writer_open(const char *path, uint32_t width, uint32_t height, int keep_alpha,
                                  sr_png_status *status);

/* Writes the next row: width pixels of RGBA8 (keep_alpha) or RGB8, straight
   alpha. Returns 0, or -1 with status filled; after a failure the writer only
   accepts sr_png_writer_discard. */
int sr_png_writer_write_row(sr_png_writer *writer, const uint8_t *row, sr_png_status *status);

/* Writes the end of the PNG, flushes and closes the file, frees the writer.
   Returns 0, or -1 with status filled (the writer is freed either way). */
int sr_png_writer_finish(sr_png_writer *writer, sr_png_status *status);

/* Frees a writer that will not be finished (after a failure, or abandoned). */
void sr_png_writer_discard(sr_png_writer *writer);

/*
 * Decodes the PNG read from file (positioned at its signature) or, when file
 * is NULL, from the size bytes at data, into width x height 8-bit straight
 * RGBA at pixels (width * 4 bytes per row). width and height are what the
 * caller read from the header and sized pixels by; a PNG whose header says
 * otherwise is refused. Reading stops after the image data, as
 * png_image_finish_read does. Returns 0, or -1 with status filled.
 */
int sr_png_read_rgba8(FILE *file, const uint8_t *data, size_t size, uint8_t *pixels,
                      uint32_t width, uint32_t height, sr_png_status *status);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_PNG_SHIM_H */
