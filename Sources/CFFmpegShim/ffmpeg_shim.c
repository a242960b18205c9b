/*
 * ffmpeg_shim.c: RGBA frames -> [pad] -> swscale (or paletteuse) -> encoder
 * -> muxer -> file.
 *
 * The FFmpeg headers come from the CFFmpeg system-library target (pkg-config
 * libavformat libavcodec libavutil libswscale libavfilter). Nothing here
 * aborts: every failure becomes a negative return value and a one-line message.
 *
 * Opening follows the order of FFmpeg's doc/examples/mux.c, one small step
 * each: check the configuration, set up the container, add the stream, open
 * the encoder and give its parameters to the stream, set up the converter,
 * then open the file and write the header.
 *
 * Steady state per frame: a copy into a scratch buffer allocated at open only
 * when padding, one swscale conversion into a frame allocated at open, one
 * send/receive round with the encoder, packets reuse one AVPacket. Nothing is
 * allocated per frame except inside FFmpeg.
 *
 * swscale converts in slices on the encoder's thread count, as ffmpeg's scale
 * filter does: at 1080p on two cores the writer's thread spent about a third
 * of its time in swscale, and that thread is on the critical path while x264
 * fills its lookahead (benchmarks/RESULTS.md). The slices give the same bytes.
 */
#include "ffmpeg_shim.h"
#include "shim_internal.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include <stdio.h>
#include <string.h>

struct sr_video_writer {
    AVFormatContext *format;
    AVCodecContext *encoder;
    AVStream *stream;
    AVFrame *frame;
    AVPacket *packet;
    struct SwsContext *scaler;
    AVFrame *source; /* wraps the caller's pixels for the scaler */
    sr_palette_mapper *mapper;
    AVFrame *mapped;
    enum AVPixelFormat input_format;
    /* Input size; the encoded size is frame->width x frame->height. */
    int width;
    int height;
    /* Padded copy of the input, when the encoded size is larger. */
    uint8_t *scratch;
    ptrdiff_t scratch_stride;
    uint8_t pad_color[4];
    int64_t next_pts;
    int finished;
    int failed;
    sr_stop_flag stop;
};

/* What the configuration resolves to before any FFmpeg state exists. */
typedef struct sr_plan {
    const AVCodec *codec;
    enum AVPixelFormat pixel_format;
    const AVPixFmtDescriptor *descriptor;
    const AVPixFmtDescriptor *input_descriptor;
    int out_width;
    int out_height;
    int primaries, transfer, space, range;
} sr_plan;

int sr_stop_requested(void *flag)
{
    return atomic_load_explicit(&((sr_stop_flag *)flag)->raised, memory_order_acquire);
}

void sr_stop_raise(sr_stop_flag *flag)
{
    atomic_store_explicit(&flag->raised, 1, memory_order_release);
}

static int sr_interrupted(char *error, size_t error_size)
{
    return sr_fail(error, error_size, AVERROR_EXIT, "interrupted");
}

static int sr_has_text(const char *s) { return s && *s; }

/* Parses "k=v:k=v" into *dictionary. */
static int sr_parse_options(AVDictionary **dictionary, const char *options)
{
    if (!sr_has_text(options))
        return 0;
    return av_dict_parse_string(dictionary, options, "=", ":", 0);
}

/* ---------------------------------------------------------------------------
 * Opening, step by step.
 */

static int sr_pixel_format_listed(const AVCodec *codec, enum AVPixelFormat format)
{
    if (!codec->pix_fmts)
        return 1;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
        if (*p == format)
            return 1;
    return 0;
}

static int sr_swscale_matrix(enum AVColorSpace space)
{
    switch (space) {
    case AVCOL_SPC_BT709:       return SWS_CS_ITU709;
    case AVCOL_SPC_FCC:         return SWS_CS_FCC;
    case AVCOL_SPC_SMPTE240M:   return SWS_CS_SMPTE240M;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL:   return SWS_CS_BT2020;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:   return SWS_CS_ITU601;
    default:                    return -1;
    }
}

