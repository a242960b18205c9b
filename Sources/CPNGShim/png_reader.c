/*
 * png_reader.c: a whole PNG -> 8-bit straight RGBA through libpng's full read
 * API with interlace handling. See include/png_shim.h for the contract.
 *
 * The transforms are those png_image_read_direct (libpng 1.6.39, pngread.c)
 * sets for PNG_FORMAT_RGBA output with PNG_IMAGE_FLAG_16BIT_sRGB, in the same
 * order, so a PNG decodes here to the bytes the simplified API gives for its
 * non-interlaced twin: expand palette, low bit depths and tRNS; grey to RGB;
 * 16-bit channels scaled (not stripped) to 8 and taken as sRGB when the file
 * has no gamma information; opaque alpha added where the file has none. Rows
 * are read pass by pass straight into the caller's buffer (no row-pointer
 * array, no image-sized allocation here).
 */
#include "png_shim.h"

#include <png.h>

#include <errno.h>
#include <setjmp.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    sr_png_status *status;
    const uint8_t *data;
    size_t size;
    size_t offset;
} sr_png_reader;

static void sr_read_error(png_structp png, png_const_charp message)
{
    sr_png_reader *reader = png_get_error_ptr(png);
    snprintf(reader->status->message, sizeof reader->status->message, "%s", message ? message : "unknown error");
    longjmp(reader->jump, 1);
}

static void sr_read_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message; /* as in the simplified API, warnings do not stop a decode */
}

/* The simplified API's memory reader, with its message for running out. */
static void sr_read_memory(png_structp png, png_bytep out, size_t need)
{
    sr_png_reader *reader = png_get_io_ptr(png);
    if (reader->size - reader->offset < need)
        png_error(png, "read beyond end of data");
    memcpy(out, reader->data + reader->offset, need);
    reader->offset += need;
}

int sr_png_read_rgba8(FILE *file, const uint8_t *data, size_t size, uint8_t *pixels,
                      uint32_t width, uint32_t height, sr_png_status *status)
{
    sr_png_status ignored;
    if (!status)
        status = &ignored;
    status->os_error = 0;
    status->message[0] = '\0';
    if ((!file && !data) || !pixels || width == 0 || height == 0 || width > PNG_UINT_31_MAX / 4) {
        snprintf(status->message, sizeof status->message, "invalid arguments for PNG reading");
        return -1;
    }
    sr_png_reader reader;
    memset(&reader, 0, sizeof reader);
    reader.status = status;
    reader.data = data;
    reader.size = size;
    /* Set before setjmp and not changed after it, so the error path may read them. */
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, sr_read_error, sr_read_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
        status->os_error = ENOMEM;
        return -1;
    }
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    if (file)
        png_init_io(png, file);
    else
        png_set_read_fn(png, &reader, sr_read_memory);
    /* As png_image_read_header: benign errors (e.g. a bad ancillary chunk) warn. */
    png_set_benign_errors(png, 1);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height)
        png_error(png, "the PNG changed while it was read");

    int color_type = png_get_color_type(png, info);
    png_set_expand(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0)
        png_set_gray_to_rgb(png);
    /* The input gamma default (sRGB, also for 16-bit: PNG_IMAGE_FLAG_16BIT_sRGB). */
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    if (png_get_bit_depth(png, info) == 16)
        png_set_scale_16(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 255, PNG_FILLER_AFTER);
    /* The output gamma: sRGB, straight alpha. */
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4 || png_get_bit_depth(png, info) != 8)
        png_error(png, "unexpected row format after the RGBA8 transforms");

    /* What png_read_image does, without its array of row pointers: each pass
       visits every row; rows the pass does not touch are skipped inside libpng. */
    for (int pass = 0; pass < passes; pass++)
        for (uint32_t y = 0; y < height; y++)
            png_read_row(png, pixels + (size_t)y * width * 4, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
