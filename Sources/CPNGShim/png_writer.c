/*
 * png_writer.c: RGBA8 rows -> PNG file through libpng's full write API. See
 * include/png_shim.h for the contract.
 *
 * The writer holds no pixel buffer: rows come from the caller, already in
 * the PNG's own layout, and libpng applies no transforms. Output goes through
 * our own write callback so a failed fwrite keeps its errno, which libpng's
 * default callback throws away.
 */
#include "png_shim.h"

#include <png.h>

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct sr_png_writer {
    /* Re-armed by every entry point before it calls libpng. */
    jmp_buf jump;
    png_structp png;
    png_infop info;
    FILE *file;
    int failed;
    /* What went wrong, copied to the caller's status on the error path. */
    int os_error;
    char message[256];
};

static void sr_clear(sr_png_status *status)
{
    if (status) {
        status->os_error = 0;
        status->message[0] = '\0';
    }
}

static int sr_fail(sr_png_status *status, int os_error, const char *message)
{
    if (status) {
        status->os_error = os_error;
        snprintf(status->message, sizeof status->message, "%s", message);
    }
    return -1;
}

static void sr_error(png_structp png, png_const_charp message)
{
    struct sr_png_writer *writer = png_get_error_ptr(png);
    /* A write callback that failed has recorded the errno; libpng's text
       ("Write Error") adds nothing to it. */
    if (writer->os_error == 0)
        snprintf(writer->message, sizeof writer->message, "libpng: %s", message ? message : "unknown error");
    longjmp(writer->jump, 1);
}

static void sr_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message; /* warnings (e.g. about chunks) do not stop a file */
}

static void sr_write(png_structp png, png_bytep data, size_t length)
{
    struct sr_png_writer *writer = png_get_io_ptr(png);
    errno = 0;
    if (fwrite(data, 1, length, writer->file) != length) {
        writer->os_error = errno != 0 ? errno : EIO;
        png_error(png, "Write Error");
    }
}

static void sr_flush(png_structp png)
{
    struct sr_png_writer *writer = png_get_io_ptr(png);
    errno = 0;
    if (fflush(writer->file) != 0) {
        writer->os_error = errno != 0 ? errno : EIO;
        png_error(png, "Write Error");
    }
}

static void sr_free(struct sr_png_writer *writer)
{
    png_destroy_write_struct(&writer->png, &writer->info);
    if (writer->file)
        fclose(writer->file);
    free(writer);
}

/* The error path of every entry point: the writer's record to the caller. */
static int sr_report(struct sr_png_writer *writer, sr_png_status *status)
{
    writer->failed = 1;
    return sr_fail(status, writer->os_error, writer->message);
}

sr_png_writer *sr_png_writer_open(const char *path, uint32_t width, uint32_t height, int keep_alpha,
                                  sr_png_status *status)
{
    sr_clear(status);
    if (!path || width == 0 || height == 0 || width > PNG_UINT_31_MAX / 4 || height > PNG_UINT_31_MAX) {
        sr_fail(status, 0, "invalid size for a PNG");
        return NULL;
    }
    struct sr_png_writer *writer = calloc(1, sizeof *writer);
    if (!writer) {
        sr_fail(status, ENOMEM, "");
        return NULL;
    }
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        sr_fail(status, errno, "cannot create the file");
        free(writer);
        return NULL;
    }
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, sr_error, sr_warning);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (!writer->png || !writer->info) {
        sr_free(writer);
        sr_fail(status, ENOMEM, "");
        return NULL;
    }
    if (setjmp(writer->jump)) {
        sr_report(writer, status);
        sr_free(writer);
        return NULL;
    }
    png_structp png = writer->png;
    png_set_write_fn(png, writer, sr_write, sr_flush);
    png_set_IHDR(png, writer->info, width, height, 8, keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* The pixels are sRGB, as the simplified API also declares. */
    png_set_sRGB(png, writer->info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, writer->info);
    return writer;
}

int sr_png_writer_write_row(sr_png_writer *writer, const uint8_t *row, sr_png_status *status)
{
    sr_clear(status);
    if (!writer || !row)
        return sr_fail(status, 0, "invalid row for PNG writing");
    if (writer->failed)
        return sr_fail(status, writer->os_error, writer->message);
    if (setjmp(writer->jump))
        return sr_report(writer, status);
    png_write_row(writer->png, row);
    return 0;
}

int sr_png_writer_finish(sr_png_writer *writer, sr_png_status *status)
{
    sr_clear(status);
    if (!writer)
        return sr_fail(status, 0, "no PNG writer to finish");
    if (writer->failed) {
        sr_fail(status, writer->os_error, writer->message);
        sr_free(writer);
        return -1;
    }
    if (setjmp(writer->jump)) {
        sr_report(writer, status);
        sr_free(writer);
        return -1;
    }
    png_write_end(writer->png, writer->info);
    png_destroy_write_struct(&writer->png, &writer->info);
    /* A full disk often shows only when stdio's buffered tail is flushed. */
    FILE *file = writer->file;
    writer->file = NULL;
    int result = 0;
    errno = 0;
    if (fflush(file) != 0 || ferror(file)) {
        result = sr_fail(status, errno != 0 ? errno : EIO, "");
        fclose(file);
    } else if (fclose(file) != 0) {
        result = sr_fail(status, errno != 0 ? errno : EIO, "");
    }
    free(writer);
    return result;
}

void sr_png_writer_discard(sr_png_writer *writer)
{
    if (writer)
        sr_free(writer);
}
