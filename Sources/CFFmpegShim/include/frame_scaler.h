/*
 * frame_scaler.h: premultiplied RGBA frames -> premultiplied BGRA frames of
 * another size, for the GIF path (which then un-premultiplies them, or makes
 * them opaque, in Swift before palettegen and paletteuse).
 *
 * Scaling runs on the premultiplied pixels so that transparent pixels do not
 * bleed their hidden colour into their neighbours.
 */
#ifndef SHIFTRENDER_FRAME_SCALER_H
#define SHIFTRENDER_FRAME_SCALER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sr_frame_scaler sr_frame_scaler;

/* A scaler from source_width x source_height to width x height (Lanczos
   when the size changes). */
int sr_frame_scaler_open(int source_width, int source_height, int width, int height,
                         sr_frame_scaler **out, char *error, size_t error_size);

/*
 * Scales one frame of premultiplied RGBA (stride bytes a row) into
 * premultiplied BGRA (out_stride bytes a row).
 */
int sr_frame_scaler_scale(sr_frame_scaler *scaler, const uint8_t *rgba, ptrdiff_t stride,
                          uint8_t *bgra, ptrdiff_t out_stride, char *error, size_t error_size);

void sr_frame_scaler_free(sr_frame_scaler *scaler);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_FRAME_SCALER_H */
