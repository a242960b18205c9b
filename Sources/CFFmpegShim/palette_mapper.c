/*
 * palette_mapper.c: straight BGRA frames -> PAL8 frames on a given palette,
 * through libavfilter's paletteuse (dithering, and diff_mode so unchanged
 * areas are not re-dithered from frame to frame, which keeps GIFs small).
 *
 * The graph has two sources: the frames, and the palette, pushed once at
 * open and then closed; paletteuse keeps using that one palette for every
 * frame. Frames pass through one at a time, so memory does not grow with
 * the clip.
 */
#include "shim_internal.h"

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
#include <libavutil/pixfmt.h>

#include <stdio.h>
#include <string.h>

struct sr_palette_mapper {
    AVFilterGraph *graph;
    AVFilterContext *frames;
    AVFilterContext *palette;
    AVFilterContext *sink;
    AVFrame *input;
    int width;
    int height;
};

void sr_palette_mapper_free(sr_palette_mapper *m)
{
    if (!m)
        return;
    avfilter_graph_free(&m->graph);
    av_frame_free(&m->input);
    av_free(m);
}

static int sr_mapper_build(sr_palette_mapper *m, int fps_num, int fps_den, const uint32_t *palette,
                           const char *options, char *error, size_t error_size)
{
    char args[256];
    int ret;
    m->graph = avfilter_graph_alloc();
    m->input = av_frame_alloc();
    if (!m->graph || !m->input)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette filter");
    /* The encoder runs in the writer's thread; filter threads would only compete with it. */
    m->graph->nb_threads = 1;

    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=1/1",
             m->width, m->height, AV_PIX_FMT_BGRA, fps_den, fps_num);
    ret = avfilter_graph_create_filter(&m->frames, avfilter_get_by_name("buffer"), "frames", args, NULL, m->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot create the frame source");
    snprintf(args, sizeof args, "video_size=16x16:pix_fmt=%d:time_base=1/1:pixel_aspect=1/1", AV_PIX_FMT_BGRA);
    ret = avfilter_graph_create_filter(&m->palette, avfilter_get_by_name("buffer"), "palette", args, NULL, m->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot create the palette source");
    const AVFilter *use = avfilter_get_by_name("paletteuse");
    if (!use)
        return SR_INVALID(error, error_size, "this FFmpeg build has no paletteuse filter");
    AVFilterContext *mapper = NULL;
    ret = avfilter_graph_create_filter(&mapper, use, "paletteuse", options ? options : "", NULL, m->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot set up paletteuse with '%s'", options ? options : "");
    ret = avfilter_graph_create_filter(&m->sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, m->graph);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot create the filter output");
    enum AVPixelFormat pal8[] = { AV_PIX_FMT_PAL8, AV_PIX_FMT_NONE };
    ret = av_opt_set_int_list(m->sink, "pix_fmts", pal8, AV_PIX_FMT_NONE, AV_OPT_SEARCH_CHILDREN);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot ask the filter for PAL8");
    if ((ret = avfilter_link(m->frames, 0, mapper, 0)) < 0 ||
        (ret = avfilter_link(m->palette, 0, mapper, 1)) < 0 ||
        (ret = avfilter_link(mapper, 0, m->sink, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot link the palette filter");
    ret = avfilter_graph_config(m->graph, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot configure the palette filter");

    AVFrame *entries = av_frame_alloc();
    if (!entries)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette frame");
    entries->format = AV_PIX_FMT_BGRA;
    entries->width = 16;
    entries->height = 16;
    entries->pts = 0;
    ret = av_frame_get_buffer(entries, 0);
    if (ret < 0) {
        av_frame_free(&entries);
        return sr_fail(error, error_size, ret, "cannot allocate the palette frame");
    }
    /* 0xAARRGGBB words are B, G, R, A bytes on little-endian machines: BGRA. */
    for (int y = 0; y < 16; y++)
        memcpy(entries->data[0] + y * entries->linesize[0], palette + y * 16, 16 * sizeof(uint32_t));
    ret = av_buffersrc_add_frame(m->palette, entries);
    av_frame_free(&entries);
    if (ret >= 0)
        ret = av_buffersrc_add_frame(m->palette, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot pass the palette to paletteuse");
    return 0;
}

int sr_palette_mapper_open(int width, int height, int fps_num, int fps_den, const uint32_t *palette,
                           const char *options, sr_palette_mapper **out, char *error, size_t error_size)
{
    *out = NULL;
    if (!palette || width <= 0 || height <= 0 || fps_num <= 0 || fps_den <= 0)
        return SR_INVALID(error, error_size, "invalid palette mapping parameters");
    sr_palette_mapper *m = av_mallocz(sizeof *m);
    if (!m)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the palette filter");
    m->width = width;
    m->height = height;
    int ret = sr_mapper_build(m, fps_num, fps_den, palette, options, error, error_size);
    if (ret < 0) {
        sr_palette_mapper_free(m);
        return ret;
    }
    *out = m;
    return 0;
}

int sr_palette_mapper_push(sr_palette_mapper *m, const uint8_t *bgra, ptrdiff_t stride, int64_t pts,
                           char *error, size_t error_size)
{
    int ret;
    if (!bgra) {
        ret = av_buffersrc_add_frame(m->frames, NULL);
        return ret < 0 ? sr_fail(error, error_size, ret, "cannot end the palette filter's input") : 0;
    }
    /* Describe the caller's pixels without copying; the buffer source makes
       its own reference-counted copy (av_buffersrc_write_frame keeps no
       pointer to a frame that is not reference counted). */
    AVFrame *f = m->input;
    av_frame_unref(f);
    f->format = AV_PIX_FMT_BGRA;
    f->width = m->width;
    f->height = m->height;
    f->data[0] = (uint8_t *)bgra;
    f->linesize[0] = (int)stride;
    f->pts = pts;
    f->sample_aspect_ratio = (AVRational){ 1, 1 };
    ret = av_buffersrc_write_frame(m->frames, f);
    f->data[0] = NULL;
    return ret < 0 ? sr_fail(error, error_size, ret, "paletteuse rejected frame %lld", (long long)pts) : 0;
}

int sr_palette_mapper_pull(sr_palette_mapper *m, AVFrame *out, char *error, size_t error_size)
{
    int ret = av_buffersink_get_frame(m->sink, out);
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
        return 0;
    if (ret < 0)
        return sr_fail(error, error_size, ret, "paletteuse failed");
    return 1;
}
