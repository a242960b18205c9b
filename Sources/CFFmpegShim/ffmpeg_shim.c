/*
 * ffmpeg_shim.c: RGBA frames -> swscale -> encoder -> muxer -> file.
 *
 * The FFmpeg headers come from the CFFmpeg system-library target (pkg-config
 * libavformat libavcodec libavutil libswscale). Nothing here aborts: every
 * failure becomes a negative return value and a one-line message.
 *
 * Steady state per frame: one swscale conversion into a frame allocated at
 * open, one send/receive round with the encoder, packets reuse one AVPacket.
 */
#include "ffmpeg_shim.h"

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
    enum AVPixelFormat input_format;
    int width;
    int height;
    int64_t next_pts;
    int finished;
    int failed;
};

/* ---------------------------------------------------------------------------
 * Logging. FFmpeg reports details (x264's "Error setting preset", a muxer's
 * complaint) through av_log rather than return codes. While a shim call runs
 * on a thread, error-level lines logged on that thread are captured and added
 * to the call's message instead of printed; info chatter (x264's banner and
 * statistics) is dropped; warnings still reach stderr. Outside shim calls the
 * default logger behaves as usual.
 */

#define SR_CAPTURE_SIZE 512

static _Thread_local int sr_in_call;
static _Thread_local char sr_captured[SR_CAPTURE_SIZE];

static void sr_log_callback(void *context, int level, const char *format, va_list args)
{
    if (!sr_in_call) {
        av_log_default_callback(context, level, format, args);
        return;
    }
    if (level > AV_LOG_WARNING)
        return;
    if (level == AV_LOG_WARNING) {
        av_log_default_callback(context, level, format, args);
        return;
    }
    char line[SR_CAPTURE_SIZE];
    int used = 0;
    if (context) {
        const AVClass *cls = *(const AVClass **)context;
        if (cls && cls->item_name) {
            const char *name = cls->item_name(context);
            if (name && *name)
                used = snprintf(line, sizeof line, "%s: ", name);
        }
    }
    if (used < 0 || (size_t)used >= sizeof line)
        used = 0;
    vsnprintf(line + used, sizeof line - (size_t)used, format, args);
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    size_t length = strlen(line);
    while (length > 0 && line[length - 1] == ' ')
        line[--length] = '\0';
    if (length == 0)
        return;
    size_t held = strlen(sr_captured);
    if (held > 0 && held + 2 < SR_CAPTURE_SIZE) {
        strcat(sr_captured, "; ");
        held += 2;
    }
    if (held + 1 < SR_CAPTURE_SIZE)
        strncat(sr_captured, line, SR_CAPTURE_SIZE - held - 1);
}

static pthread_once_t sr_log_once = PTHREAD_ONCE_INIT;

static void sr_install_logger(void)
{
    av_log_set_callback(sr_log_callback);
}

static void sr_enter(void)
{
    pthread_once(&sr_log_once, sr_install_logger);
    sr_in_call = 1;
    sr_captured[0] = '\0';
}

static void sr_leave(void)
{
    sr_in_call = 0;
    sr_captured[0] = '\0';
}

/* Writes "<what>[: <FFmpeg error text>][ (<captured log>)]" and returns a negative code. */
static int sr_vfail(char *error, size_t error_size, int code, int show_code, const char *what, va_list args)
{
    if (code >= 0)
        code = AVERROR_UNKNOWN;
    if (error && error_size > 0) {
        char text[256];
        vsnprintf(text, sizeof text, what, args);
        char reason[AV_ERROR_MAX_STRING_SIZE] = "";
        if (show_code && code != AVERROR_UNKNOWN)
            av_strerror(code, reason, sizeof reason);
        if (reason[0] && sr_captured[0])
            snprintf(error, error_size, "%s: %s (%s)", text, reason, sr_captured);
        else if (reason[0])
            snprintf(error, error_size, "%s: %s", text, reason);
        else if (sr_captured[0])
            snprintf(error, error_size, "%s: %s", text, sr_captured);
        else
            snprintf(error, error_size, "%s", text);
    }
    return code;
}

