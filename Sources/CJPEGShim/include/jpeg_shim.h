/*
 * jpeg_shim.h: JPEG decoding over libjpeg(-turbo) behind calls that report
 * failure by return value. libjpeg's default error handler calls exit(), and
 * any replacement must leave by longjmp, which must never cross Swift frames,
 * so every setjmp lives here in C and every entry point arms its own before
 * calling libjpeg. Nothing is ever printed: libjpeg's warnings are kept and
 * reported in the message of a failure.
 *
 * A decoder is opened on a file or on bytes in memory and reads the header
 * only, so the caller can check the size before it allocates any pixel
 * memory; the same decoder then decodes the image it described.
 */
#ifndef SHIFTRENDER_JPEG_SHIM_H
#define SHIFTRENDER_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a call failed: libjpeg's message (or the shim's), then the warnings
   libjpeg gave before it, if any. */
typedef struct sr_jpeg_status {
    char message[512];
} sr_jpeg_status;

/* What the header says. */
typedef struct sr_jpeg_info {
    uint32_t width;
    uint32_t height;
    /* 1 (greyscale), 3 (YCbCr or RGB) or 4 (CMYK or YCCK). */
    int components;
    /* Non-zero for CMYK and YCCK, which decode through a naive conversion to RGB. */
    int is_cmyk;
    /* Non-zero for a progressive JPEG. */
    int is_progressive;
    /* The EXIF orientation (1...8), 1 when the file has none or it cannot be read. */
    int orientation;
} sr_jpeg_info;

typedef struct sr_jpeg_decoder sr_jpeg_decoder;

/*
 * Reads the JPEG header from file (positioned at the start of the JPEG) or,
 * when file is NULL, from the size bytes at data, which must stay valid until
 * the decoder is closed. Returns NULL with status filled on failure.
 */
sr_jpeg_decoder *sr_jpeg_decoder_open(FILE *file, const uint8_t *data, size_t size, sr_jpeg_info *info,
                                      sr_jpeg_status *status);

/*
 * Decodes the image into info.width x info.height pixels of RGBA8 at pixels
 * (width * 4 bytes a row, alpha 255), rows written in order. Data that is
 * corrupt or ends early is a failure (libjpeg would only warn and fill the
 * rest with grey). Returns 0, or -1 with status filled. Call once.
 */
int sr_jpeg_decoder_read_rgba8(sr_jpeg_decoder *decoder, uint8_t *pixels, sr_jpeg_status *status);

/* Frees the decoder (NULL is allowed). */
void sr_jpeg_decoder_close(sr_jpeg_decoder *decoder);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_JPEG_SHIM_H */
