/*
 * palette_builder.h: the 256-colour palette that best fits a whole clip,
 * from libavfilter's palettegen. Frames are added as they are made; the
 * builder keeps only a colour histogram, so memory does not grow with the
 * number of frames.
 */
#ifndef SHIFTRENDER_PALETTE_BUILDER_H
#define SHIFTRENDER_PALETTE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sr_palette_builder sr_palette_builder;

/*
 * A builder for width x height straight-alpha BGRA frames. options are
 * palettegen's, "key=value:key=value" (e.g. "stats_mode=full:reserve_transparent=1").
 * Returns 0 and the builder in *out, or a negative value and a message.
 */
int sr_palette_builder_open(int width, int height, const char *options,
                            sr_palette_builder **out, char *error, size_t error_size);

/* Counts the colours of one frame (height rows of stride bytes). */
int sr_palette_builder_add(sr_palette_builder *builder, const uint8_t *bgra, ptrdiff_t stride,
                           char *error, size_t error_size);

/*
 * Ends the input and stores the palette: 256 entries 0xAARRGGBB. With
 * reserve_transparent, one entry is fully transparent. The builder then
 * takes nothing more; free it.
 */
int sr_palette_builder_finish(sr_palette_builder *builder, uint32_t palette[256],
                              char *error, size_t error_size);

void sr_palette_builder_free(sr_palette_builder *builder);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_PALETTE_BUILDER_H */