static int sr_check_sizes(const sr_video_writer_config *c, sr_plan *p, char *error, size_t error_size)
{
    p->out_width = c->output_width > 0 ? c->output_width : c->width;
    p->out_height = c->output_height > 0 ? c->output_height : c->height;
    if (!sr_has_text(c->path))
        return SR_INVALID(error, error_size, "no output path given");
    if (c->width <= 0 || c->height <= 0)
        return SR_INVALID(error, error_size, "frame size %dx%d is not positive", c->width, c->height);
    if (c->fps_num <= 0 || c->fps_den <= 0)
        return SR_INVALID(error, error_size, "frame rate %d/%d is not positive", c->fps_num, c->fps_den);
    if (p->out_width < c->width || p->out_height < c->height)
        return SR_INVALID(error, error_size, "output size %dx%d is smaller than the frames (%dx%d)",
                          p->out_width, p->out_height, c->width, c->height);
    return 0;
}

/* The encoder and the encoded pixel format, which must suit each other and the size. */
static int sr_check_codec(const sr_video_writer_config *c, sr_plan *p, char *error, size_t error_size)
{
    if (!sr_has_text(c->codec_name))
        return SR_INVALID(error, error_size, "no codec given");
    p->codec = avcodec_find_encoder_by_name(c->codec_name);
    if (!p->codec)
        return SR_INVALID(error, error_size, "this FFmpeg build has no encoder '%s'", c->codec_name);
    if (p->codec->type != AVMEDIA_TYPE_VIDEO)
        return SR_INVALID(error, error_size, "'%s' is not a video encoder", c->codec_name);
    if (sr_has_text(c->pixel_format)) {
        p->pixel_format = av_get_pix_fmt(c->pixel_format);
        if (p->pixel_format == AV_PIX_FMT_NONE)
            return SR_INVALID(error, error_size, "unknown pixel format '%s'", c->pixel_format);
    } else if (p->codec->pix_fmts) {
        p->pixel_format = p->codec->pix_fmts[0];
    } else {
        return SR_INVALID(error, error_size, "no pixel format given for encoder '%s'", c->codec_name);
    }
    if (!sr_pixel_format_listed(p->codec, p->pixel_format))
        return SR_INVALID(error, error_size, "encoder '%s' does not take pixel format '%s'",
                          c->codec_name, av_get_pix_fmt_name(p->pixel_format));
    p->descriptor = av_pix_fmt_desc_get(p->pixel_format);
    int step_w = 1 << p->descriptor->log2_chroma_w, step_h = 1 << p->descriptor->log2_chroma_h;
    if (!c->allow_odd_size && (p->out_width % step_w || p->out_height % step_h))
        return SR_INVALID(error, error_size,
                          "%s needs a width divisible by %d and a height divisible by %d; %dx%d is not",
                          p->descriptor->name, step_w, step_h, p->out_width, p->out_height);
    if (c->palette && p->pixel_format != AV_PIX_FMT_PAL8)
        return SR_INVALID(error, error_size, "a palette needs the pal8 pixel format, not %s", p->descriptor->name);
    return 0;
}

/* The layout of the caller's pixels, which padding and palette mapping constrain. */
static int sr_check_input(const sr_video_writer_config *c, sr_plan *p, sr_video_writer *w,
                          char *error, size_t error_size)
{
    w->input_format = av_get_pix_fmt(sr_has_text(c->input_pixel_format) ? c->input_pixel_format : "rgba");
    if (w->input_format == AV_PIX_FMT_NONE)
        return SR_INVALID(error, error_size, "unknown input pixel format '%s'", c->input_pixel_format);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(w->input_format);
    p->input_descriptor = d;
    int packed_32 = d->nb_components == 4 && !(d->flags & AV_PIX_FMT_FLAG_PLANAR) && av_get_bits_per_pixel(d) == 32;
    if ((p->out_width != c->width || p->out_height != c->height) && !packed_32)
        return SR_INVALID(error, error_size, "padding needs 32-bit packed input, not %s", d->name);
    if (c->palette && w->input_format != AV_PIX_FMT_BGRA)
        return SR_INVALID(error, error_size, "palette mapping needs bgra input, not %s", d->name);
    return 0;
}

