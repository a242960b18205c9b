/*
 * ffmpeg_shim.c: RGBA frames -> [pad, un-premultiply] -> swscale (or
 * paletteuse) -> encoder -> muxer -> file.
 *
 * The FFmpeg headers come from the CFFmpeg system-library target (pkg-config
 * libavformat libavcodec libavutil libswscale libavfilter). Nothing here
 * aborts: every failure becomes a negative return value and a one-line message.
 *
 * Steady state per frame: at most one copy into a scratch buffer allocated at
 * open (only when padding or un-premultiplying), one swscale conversion into a
 * frame allocated at open, one send/receive round with the encoder, packets
 * reuse one AVPacket. Nothing is allocated per frame except inside FFmpeg.
 */
#include "ffmpeg_shim.h"
#include "shim_internal.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sr_video_writer {
    AVFormatContext *format;
    AVCodecContext *encoder;
    AVStream *stream;
    AVFrame *frame;
    AVPacket *packet;
    struct SwsContext *scaler;
    sr_palette_mapper *mapper;
    AVFrame *mapped;
    enum AVPixelFormat input_format;
    /* Input size; the encoded size is frame->width x frame->height. */
    int width;
    int height;
    /* Padded and/or un-premultiplied copy of the input, when needed. */
    uint8_t *scratch;
    ptrdiff_t scratch_stride;
    int premultiplied;
    uint8_t pad_color[4];
    int64_t next_pts;
    int finished;
    int failed;
};


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

static int sr_has_text(const char *s) { return s && *s; }

/* Parses "k=v:k=v" into *dictionary. */
static int sr_parse_options(AVDictionary **dictionary, const char *options)
{
    if (!sr_has_text(options))
        return 0;
    return av_dict_parse_string(dictionary, options, "=", ":", 0);
}

/* Sends one frame (NULL flushes) and writes every packet the encoder returns. */
static int sr_encode(sr_video_writer *w, AVFrame *frame, char *error, size_t error_size)
{
    int ret = avcodec_send_frame(w->encoder, frame);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "%s rejected frame %lld",
                       w->encoder->codec->name, (long long)(frame ? frame->pts : w->next_pts));
    for (;;) {
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
            return sr_fail(error, error_size, ret, "cannot write a packet to the %s file",
                           w->format->oformat->name);
    }
}

static int sr_open_file(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size);

