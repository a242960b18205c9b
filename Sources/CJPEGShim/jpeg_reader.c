/*
 * jpeg_reader.c: a JPEG -> 8-bit RGBA through libjpeg(-turbo). See
 * include/jpeg_shim.h for the contract.
 *
 * Errors leave by longjmp to the setjmp of the entry point that called
 * libjpeg. Warnings that mean the pixels are wrong (data ending early, bad
 * Huffman or arithmetic codes, a marker inside the data) are made errors:
 * libjpeg would fill the rest of the image with grey and carry on. The others
 * (extraneous bytes before a marker, an unknown JFIF revision) are kept and
 * named if the decode then fails. Nothing goes to stderr.
 *
 * Colour: YCbCr, RGB and greyscale decode through libjpeg-turbo's RGBA output
 * (alpha 255). CMYK and YCCK decode to CMYK and are converted here without
 * colour management: Adobe's files (the Adobe marker) store inverted CMYK, so
 * red = C x K / 255; others red = (255 - C)(255 - K) / 255.
 */
#include "jpeg_shim.h"

#include <jpeglib.h>
#include <jerror.h>

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr manager; /* first, so libjpeg's err pointer is ours */
    jmp_buf jump;
    char warnings[256];
} sr_jpeg_errors;

struct sr_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    sr_jpeg_errors errors;
    int is_cmyk;
};

static void sr_error_exit(j_common_ptr cinfo)
{
    sr_jpeg_errors *errors = (sr_jpeg_errors *)cinfo->err;
    longjmp(errors->jump, 1);
}

static int sr_warning_is_corruption(int code)
{
    switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

/* level < 0: a warning; level >= 0: trace output, never shown. */
static void sr_emit_message(j_common_ptr cinfo, int level)
{
    if (level >= 0)
        return;
    sr_jpeg_errors *errors = (sr_jpeg_errors *)cinfo->err;
    if (sr_warning_is_corruption(errors->manager.msg_code))
        sr_error_exit(cinfo); /* msg_code still names the warning, which becomes the message */
    errors->manager.num_warnings++;
    char text[JMSG_LENGTH_MAX];
    errors->manager.format_message(cinfo, text);
    size_t used = strlen(errors->warnings);
    if (used == 0)
        snprintf(errors->warnings, sizeof errors->warnings, "%s", text);
    else if (!strstr(errors->warnings, text))
        snprintf(errors->warnings + used, sizeof errors->warnings - used, "; %s", text);
}

static void sr_output_message(j_common_ptr cinfo)
{
    (void)cinfo; /* never print */
}

static void sr_fill_status(sr_jpeg_decoder *decoder, sr_jpeg_status *status)
{
    char text[JMSG_LENGTH_MAX];
    decoder->errors.manager.format_message((j_common_ptr)&decoder->cinfo, text);
    if (decoder->errors.warnings[0])
        snprintf(status->message, sizeof status->message, "%s (after warnings: %s)", text, decoder->errors.warnings);
    else
        snprintf(status->message, sizeof status->message, "%s", text);
}

static unsigned sr_read16(const JOCTET *at, int little_endian)
{
    return little_endian ? (unsigned)(at[0] | at[1] << 8) : (unsigned)(at[0] << 8 | at[1]);
}

static unsigned long sr_read32(const JOCTET *at, int little_endian)
{
    return little_endian ? (unsigned long)at[0] | (unsigned long)at[1] << 8 | (unsigned long)at[2] << 16 | (unsigned long)at[3] << 24
                         : (unsigned long)at[0] << 24 | (unsigned long)at[1] << 16 | (unsigned long)at[2] << 8 | (unsigned long)at[3];
}

/* The Orientation tag (0x0112) of IFD0 in an EXIF APP1 marker, or 1. */
static int sr_exif_orientation(j_decompress_ptr cinfo)
{
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 14 || memcmp(marker->data, "Exif\0\0", 6) != 0)
            continue;
        const JOCTET *tiff = marker->data + 6;
        unsigned long size = marker->data_length - 6;
        int little = tiff[0] == 'I' && tiff[1] == 'I';
        if (!little && !(tiff[0] == 'M' && tiff[1] == 'M'))
            continue;
        unsigned long ifd = sr_read32(tiff + 4, little);
        if (ifd > size - 2)
            continue;
        unsigned count = sr_read16(tiff + ifd, little);
        for (unsigned i = 0; i < count; i++) {
            unsigned long entry = ifd + 2 + 12ul * i;
            if (entry + 12 > size)
                break;
            /* tag 0x0112, type SHORT (3), one value, held in the entry itself */
            if (sr_read16(tiff + entry, little) == 0x0112 && sr_read16(tiff + entry + 2, little) == 3) {
                unsigned value = sr_read16(tiff + entry + 8, little);
                return value >= 1 && value <= 8 ? (int)value : 1;
            }
        }
    }
    return 1;
}

