/*
 * palette_builder.c: buffer -> palettegen -> buffersink. See
 * include/palette_builder.h.
 */
#include "palette_builder.h"
#include "shim_internal.h"

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>

#include <stdio.h>
#include <string.h>

struct sr_palette_builder {
    AVFilterGraph *graph;
    AVFilterContext *source;
    AVFilterContext *sink;
    AVFrame *input;
    int width;
    int height;
    int64_t next_pts;
    int ended;
};

void sr_palette_builder_free(sr_palette_builder *b)
{
    if (!b)
        return;
    avfilter_graph_free(&b->graph);
    av_frame_free(&b->input);
    av_free(b);
}

static int sr_builder_build(sr_palette_builder *b, const char *options, char *error, size_t error_size)
{
    char args[256];
    int ret;
    b->graph = avfilter_graph_alloc();
    b->input = av_frame_alloc();
    if (!b->graph || !b->input)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette generator");
    b->graph->nb_threads = 1;
    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/100:pixel_aspect=1/1",
             b->width, b->height, AV_PIX_FMT_BGRA);
    ret = avfilter_graph_create_filter(&b->source, avfilter_get_by_name("buffer"), "frames", args, NULL, b->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot create the palette generator's source");
    const AVFilter *gen = avfilter_get_by_name("palettegen");
    if (!gen)
        return SR_INVALID(error, error_size, "this FFmpeg build has no palettegen filter");
    AVFilterContext *generator = NULL;
    ret = avfilter_graph_create_filter(&generator, gen, "palettegen", options ? options : "", NULL, b->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot set up palettegen with '%s'", options ? options : "");
    ret = avfilter_graph_create_filter(&b->sink, avfilter_get_by_name("buffersink"), "palette", NULL, NULL, b->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot create the palette output");
    if ((ret = avfilter_link(b->source, 0, generator, 0)) < 0 || (ret = avfilter_link(generator, 0, b->sink, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot link the palette generator");
    ret = avfilter_graph_config(b->graph, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot configure the palette generator");
    return 0;
}

int sr_palette_builder_open(int width, int height, const char *options, sr_palette_builder **out,
                            char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    *out = NULL;
    sr_enter();
    int ret;
    sr_palette_builder *b = NULL;
    if (width <= 0 || height <= 0) {
        ret = SR_INVALID(error, error_size, "palette frames must have a positive size");
    } else if (!(b = av_mallocz(sizeof *b))) {
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette generator");
    } else {
        b->width = width;
        b->height = height;
        ret = sr_builder_build(b, options, error, error_size);
    }
    sr_leave();
    if (ret < 0) {
        sr_palette_builder_free(b);
        return ret;
    }
    *out = b;
    return 0;
}

int sr_palette_builder_add(sr_palette_builder *b, const uint8_t *bgra, ptrdiff_t stride,
                           char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret;
    if (!b || !bgra || b->ended) {
        ret = SR_INVALID(error, error_size, "the palette generator takes no frame here");
    } else {
        AVFrame *f = b->input;
        av_frame_unref(f);
        f->format = AV_PIX_FMT_BGRA;
        f->width = b->width;
        f->height = b->height;
        f->data[0] = (uint8_t *)bgra;
        f->linesize[0] = (int)stride;
        f->pts = b->next_pts++;
        f->sample_aspect_ratio = (AVRational){ 1, 1 };
        /* KEEP_REF: the source copies the caller's pixels into a frame of its
           own (see palette_mapper.c). PUSH: palettegen counts the frame now.
           Without it the frame waits on the link until something asks the
           sink for output, which palettegen gives only at the end, so every
           frame of the clip would queue in memory. */
        ret = av_buffersrc_add_frame_flags(b->source, f, AV_BUFFERSRC_FLAG_KEEP_REF | AV_BUFFERSRC_FLAG_PUSH);
        f->data[0] = NULL;
        if (ret < 0)
            ret = sr_fail(error, error_size, ret, "palettegen rejected a frame");
    }
    sr_leave();
    return ret < 0 ? ret : 0;
}

int sr_palette_builder_finish(sr_palette_builder *b, uint32_t palette[256], char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret;
    AVFrame *result = NULL;
    if (!b || b->ended) {
        ret = SR_INVALID(error, error_size, "the palette generator was already finished");
    } else if (b->next_pts == 0) {
        ret = SR_INVALID(error, error_size, "no frames to build a palette from");
    } else if ((ret = av_buffersrc_add_frame(b->source, NULL)) < 0) {
        ret = sr_fail(error, error_size, ret, "cannot end the palette generator's input");
    } else if (!(result = av_frame_alloc())) {
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette");
    } else if ((ret = av_buffersink_get_frame(b->sink, result)) < 0) {
        ret = sr_fail(error, error_size, ret, "palettegen produced no palette");
    } else if (result->width != 16 || result->height != 16) {
        ret = SR_INVALID(error, error_size, "palettegen produced a %dx%d palette, not 16x16",
                         result->width, result->height);
    } else {
        for (int y = 0; y < 16; y++)
            memcpy(palette + y * 16, result->data[0] + y * result->linesize[0], 16 * sizeof(uint32_t));
        ret = 0;
    }
    if (b)
        b->ended = 1;
    av_frame_free(&result);
    sr_leave();
    return ret;
}