static int sr_open(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    int ret;
    int out_width = c->output_width > 0 ? c->output_width : c->width;
    int out_height = c->output_height > 0 ? c->output_height : c->height;

    if (!sr_has_text(c->path))
        return SR_INVALID(error, error_size, "no output path given");
    if (!sr_has_text(c->codec_name))
        return SR_INVALID(error, error_size, "no codec given");
    if (c->width <= 0 || c->height <= 0)
        return SR_INVALID(error, error_size, "frame size %dx%d is not positive", c->width, c->height);
    if (c->fps_num <= 0 || c->fps_den <= 0)
        return SR_INVALID(error, error_size, "frame rate %d/%d is not positive", c->fps_num, c->fps_den);
    if (out_width < c->width || out_height < c->height)
        return SR_INVALID(error, error_size, "output size %dx%d is smaller than the frames (%dx%d)",
                          out_width, out_height, c->width, c->height);

    const AVCodec *codec = avcodec_find_encoder_by_name(c->codec_name);
    if (!codec)
        return SR_INVALID(error, error_size, "this FFmpeg build has no encoder '%s'", c->codec_name);
    if (codec->type != AVMEDIA_TYPE_VIDEO)
        return SR_INVALID(error, error_size, "'%s' is not a video encoder", c->codec_name);

    enum AVPixelFormat pixel_format;
    if (sr_has_text(c->pixel_format)) {
        pixel_format = av_get_pix_fmt(c->pixel_format);
        if (pixel_format == AV_PIX_FMT_NONE)
            return SR_INVALID(error, error_size, "unknown pixel format '%s'", c->pixel_format);
    } else if (codec->pix_fmts) {
        pixel_format = codec->pix_fmts[0];
    } else {
        return SR_INVALID(error, error_size, "no pixel format given for encoder '%s'", c->codec_name);
    }
    if (!sr_pixel_format_listed(codec, pixel_format))
        return SR_INVALID(error, error_size, "encoder '%s' does not take pixel format '%s'",
                          c->codec_name, av_get_pix_fmt_name(pixel_format));
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(pixel_format);
    int step_w = 1 << descriptor->log2_chroma_w, step_h = 1 << descriptor->log2_chroma_h;
    if (!c->allow_odd_size && (out_width % step_w || out_height % step_h))
        return SR_INVALID(error, error_size,
                          "%s needs a width divisible by %d and a height divisible by %d; %dx%d is not",
                          descriptor->name, step_w, step_h, out_width, out_height);
    if (c->palette && pixel_format != AV_PIX_FMT_PAL8)
        return SR_INVALID(error, error_size, "a palette needs the pal8 pixel format, not %s", descriptor->name);

    w->input_format = av_get_pix_fmt(sr_has_text(c->input_pixel_format) ? c->input_pixel_format : "rgba");
    if (w->input_format == AV_PIX_FMT_NONE)
        return SR_INVALID(error, error_size, "unknown input pixel format '%s'", c->input_pixel_format);
    const AVPixFmtDescriptor *input_descriptor = av_pix_fmt_desc_get(w->input_format);
    int input_is_packed_32 = input_descriptor->nb_components == 4 && !(input_descriptor->flags & AV_PIX_FMT_FLAG_PLANAR)
                             && av_get_bits_per_pixel(input_descriptor) == 32;
    if ((c->input_premultiplied || out_width != c->width || out_height != c->height) && !input_is_packed_32)
        return SR_INVALID(error, error_size, "padding and un-premultiplying need 32-bit packed input, not %s",
                          input_descriptor->name);
    if (c->palette && w->input_format != AV_PIX_FMT_BGRA)
        return SR_INVALID(error, error_size, "palette mapping needs bgra input, not %s", input_descriptor->name);

    int primaries = AVCOL_PRI_UNSPECIFIED, transfer = AVCOL_TRC_UNSPECIFIED;
    int space = AVCOL_SPC_UNSPECIFIED, range = AVCOL_RANGE_UNSPECIFIED;
    if (sr_has_text(c->color_primaries) && (primaries = av_color_primaries_from_name(c->color_primaries)) < 0)
        return SR_INVALID(error, error_size, "unknown colour primaries '%s'", c->color_primaries);
    if (sr_has_text(c->color_transfer) && (transfer = av_color_transfer_from_name(c->color_transfer)) < 0)
        return SR_INVALID(error, error_size, "unknown colour transfer '%s'", c->color_transfer);
    if (sr_has_text(c->color_space) && (space = av_color_space_from_name(c->color_space)) < 0)
        return SR_INVALID(error, error_size, "unknown colour space '%s'", c->color_space);
    if (sr_has_text(c->color_range) && (range = av_color_range_from_name(c->color_range)) < 0)
        return SR_INVALID(error, error_size, "unknown colour range '%s'", c->color_range);

    ret = avformat_alloc_output_context2(&w->format, NULL,
                                         sr_has_text(c->format_name) ? c->format_name : NULL, c->path);
    if (ret < 0 || !w->format)
        return sr_fail(error, error_size, ret, "cannot set up a%s container for '%s'",
                       sr_has_text(c->format_name) ? "" : "ny", c->path);

    w->stream = avformat_new_stream(w->format, NULL);
    w->encoder = avcodec_alloc_context3(codec);
    w->packet = av_packet_alloc();
    w->frame = av_frame_alloc();
    if (!w->stream || !w->encoder || !w->packet || !w->frame)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the encoder");

    AVCodecContext *e = w->encoder;
    w->width = c->width;
    w->height = c->height;
    w->premultiplied = c->input_premultiplied != 0;
    memcpy(w->pad_color, c->pad_color, 4);
    e->width = out_width;
    e->height = out_height;
    e->thread_count = c->thread_count > 0 ? c->thread_count : 0;
    e->pix_fmt = pixel_format;
    e->time_base = (AVRational){ c->fps_den, c->fps_num };
    e->framerate = (AVRational){ c->fps_num, c->fps_den };
    e->sample_aspect_ratio = (AVRational){ 1, 1 };
    e->color_primaries = (enum AVColorPrimaries)primaries;
    e->color_trc = (enum AVColorTransferCharacteristic)transfer;
    e->colorspace = (enum AVColorSpace)space;
    e->color_range = (enum AVColorRange)range;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER)
        e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;

    w->stream->time_base = e->time_base;
    w->stream->avg_frame_rate = e->framerate;
    w->stream->r_frame_rate = e->framerate;
    w->stream->sample_aspect_ratio = e->sample_aspect_ratio;

    AVDictionary *options = NULL;
    ret = sr_parse_options(&options, c->codec_options);
    if (ret < 0) {
        av_dict_free(&options);
        return sr_fail(error, error_size, ret, "cannot parse encoder options '%s'", c->codec_options);
    }
    ret = avcodec_open2(e, codec, &options);
    if (ret < 0) {
        av_dict_free(&options);
        return sr_fail(error, error_size, ret, "cannot open encoder '%s'", c->codec_name);
    }
    const AVDictionaryEntry *unused = av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX);
    if (unused) {
        int r = SR_INVALID(error, error_size, "encoder '%s' has no option '%s'", c->codec_name, unused->key);
        av_dict_free(&options);
        return r;
    }
    av_dict_free(&options);

    ret = avcodec_parameters_from_context(w->stream->codecpar, e);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot pass encoder parameters to the muxer");

    w->frame->format = pixel_format;
    w->frame->width = out_width;
    w->frame->height = out_height;
    w->frame->color_primaries = e->color_primaries;
    w->frame->color_trc = e->color_trc;
    w->frame->colorspace = e->colorspace;
    w->frame->color_range = e->color_range;
    w->frame->sample_aspect_ratio = e->sample_aspect_ratio;
    ret = av_frame_get_buffer(w->frame, 0);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot allocate a %dx%d frame", out_width, out_height);

    if (w->premultiplied || out_width != c->width || out_height != c->height) {
        w->scratch_stride = (ptrdiff_t)out_width * 4;
        w->scratch = av_malloc((size_t)w->scratch_stride * (size_t)out_height);
        if (!w->scratch)
            return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a %dx%d scratch frame",
                           out_width, out_height);
    }

    if (c->palette) {
        ret = sr_palette_mapper_open(out_width, out_height, c->fps_num, c->fps_den, c->palette,
                                     c->palette_options, &w->mapper, error, error_size);
        if (ret < 0)
            return ret;
        w->mapped = av_frame_alloc();
        if (!w->mapped)
            return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a frame");
        return sr_open_file(c, w, error, error_size);
    }

    w->scaler = sws_getContext(out_width, out_height, w->input_format,
                               out_width, out_height, pixel_format,
                               SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP,
                               NULL, NULL, NULL);
    if (!w->scaler)
        return SR_INVALID(error, error_size, "swscale cannot convert %s to %s",
                          av_get_pix_fmt_name(w->input_format), av_get_pix_fmt_name(pixel_format));
    int output_is_yuv = !(descriptor->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))
                        && descriptor->nb_components >= 3;
    if (output_is_yuv) {
        int matrix = sr_swscale_matrix((enum AVColorSpace)space);
        if (space != AVCOL_SPC_UNSPECIFIED && matrix < 0)
            return SR_INVALID(error, error_size, "swscale has no RGB->YUV matrix for colour space '%s'",
                              c->color_space);
        if (matrix < 0)
            matrix = SWS_CS_DEFAULT;
        const int *coefficients = sws_getCoefficients(matrix);
        int source_full = (input_descriptor->flags & AV_PIX_FMT_FLAG_RGB) ? 1 : 0;
        int destination_full = range == AVCOL_RANGE_JPEG ? 1 : 0;
        ret = sws_setColorspaceDetails(w->scaler, coefficients, source_full, coefficients, destination_full,
                                       0, 1 << 16, 1 << 16);
        if (ret < 0)
            return SR_INVALID(error, error_size, "swscale cannot use the %s matrix for %s -> %s",
                              sr_has_text(c->color_space) ? c->color_space : "default",
                              av_get_pix_fmt_name(w->input_format), av_get_pix_fmt_name(pixel_format));
    }

    return sr_open_file(c, w, error, error_size);
}