sr_jpeg_decoder *sr_jpeg_decoder_open(FILE *file, const uint8_t *data, size_t size, sr_jpeg_info *info,
                                      sr_jpeg_status *status)
{
    sr_jpeg_status ignored;
    if (!status)
        status = &ignored;
    status->message[0] = '\0';
    sr_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        snprintf(status->message, sizeof status->message, "out of memory");
        return NULL;
    }
    decoder->cinfo.err = jpeg_std_error(&decoder->errors.manager);
    decoder->errors.manager.error_exit = sr_error_exit;
    decoder->errors.manager.emit_message = sr_emit_message;
    decoder->errors.manager.output_message = sr_output_message;
    if (setjmp(decoder->errors.jump)) {
        sr_fill_status(decoder, status);
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    if (file)
        jpeg_stdio_src(&decoder->cinfo, file);
    else
        jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decoder->cinfo, TRUE);
    J_COLOR_SPACE space = decoder->cinfo.jpeg_color_space;
    decoder->is_cmyk = space == JCS_CMYK || space == JCS_YCCK;
    if (info) {
        info->width = decoder->cinfo.image_width;
        info->height = decoder->cinfo.image_height;
        info->components = decoder->cinfo.num_components;
        info->is_cmyk = decoder->is_cmyk;
        info->is_progressive = decoder->cinfo.progressive_mode != 0;
        info->orientation = sr_exif_orientation(&decoder->cinfo);
    }
    return decoder;
}

int sr_jpeg_decoder_read_rgba8(sr_jpeg_decoder *decoder, uint8_t *pixels, sr_jpeg_status *status)
{
    sr_jpeg_status ignored;
    if (!status)
        status = &ignored;
    status->message[0] = '\0';
    j_decompress_ptr cinfo = &decoder->cinfo;
    uint8_t *volatile cmyk_row = NULL;
    if (setjmp(decoder->errors.jump)) {
        sr_fill_status(decoder, status);
        free(cmyk_row);
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    cinfo->out_color_space = decoder->is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(cinfo);
    size_t width = cinfo->output_width;
    if (cinfo->output_width != cinfo->image_width || cinfo->output_height != cinfo->image_height) {
        snprintf(status->message, sizeof status->message, "libjpeg decodes %ux%u pixels where the header says %ux%u",
                 cinfo->output_width, cinfo->output_height, cinfo->image_width, cinfo->image_height);
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    if (decoder->is_cmyk) {
        cmyk_row = malloc(width * 4);
        if (!cmyk_row) {
            snprintf(status->message, sizeof status->message, "out of memory");
            jpeg_abort_decompress(cinfo);
            return -1;
        }
    }
    int inverted = cinfo->saw_Adobe_marker;
    while (cinfo->output_scanline < cinfo->output_height) {
        uint8_t *row = pixels + (size_t)cinfo->output_scanline * width * 4;
        JSAMPROW rows[1] = {decoder->is_cmyk ? cmyk_row : row};
        if (jpeg_read_scanlines(cinfo, rows, 1) != 1) {
            /* only a suspending source returns no row, and neither source here suspends */
            snprintf(status->message, sizeof status->message, "libjpeg returned no row at row %u", cinfo->output_scanline);
            free(cmyk_row);
            jpeg_abort_decompress(cinfo);
            return -1;
        }
        if (!decoder->is_cmyk)
            continue;
        for (size_t x = 0; x < width; x++) {
            const uint8_t *cmyk = cmyk_row + x * 4;
            unsigned k = inverted ? cmyk[3] : 255u - cmyk[3];
            for (int channel = 0; channel < 3; channel++) {
                unsigned ink = inverted ? cmyk[channel] : 255u - cmyk[channel];
                row[x * 4 + channel] = (uint8_t)((ink * k + 127) / 255);
            }
            row[x * 4 + 3] = 255;
        }
    }
    free(cmyk_row);
    cmyk_row = NULL;
    /* Every row is decoded: what follows the last scan (the EOI marker,
       trailing bytes) does not change the pixels, so it is not read. */
    jpeg_abort_decompress(cinfo);
    return 0;
}

void sr_jpeg_decoder_close(sr_jpeg_decoder *decoder)
{
    if (!decoder)
        return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}
