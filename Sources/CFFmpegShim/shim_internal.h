/*
 * shim_internal.h: what the shim's C files share and Swift never sees.
 */
#ifndef SHIFTRENDER_SHIM_INTERNAL_H
#define SHIFTRENDER_SHIM_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Brackets every public shim call: while inside, FFmpeg's error-level log
   lines on this thread are captured for the call's message instead of printed. */
void sr_enter(void);
void sr_leave(void);

/* Writes "<what>[: <FFmpeg error text>][ (<captured log>)]" to error and
   returns a negative code (code itself when negative). */
int sr_fail(char *error, size_t error_size, int code, const char *what, ...);
/* A problem the shim found itself: the message says it all. Returns AVERROR(EINVAL). */
int sr_invalid(char *error, size_t error_size, const char *what, ...);
#define SR_INVALID sr_invalid

/* A flag another thread raises to stop a writer or reader: checked between
   packets by the shim, and by FFmpeg's I/O (sr_stop_requested is an
   AVIOInterruptCB callback, its opaque argument the flag) so that a blocking
   read or write gives up at its next buffer. */
typedef struct sr_stop_flag {
    atomic_int raised;
} sr_stop_flag;
int sr_stop_requested(void *flag);
void sr_stop_raise(sr_stop_flag *flag);

/* libx264 without its AVX-512 code (x264_cpu.c says why). sr_x264_cpu_list
   writes the CPU's features in x264's names, AVX-512 left out, and returns 1;
   0 when the CPU has no AVX-512 (nothing to leave out), -1 when out is too
   small. sr_x264_leave_out_avx512 adds that list to the "x264-params" entry
   of an encoder's options: 0 or 1 done, negative on failure. */
struct AVDictionary;
int sr_x264_cpu_list(char *out, size_t size);
int sr_x264_leave_out_avx512(struct AVDictionary **options);

/* Maps straight BGRA frames onto a fixed 256-colour palette with dithering
   (libavfilter's paletteuse), producing PAL8 frames for the GIF encoder. */
typedef struct sr_palette_mapper sr_palette_mapper;
struct AVFrame;
int sr_palette_mapper_open(int width, int height, int fps_num, int fps_den,
                           const uint32_t *palette, const char *options,
                           sr_palette_mapper **out, char *error, size_t error_size);
/* Pushes one frame (NULL: end of input). */
int sr_palette_mapper_push(sr_palette_mapper *mapper, const uint8_t *bgra, ptrdiff_t stride,
                           int64_t pts, char *error, size_t error_size);
/* 1 and a PAL8 frame in *out (the caller unrefs it) when one is ready, 0 when
   none is, negative on failure. */
int sr_palette_mapper_pull(sr_palette_mapper *mapper, struct AVFrame *out, char *error, size_t error_size);
void sr_palette_mapper_free(sr_palette_mapper *mapper);

#endif /* SHIFTRENDER_SHIM_INTERNAL_H */
