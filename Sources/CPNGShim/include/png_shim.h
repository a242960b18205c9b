/*
 * png_shim.h: the parts of libpng's full API that PNGCodec needs beyond the
 * simplified API, behind calls that report failure by return value. libpng
 * reports errors with longjmp, which must never cross Swift frames, so every
 * setjmp lives here in C and every entry point arms its own before calling
 * libpng. (png_frame_writer.h is the frame writer.)
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
   was not the system's), and a message: libpng's or the shim's. */
typedef struct sr_png_status {
    int os_error;
    char message[256];
} sr_png_status;

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
