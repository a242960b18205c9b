/*
 * pixel_ops.h: premultiplied -> straight alpha, as the shim does it before
 * handing frames to encoders that keep alpha. Public so tests can hold its
 * rounding to Bitmap.unpremultipliedPixels.
 */
#ifndef SHIFTRENDER_PIXEL_OPS_H
#define SHIFTRENDER_PIXEL_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Straight-alpha pixels from premultiplied ones (alpha in byte 3; RGBA or
   BGRA). src and dst may be the same buffer. */
void sr_unpremultiply(const uint8_t *src, uint8_t *dst, size_t pixel_count);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_PIXEL_OPS_H */
