/*
 * pixel_ops.c: the per-pixel conversions the shim does itself because
 * swscale does not: un-premultiplying alpha, and dropping it.
 */
#include "shim_internal.h"
#include "pixel_ops.h"

#include <pthread.h>
#include <string.h>

/* (c * 255 + a / 2) / a clamped to 255, for a in 1...254: an exact table
   (64 KiB, shared) instead of a division per channel. */
static uint8_t sr_table[256][256];
static pthread_once_t sr_table_once = PTHREAD_ONCE_INIT;

static void sr_build_table(void)
{
    for (int a = 1; a < 256; a++)
        for (int c = 0; c < 256; c++) {
            int v = (c * 255 + a / 2) / a;
            sr_table[a][c] = (uint8_t)(v > 255 ? 255 : v);
        }
}

void sr_unpremultiply_in_place(uint8_t *p, size_t pixel_count)
{
    pthread_once(&sr_table_once, sr_build_table);
    for (size_t i = 0; i < pixel_count; i++, p += 4) {
        uint8_t a = p[3];
        if (a == 255)
            continue; /* the common case in UI frames */
        if (a == 0) {
            p[0] = p[1] = p[2] = 0;
        } else {
            const uint8_t *row = sr_table[a];
            p[0] = row[p[0]];
            p[1] = row[p[1]];
            p[2] = row[p[2]];
        }
    }
}

void sr_make_opaque(uint8_t *p, size_t pixel_count)
{
    for (size_t i = 0; i < pixel_count; i++, p += 4)
        p[3] = 255;
}

void sr_unpremultiply(const uint8_t *src, uint8_t *dst, size_t pixel_count)
{
    if (dst != src)
        memmove(dst, src, pixel_count * 4);
    sr_unpremultiply_in_place(dst, pixel_count);
}
