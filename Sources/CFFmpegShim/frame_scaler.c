/*
 * frame_scaler.c: swscale from premultiplied RGBA to premultiplied BGRA at a
 * new size. See include/frame_scaler.h.
 */
#include "frame_scaler.h"
#include "shim_internal.h"

#include <libavutil/mem.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>

struct sr_frame_scaler {
    struct SwsContext *context;
    int source_width, source_height, width, height;
};

int sr_frame_scaler_open(int source_width, int source_height, int width, int height,
                         sr_frame_scaler **out, char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    *out = NULL;
    sr_enter();
    int ret = 0;
    sr_frame_scaler *s = NULL;
    if (source_width <= 0 || source_height <= 0 || width <= 0 || height <= 0) {
        ret = SR_INVALID(error, error_size, "cannot scale %dx%d to %dx%d", source_width, source_height, width, height);
    } else if (!(s = av_mallocz(sizeof *s))) {
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the scaler");
    } else {
        s->source_width = source_width;
        s->source_height = source_height;
        s->width = width;
        s->height = height;
        /* Lanczos keeps small UI text legible when a GIF is made smaller;
           at equal sizes swscale only reorders the channels. */
        int flags = (source_width == width && source_height == height ? SWS_POINT : SWS_LANCZOS)
                    | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT;
        s->context = sws_getContext(source_width, source_height, AV_PIX_FMT_RGBA,
                                    width, height, AV_PIX_FMT_BGRA, flags, NULL, NULL, NULL);
        if (!s->context)
            ret = SR_INVALID(error, error_size, "swscale cannot scale %dx%d to %dx%d",
                             source_width, source_height, width, height);
    }
    sr_leave();
    if (ret < 0) {
        sr_frame_scaler_free(s);
        return ret;
    }
    *out = s;
    return 0;
}

int sr_frame_scaler_scale(sr_frame_scaler *s, const uint8_t *rgba, ptrdiff_t stride, uint8_t *bgra,
                          ptrdiff_t out_stride, char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    if (!s || !rgba || !bgra || stride < (ptrdiff_t)s->source_width * 4 || out_stride < (ptrdiff_t)s->width * 4) {
        sr_enter();
        int r = SR_INVALID(error, error_size, "invalid buffers for scaling");
        sr_leave();
        return r;
    }
    sr_enter();
    const uint8_t *source[4] = { rgba, NULL, NULL, NULL };
    const int source_stride[4] = { (int)stride, 0, 0, 0 };
    uint8_t *target[4] = { bgra, NULL, NULL, NULL };
    const int target_stride[4] = { (int)out_stride, 0, 0, 0 };
    int rows = sws_scale(s->context, source, source_stride, 0, s->source_height, target, target_stride);
    int ret = 0;
    if (rows != s->height)
        ret = sr_fail(error, error_size, rows < 0 ? rows : AVERROR_UNKNOWN, "swscale failed to scale a frame");
    sr_leave();
    return ret;
}

void sr_frame_scaler_free(sr_frame_scaler *s)
{
    if (!s)
        return;
    sws_freeContext(s->context);
    av_free(s);
}