static int sr_check_colours(const sr_video_writer_config *c, sr_plan *p, char *error, size_t error_size)
{
    p->primaries = AVCOL_PRI_UNSPECIFIED;
    p->transfer = AVCOL_TRC_UNSPECIFIED;
    p->space = AVCOL_SPC_UNSPECIFIED;
    p->range = AVCOL_RANGE_UNSPECIFIED;
    if (sr_has_text(c->color_primaries) && (p->primaries = av_color_primaries_from_name(c->color_primaries)) < 0)
        return SR_INVALID(error, error_size, "unknown colour primaries '%s'", c->color_primaries);
    if (sr_has_text(c->color_transfer) && (p->transfer = av_color_transfer_from_name(c->color_transfer)) < 0)
        return SR_INVALID(error, error_size, "unknown colour transfer '%s'", c->color_transfer);
    if (sr_has_text(c->color_space) && (p->space = av_color_space_from_name(c->color_space)) < 0)
        return SR_INVALID(error, error_size, "unknown colour space '%s'", c->color_space);
    if (sr_has_text(c->color_range) && (p->range = av_color_range_from_name(c->color_range)) < 0)
        return SR_INVALID(error, error_size, "unknown colour range '%s'", c->color_range);
    return 0;
}

/* The muxer, bit-exact and interruptible, with its one video stream. */
static int sr_add_stream(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    int ret = avformat_alloc_output_context2(&w->format, NULL,
                                             sr_has_text(c->format_name) ? c->format_name : NULL, c->path);
    if (ret < 0 || !w->format)
        return sr_fail(error, error_size, ret, "cannot set up a%s container for '%s'",
                       sr_has_text(c->format_name) ? "" : "ny", c->path);
    w->format->flags |= AVFMT_FLAG_BITEXACT;
    w->format->interrupt_callback = (AVIOInterruptCB){ sr_stop_requested, &w->stop };
    if (sr_has_text(c->metadata_key) && c->metadata_value
        && (ret = av_dict_set(&w->format->metadata, c->metadata_key, c->metadata_value, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot set the container metadata");
    w->stream = avformat_new_stream(w->format, NULL);
    w->packet = av_packet_alloc();
    if (!w->stream || !w->packet)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the stream");
    w->stream->time_base = (AVRational){ c->fps_den, c->fps_num };
    w->stream->avg_frame_rate = (AVRational){ c->fps_num, c->fps_den };
    w->stream->r_frame_rate = w->stream->avg_frame_rate;
    w->stream->sample_aspect_ratio = (AVRational){ 1, 1 };
    return 0;
}

/* Opens the encoder with the caller's options, refusing any it does not know,
   and hands its parameters to the stream. */
static int sr_open_encoder(const sr_video_writer_config *c, const sr_plan *p, sr_video_writer *w,
                           char *error, size_t error_size)
{
    AVCodecContext *e = w->encoder = avcodec_alloc_context3(p->codec);
    if (!e)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the encoder");
    e->width = p->out_width;
    e->height = p->out_height;
    e->thread_count = c->thread_count > 0 ? c->thread_count : 0;
    e->pix_fmt = p->pixel_format;
    e->time_base = w->stream->time_base;
    e->framerate = w->stream->avg_frame_rate;
    e->sample_aspect_ratio = w->stream->sample_aspect_ratio;
    e->color_primaries = (enum AVColorPrimaries)p->primaries;
    e->color_trc = (enum AVColorTransferCharacteristic)p->transfer;
    e->colorspace = (enum AVColorSpace)p->space;
    e->color_range = (enum AVColorRange)p->range;
    e->flags |= AV_CODEC_FLAG_BITEXACT;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER)
        e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;

    AVDictionary *options = NULL;
    int ret = sr_parse_options(&options, c->codec_options);
    if (ret < 0)
        ret = sr_fail(error, error_size, ret, "cannot parse encoder options '%s'", c->codec_options);
    else if (!strcmp(p->codec->name, "libx264") && (ret = sr_x264_leave_out_avx512(&options)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot set x264's CPU features");
    else if ((ret = avcodec_open2(e, p->codec, &options)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot open encoder '%s'", c->codec_name);
    else if (av_dict_count(options) > 0)
        ret = SR_INVALID(error, error_size, "encoder '%s' has no option '%s'", c->codec_name,
                         av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX)->key);
    av_dict_free(&options);
    if (ret < 0)
        return ret;
    ret = avcodec_parameters_from_context(w->stream->codecpar, e);
    return ret < 0 ? sr_fail(error, error_size, ret, "cannot pass encoder parameters to the muxer") : 0;
}

/* swscale from the input layout to the encoder's, with the colour space's matrix. */
static int sr_open_scaler(const sr_video_writer_config *c, const sr_plan *p, sr_video_writer *w,
                          char *error, size_t error_size)
{
    /* Slice threads, as ffmpeg's scale filter runs it: each slice context converts its own rows from the
       whole source, so the bytes do not depend on the thread count. sws_scale would use one slice only. */
    struct SwsContext *s = w->scaler = sws_alloc_context();
    if (!s)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate swscale");
    int ret = 0;
    if ((ret = av_opt_set_int(s, "srcw", p->out_width, 0)) < 0 || (ret = av_opt_set_int(s, "srch", p->out_height, 0)) < 0
        || (ret = av_opt_set_int(s, "dstw", p->out_width, 0)) < 0 || (ret = av_opt_set_int(s, "dsth", p->out_height, 0)) < 0
        || (ret = av_opt_set_pixel_fmt(s, "src_format", w->input_format, 0)) < 0
        || (ret = av_opt_set_pixel_fmt(s, "dst_format", p->pixel_format, 0)) < 0
        || (ret = av_opt_set_int(s, "sws_flags", SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, 0)) < 0
        || (ret = av_opt_set_int(s, "threads", c->thread_count > 0 ? c->thread_count : 0, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot set swscale's options");
    if (sws_init_context(s, NULL, NULL) < 0)
        return SR_INVALID(error, error_size, "swscale cannot convert %s to %s",
                          av_get_pix_fmt_name(w->input_format), av_get_pix_fmt_name(p->pixel_format));
    w->source = av_frame_alloc();
    if (!w->source)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a frame");
    int output_is_yuv = !(p->descriptor->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))
                        && p->descriptor->nb_components >= 3;
    if (!output_is_yuv)
        return 0;
    int matrix = sr_swscale_matrix((enum AVColorSpace)p->space);
    if (p->space != AVCOL_SPC_UNSPECIFIED && matrix < 0)
        return SR_INVALID(error, error_size, "swscale has no RGB->YUV matrix for colour space '%s'", c->color_space);
    const int *coefficients = sws_getCoefficients(matrix < 0 ? SWS_CS_DEFAULT : matrix);
    int source_full = (p->input_descriptor->flags & AV_PIX_FMT_FLAG_RGB) ? 1 : 0;
    int destination_full = p->range == AVCOL_RANGE_JPEG ? 1 : 0;
    if (sws_setColorspaceDetails(w->scaler, coefficients, source_full, coefficients, destination_full,
                                 0, 1 << 16, 1 << 16) < 0)
        return SR_INVALID(error, error_size, "swscale cannot use the %s matrix for %s -> %s",
                          sr_has_text(c->color_space) ? c->color_space : "default",
                          av_get_pix_fmt_name(w->input_format), av_get_pix_fmt_name(p->pixel_format));
    return 0;
}

/* The encoder's input frame, the padding scratch, and swscale or paletteuse. */
static int sr_open_converter(const sr_video_writer_config *c, const sr_plan *p, sr_video_writer *w,
                             char *error, size_t error_size)
{
    w->width = c->width;
    w->height = c->height;
    memcpy(w->pad_color, c->pad_color, 4);
    AVFrame *f = w->frame = av_frame_alloc();
    if (!f)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a frame");
    f->format = p->pixel_format;
    f->width = p->out_width;
    f->height = p->out_height;
    f->color_primaries = w->encoder->color_primaries;
    f->color_trc = w->encoder->color_trc;
    f->colorspace = w->encoder->colorspace;
    f->color_range = w->encoder->color_range;
    f->sample_aspect_ratio = w->encoder->sample_aspect_ratio;
    int ret = av_frame_get_buffer(f, 0);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot allocate a %dx%d frame", p->out_width, p->out_height);

    if (p->out_width != c->width || p->out_height != c->height) {
        w->scratch_stride = (ptrdiff_t)p->out_width * 4;
        w->scratch = av_malloc((size_t)w->scratch_stride * (size_t)p->out_height);
        if (!w->scratch)
            return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a %dx%d scratch frame",
                           p->out_width, p->out_height);
    }
    if (!c->palette)
        return sr_open_scaler(c, p, w, error, error_size);
    w->mapped = av_frame_alloc();
    if (!w->mapped)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a frame");
    return sr_palette_mapper_open(p->out_width, p->out_height, c->fps_num, c->fps_den, c->palette,
                                  c->palette_options, &w->mapper, error, error_size);
}

/* Opens the file (its I/O interruptible) and writes the container header. */
static int sr_open_file(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    int ret;
    if (!(w->format->oformat->flags & AVFMT_NOFILE)) {
        ret = avio_open2(&w->format->pb, c->path, AVIO_FLAG_WRITE, &w->format->interrupt_callback, NULL);
        if (ret < 0)
            return sr_fail(error, error_size, ret, "cannot open '%s' for writing", c->path);
    }
    AVDictionary *options = NULL;
    ret = sr_parse_options(&options, c->format_options);
    if (ret < 0)
        ret = sr_fail(error, error_size, ret, "cannot parse muxer options '%s'", c->format_options);
    else if ((ret = avformat_write_header(w->format, &options)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot write the %s header to '%s'", w->format->oformat->name, c->path);
    else if (av_dict_count(options) > 0)
        ret = SR_INVALID(error, error_size, "muxer '%s' has no option '%s'", w->format->oformat->name,
                         av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX)->key);
    av_dict_free(&options);
    return ret < 0 ? ret : 0;
}

static int sr_open(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    sr_plan plan = { 0 };
    int ret;
    if ((ret = sr_check_sizes(c, &plan, error, error_size)) < 0
        || (ret = sr_check_codec(c, &plan, error, error_size)) < 0
        || (ret = sr_check_input(c, &plan, w, error, error_size)) < 0
        || (ret = sr_check_colours(c, &plan, error, error_size)) < 0
        || (ret = sr_add_stream(c, w, error, error_size)) < 0
        || (ret = sr_open_encoder(c, &plan, w, error, error_size)) < 0
        || (ret = sr_open_converter(c, &plan, w, error, error_size)) < 0)
        return ret;
    return sr_open_file(c, w, error, error_size);
}

int sr_video_writer_open(const sr_video_writer_config *config, sr_video_writer **out_writer,
                         char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    if (!out_writer)
        return AVERROR(EINVAL);
    *out_writer = NULL;
    sr_enter();
    int ret;
    sr_video_writer *writer = NULL;
    if (!config)
        ret = SR_INVALID(error, error_size, "no writer configuration given");
    else if (!(writer = av_mallocz(sizeof *writer)))
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a video writer");
    else
        ret = sr_open(config, writer, error, error_size);
    sr_leave();
    if (ret < 0) {
        sr_video_writer_free(writer);
        return ret;
    }
    *out_writer = writer;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Writing.
 */

/* Sends one frame (NULL flushes) and writes every packet the encoder returns,
   giving way between packets when interrupted: a flush is many packets. */
static int sr_encode(sr_video_writer *w, AVFrame *frame, char *error, size_t error_size)
{
    int ret = avcodec_send_frame(w->encoder, frame);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "%s rejected frame %lld",
                       w->encoder->codec->name, (long long)(frame ? frame->pts : w->next_pts));
    for (;;) {
        if (sr_stop_requested(&w->stop))
            return sr_interrupted(error, error_size);
        ret = avcodec_receive_packet(w->encoder, w->packet);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return 0;
        if (ret < 0)
            return sr_fail(error, error_size, ret, "%s failed to encode", w->encoder->codec->name);
        /* Constant frame rate: every frame lasts one tick of 1/fps. Setting it
           lets the muxer give the last frame its full duration. */
        if (w->packet->duration <= 0)
            w->packet->duration = 1;
        av_packet_rescale_ts(w->packet, w->encoder->time_base, w->stream->time_base);
        w->packet->stream_index = w->stream->index;
        ret = av_interleaved_write_frame(w->format, w->packet);
        if (ret < 0)
            return sr_stop_requested(&w->stop) ? sr_interrupted(error, error_size)
                : sr_fail(error, error_size, ret, "cannot write a packet to the %s file", w->format->oformat->name);
    }
}

/* Copies the input into the scratch frame and pads it. */
static void sr_pad_into_scratch(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride)
{
    int out_width = w->frame->width, out_height = w->frame->height;
    for (int y = 0; y < out_height; y++) {
        uint8_t *row = w->scratch + (ptrdiff_t)y * w->scratch_stride;
        int filled = 0;
        if (y < w->height) {
            memcpy(row, pixels + (ptrdiff_t)y * stride, (size_t)w->width * 4);
            filled = w->width;
        }
        for (int x = filled; x < out_width; x++)
            memcpy(row + (ptrdiff_t)x * 4, w->pad_color, 4);
    }
}

static void sr_keep_pixels(void *opaque, uint8_t *data)
{
    (void)opaque;
    (void)data;
}

static int sr_scale_and_encode(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride,
                               char *error, size_t error_size)
{
    int ret = av_frame_make_writable(w->frame);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot get a writable frame");
    /* sws_scale_frame takes a reference to its source: a buffer over the caller's pixels that frees nothing
       (swscale lets go of it before returning), not a copy. */
    AVFrame *source = w->source;
    source->buf[0] = av_buffer_create((uint8_t *)pixels, (size_t)stride * (size_t)w->frame->height,
                                      sr_keep_pixels, NULL, AV_BUFFER_FLAG_READONLY);
    if (!source->buf[0])
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot wrap frame %lld", (long long)w->next_pts);
    source->data[0] = (uint8_t *)pixels;
    source->linesize[0] = (int)stride;
    source->width = w->frame->width;
    source->height = w->frame->height;
    source->format = w->input_format;
    ret = sws_scale_frame(w->scaler, w->frame, source);
    av_frame_unref(source);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "swscale failed to convert frame %lld", (long long)w->next_pts);
    w->frame->pts = w->next_pts;
    return sr_encode(w, w->frame, error, error_size);
}

/* Encodes every frame paletteuse has ready. Its frames carry the pts given
   with the input. */
static int sr_drain_mapper(sr_video_writer *w, char *error, size_t error_size)
{
    for (;;) {
        int ret = sr_palette_mapper_pull(w->mapper, w->mapped, error, error_size);
        if (ret <= 0)
            return ret;
        ret = sr_encode(w, w->mapped, error, error_size);
        av_frame_unref(w->mapped);
        if (ret < 0)
            return ret;
    }
}

static int sr_map_and_encode(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride,
                             char *error, size_t error_size)
{
    int ret = sr_palette_mapper_push(w->mapper, pixels, stride, w->next_pts, error, error_size);
    return ret < 0 ? ret : sr_drain_mapper(w, error, error_size);
}

/* Why a writer cannot take a call now, or 0. */
static int sr_check_usable(sr_video_writer *w, char *error, size_t error_size)
{
    if (!w)
        return SR_INVALID(error, error_size, "no writer given");
    if (sr_stop_requested(&w->stop))
        return sr_interrupted(error, error_size);
    if (w->finished || w->failed || !w->encoder)
        return SR_INVALID(error, error_size, "the video writer is already %s",
                          w->finished ? "finished" : w->failed ? "failed" : "closed");
    return 0;
}

int sr_video_writer_write(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride,
                          char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret = sr_check_usable(w, error, error_size);
    if (ret < 0) {
        /* reported */
    } else if (!pixels) {
        ret = SR_INVALID(error, error_size, "no pixels given");
    } else if (stride < (ptrdiff_t)av_image_get_linesize(w->input_format, w->width, 0) || stride > INT32_MAX) {
        ret = SR_INVALID(error, error_size, "row stride %td is too small for a %d-pixel row", stride, w->width);
    } else {
        if (w->scratch) {
            sr_pad_into_scratch(w, pixels, stride);
            pixels = w->scratch;
            stride = w->scratch_stride;
        }
        ret = w->mapper ? sr_map_and_encode(w, pixels, stride, error, error_size)
                        : sr_scale_and_encode(w, pixels, stride, error, error_size);
        if (ret >= 0)
            w->next_pts++;
    }
    if (ret < 0 && w)
        w->failed = 1;
    sr_leave();
    return ret < 0 ? ret : 0;
}

int64_t sr_video_writer_frame_count(const sr_video_writer *w)
{
    return w ? w->next_pts : 0;
}

/* Flushes the encoder (and paletteuse), writes the trailer and closes the file. */
static int sr_flush_and_close(sr_video_writer *w, char *error, size_t error_size)
{
    int ret;
    if (w->mapper && ((ret = sr_palette_mapper_push(w->mapper, NULL, 0, 0, error, error_size)) < 0
                      || (ret = sr_drain_mapper(w, error, error_size)) < 0))
        return ret;
    if ((ret = sr_encode(w, NULL, error, error_size)) < 0)
        return ret;
    if (sr_stop_requested(&w->stop))
        return sr_interrupted(error, error_size);
    /* For mp4 with +faststart the trailer rewrites the whole file; its I/O
       checks the stop flag at every buffer. */
    if ((ret = av_write_trailer(w->format)) < 0)
        return sr_stop_requested(&w->stop) ? sr_interrupted(error, error_size)
            : sr_fail(error, error_size, ret, "cannot finish the %s file", w->format->oformat->name);
    if (!(w->format->oformat->flags & AVFMT_NOFILE) && (ret = avio_closep(&w->format->pb)) < 0)
        return sr_fail(error, error_size, ret, "cannot close the %s file", w->format->oformat->name);
    return 0;
}

int sr_video_writer_finish(sr_video_writer *w, char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret = sr_check_usable(w, error, error_size);
    if (ret >= 0)
        ret = sr_flush_and_close(w, error, error_size);
    if (w) {
        if (ret < 0)
            w->failed = 1;
        else
            w->finished = 1;
    }
    sr_leave();
    return ret < 0 ? ret : 0;
}

void sr_video_writer_interrupt(sr_video_writer *w)
{
    if (w)
        sr_stop_raise(&w->stop);
}

void sr_video_writer_close(sr_video_writer *w)
{
    if (!w)
        return;
    sr_enter(); /* keeps x264's closing statistics off stderr */
    avcodec_free_context(&w->encoder);
    if (w->format) {
        if (!(w->format->oformat->flags & AVFMT_NOFILE))
            avio_closep(&w->format->pb);
        avformat_free_context(w->format);
        w->format = NULL;
    }
    av_frame_free(&w->frame);
    av_packet_free(&w->packet);
    sws_freeContext(w->scaler);
    w->scaler = NULL;
    av_frame_free(&w->source);
    sr_palette_mapper_free(w->mapper);
    w->mapper = NULL;
    av_frame_free(&w->mapped);
    av_freep(&w->scratch);
    sr_leave();
}

void sr_video_writer_free(sr_video_writer *w)
{
    sr_video_writer_close(w);
    av_free(w);
}

int sr_encoder_available(const char *codec_name)
{
    return codec_name && avcodec_find_encoder_by_name(codec_name) ? 1 : 0;
}

int64_t sr_rescale(int64_t value, int from_num, int from_den, int to_num, int to_den)
{
    return av_rescale_q_rnd(value, (AVRational){ from_num, from_den }, (AVRational){ to_num, to_den },
                            AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX);
}