/* Opens the file and writes the container header: the last step of opening. */
static int sr_open_file(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    int ret;
    const AVDictionaryEntry *unused;
    if (!(w->format->oformat->flags & AVFMT_NOFILE)) {
        ret = avio_open(&w->format->pb, c->path, AVIO_FLAG_WRITE);
        if (ret < 0)
            return sr_fail(error, error_size, ret, "cannot open '%s' for writing", c->path);
    }

    AVDictionary *format_options = NULL;
    ret = sr_parse_options(&format_options, c->format_options);
    if (ret < 0) {
        av_dict_free(&format_options);
        return sr_fail(error, error_size, ret, "cannot parse muxer options '%s'", c->format_options);
    }
    ret = avformat_write_header(w->format, &format_options);
    if (ret < 0) {
        av_dict_free(&format_options);
        return sr_fail(error, error_size, ret, "cannot write the %s header to '%s'",
                       w->format->oformat->name, c->path);
    }
    unused = av_dict_get(format_options, "", NULL, AV_DICT_IGNORE_SUFFIX);
    if (unused) {
        int r = SR_INVALID(error, error_size, "muxer '%s' has no option '%s'",
                           w->format->oformat->name, unused->key);
        av_dict_free(&format_options);
        return r;
    }
    av_dict_free(&format_options);
    return 0;
}