/* A failure FFmpeg reported with `code`; its text is added to the message. */
static int sr_fail(char *error, size_t error_size, int code, const char *what, ...)
{
    va_list args;
    va_start(args, what);
    int r = sr_vfail(error, error_size, code, 1, what, args);
    va_end(args);
    return r;
}

/* A problem the shim found itself: the message says it all. */
static int sr_invalid(char *error, size_t error_size, const char *what, ...)
{
    va_list args;
    va_start(args, what);
    int r = sr_vfail(error, error_size, AVERROR(EINVAL), 0, what, args);
    va_end(args);
    return r;
}

#define SR_INVALID sr_invalid

/* ------------------------------------------------------------------------ */

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

static int sr_open(const sr_video_writer_config *c, sr_video_writer *w, char *error, size_t error_size)
{
    int ret;

    if (!sr_has_text(c->path))
        return SR_INVALID(error, error_size, "no output path given");
    if (!sr_has_text(c->codec_name))
        return SR_INVALID(error, error_size, "no codec given");
    if (c->width <= 0 || c->height <= 0)
        return SR_INVALID(error, error_size, "frame size %dx%d is not positive", c->width, c->height);
    if (c->fps_num <= 0 || c->fps_den <= 0)
        return SR_INVALID(error, error_size, "frame rate %d/%d is not positive", c->fps_num, c->fps_den);

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
    if (c->width % step_w || c->height % step_h)
        return SR_INVALID(error, error_size,
                          "%s needs a width divisible by %d and a height divisible by %d; %dx%d is not",
                          descriptor->name, step_w, step_h, c->width, c->height);

    w->input_format = av_get_pix_fmt(sr_has_text(c->input_pixel_format) ? c->input_pixel_format : "rgba");
    if (w->input_format == AV_PIX_FMT_NONE)
        return SR_INVALID(error, error_size, "unknown input pixel format '%s'", c->input_pixel_format);

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
    e->width = c->width;
    e->height = c->height;
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
    w->frame->width = c->width;
    w->frame->height = c->height;
    w->frame->color_primaries = e->color_primaries;
    w->frame->color_trc = e->color_trc;
    w->frame->colorspace = e->colorspace;
    w->frame->color_range = e->color_range;
    w->frame->sample_aspect_ratio = e->sample_aspect_ratio;
    ret = av_frame_get_buffer(w->frame, 0);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot allocate a %dx%d frame", c->width, c->height);

    w->scaler = sws_getContext(c->width, c->height, w->input_format,
                               c->width, c->height, pixel_format,
                               SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP,
                               NULL, NULL, NULL);
    if (!w->scaler)
        return SR_INVALID(error, error_size, "swscale cannot convert %s to %s",
                          av_get_pix_fmt_name(w->input_format), av_get_pix_fmt_name(pixel_format));
    const AVPixFmtDescriptor *input_descriptor = av_pix_fmt_desc_get(w->input_format);
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
    } else if ((ret = av_frame_make_writable(w->frame)) < 0) {
        ret = sr_fail(error, error_size, ret, "cannot get a writable frame");
    } else {
        const uint8_t *source[4] = { pixels, NULL, NULL, NULL };
        const int source_stride[4] = { (int)stride, 0, 0, 0 };
        int rows = sws_scale(w->scaler, source, source_stride, 0, w->height, w->frame->data, w->frame->linesize);
        if (rows <= 0) {
            ret = sr_fail(error, error_size, rows, "swscale failed to convert frame %lld", (long long)w->next_pts);
        } else {
            w->frame->pts = w->next_pts;
            ret = sr_encode(w, w->frame, error, error_size);
            if (ret >= 0)
                w->next_pts++;
        }
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
    sr_leave();
    av_free(w);
}

int sr_encoder_available(const char *codec_name)
{
    return codec_name && avcodec_find_encoder_by_name(codec_name) ? 1 : 0;
}