int sr_video_writer_open(const sr_video_writer_config *config, sr_video_writer **out_writer,
                         char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    if (!out_writer)
        return AVERROR(EINVAL);
    *out_writer = NULL;
    if (!config) {
        sr_enter();
        int r = SR_INVALID(error, error_size, "no writer configuration given");
        sr_leave();
        return r;
    }
    sr_video_writer *writer = av_mallocz(sizeof *writer);
    if (!writer) {
        sr_enter();
        int r = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a video writer");
        sr_leave();
        return r;
    }
    sr_enter();
    int ret = sr_open(config, writer, error, error_size);
    sr_leave();
    if (ret < 0) {
        sr_video_writer_free(writer);
        return ret;
    }
    *out_writer = writer;
    return 0;
}

/* Copies the input into the scratch frame, pads it and un-premultiplies it:
   one pass over memory that is about to be read by swscale anyway. */
static void sr_prepare_scratch(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride)
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
        if (w->premultiplied)
            sr_unpremultiply_in_place(row, (size_t)out_width);
    }
}

static int sr_scale_and_encode(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride,
                               char *error, size_t error_size)
{
    int ret = av_frame_make_writable(w->frame);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot get a writable frame");
    const uint8_t *source[4] = { pixels, NULL, NULL, NULL };
    const int source_stride[4] = { (int)stride, 0, 0, 0 };
    int rows = sws_scale(w->scaler, source, source_stride, 0, w->frame->height, w->frame->data, w->frame->linesize);
    if (rows <= 0)
        return sr_fail(error, error_size, rows, "swscale failed to convert frame %lld", (long long)w->next_pts);
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

int sr_video_writer_write(sr_video_writer *w, const uint8_t *pixels, ptrdiff_t stride,
                          char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret;
    if (!w || !pixels) {
        ret = SR_INVALID(error, error_size, "no writer or no pixels given");
    } else if (w->finished || w->failed) {
        ret = SR_INVALID(error, error_size, "the video writer is already %s", w->finished ? "finished" : "failed");
    } else if (stride < (ptrdiff_t)av_image_get_linesize(w->input_format, w->width, 0) || stride > INT32_MAX) {
        ret = SR_INVALID(error, error_size, "row stride %td is too small for a %d-pixel row", stride, w->width);
    } else {
        if (w->scratch) {
            sr_prepare_scratch(w, pixels, stride);
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

int sr_video_writer_finish(sr_video_writer *w, char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
    sr_enter();
    int ret = 0;
    if (!w) {
        ret = SR_INVALID(error, error_size, "no writer given");
    } else if (w->finished || w->failed) {
        ret = SR_INVALID(error, error_size, "the video writer is already %s", w->finished ? "finished" : "failed");
    } else if (w->mapper && ((ret = sr_palette_mapper_push(w->mapper, NULL, 0, 0, error, error_size)) < 0
                             || (ret = sr_drain_mapper(w, error, error_size)) < 0)) {
        /* message written */
    } else if ((ret = sr_encode(w, NULL, error, error_size)) < 0) {
        /* message written */
    } else if ((ret = av_write_trailer(w->format)) < 0) {
        ret = sr_fail(error, error_size, ret, "cannot finish the %s file", w->format->oformat->name);
    } else if (!(w->format->oformat->flags & AVFMT_NOFILE) && (ret = avio_closep(&w->format->pb)) < 0) {
        ret = sr_fail(error, error_size, ret, "cannot close the %s file", w->format->oformat->name);
    }
    if (w) {
        if (ret < 0)
            w->failed = 1;
        else
            w->finished = 1;
    }
    sr_leave();
    return ret < 0 ? ret : 0;
}

void sr_video_writer_free(sr_video_writer *w)
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
    sr_palette_mapper_free(w->mapper);
    w->mapper = NULL;
    av_frame_free(&w->mapped);
    av_freep(&w->scratch);
    sr_leave();
    av_free(w);
}

int sr_encoder_available(const char *codec_name)
{
    return codec_name && avcodec_find_encoder_by_name(codec_name) ? 1 : 0;
}
