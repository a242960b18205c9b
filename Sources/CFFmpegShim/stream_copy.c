/*
 * stream_copy.c: demux one video stream's packets and mux them unchanged.
 * See include/stream_copy.h.
 */
#include "stream_copy.h"
#include "shim_internal.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/pixdesc.h>

#include <stdio.h>
#include <string.h>

struct sr_packet_reader {
    AVFormatContext *format;
    AVStream *stream;
    AVPacket *packet;
    sr_stop_flag stop;
};

struct sr_packet_writer {
    AVFormatContext *format;
    AVStream *stream;
    sr_stop_flag stop;
};

static void sr_clear(char *error, size_t error_size)
{
    if (error && error_size > 0)
        error[0] = '\0';
}

/* ---------------------------------------------------------------------------
 * Reading.
 */

static void sr_summarize(const sr_packet_reader *r, const char *label_key, sr_stream_summary *s)
{
    memset(s, 0, sizeof *s);
    const AVCodecParameters *p = r->stream->codecpar;
    snprintf(s->format_name, sizeof s->format_name, "%s", r->format->iformat->name);
    const AVDictionaryEntry *brand = av_dict_get(r->format->metadata, "major_brand", NULL, 0);
    if (brand && strstr(r->format->iformat->name, "mp4"))
        snprintf(s->major_brand, sizeof s->major_brand, "%s", brand->value);
    s->stream_count = (int)r->format->nb_streams;
    snprintf(s->codec_name, sizeof s->codec_name, "%s", avcodec_get_name(p->codec_id));
    s->width = p->width;
    s->height = p->height;
    s->time_base_num = r->stream->time_base.num;
    s->time_base_den = r->stream->time_base.den;
    const AVDictionaryEntry *label = label_key ? av_dict_get(r->format->metadata, label_key, NULL, 0) : NULL;
    if (label) {
        s->has_label = 1;
        snprintf(s->label, sizeof s->label, "%s", label->value);
    }
}

/* The messages do not name the path: the caller's do ("cannot read 'x': ..."). */
static int sr_reader_open(sr_packet_reader *r, const char *path, char *error, size_t error_size)
{
    r->format = avformat_alloc_context();
    r->packet = av_packet_alloc();
    if (!r->format || !r->packet)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a reader");
    r->format->interrupt_callback = (AVIOInterruptCB){ sr_stop_requested, &r->stop };
    int ret = avformat_open_input(&r->format, path, NULL, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "FFmpeg cannot open it as a video");
    /* Fills what the headers leave out (VP9's pixel format) from the first frames. */
    ret = avformat_find_stream_info(r->format, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot make out its streams");
    int index = av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (index < 0)
        return SR_INVALID(error, error_size, "it has no video stream");
    r->stream = r->format->streams[index];
    /* A part cut short or damaged before its first frame opens, but its frames' shape cannot be made out:
       it is the part that is wrong, not its settings. */
    const AVCodecParameters *p = r->stream->codecpar;
    if (p->format < 0 || p->width <= 0 || p->height <= 0)
        return SR_INVALID(error, error_size, "damaged or cut short: the size or pixel format of its video cannot be made out");
    return 0;
}

int sr_packet_reader_open(const char *path, const char *label_key, sr_packet_reader **out_reader,
                          sr_stream_summary *summary, char *error, size_t error_size)
{
    sr_clear(error, error_size);
    if (!out_reader || !summary)
        return AVERROR(EINVAL);
    *out_reader = NULL;
    sr_enter();
    int ret;
    sr_packet_reader *r = av_mallocz(sizeof *r);
    if (!path)
        ret = SR_INVALID(error, error_size, "no path given");
    else if (!r)
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a reader");
    else if ((ret = sr_reader_open(r, path, error, error_size)) >= 0)
        sr_summarize(r, label_key, summary);
    sr_leave();
    if (ret < 0) {
        sr_packet_reader_free(r);
        return ret;
    }
    *out_reader = r;
    return 0;
}

int sr_packet_reader_next(sr_packet_reader *r, sr_packet_info *info, char *error, size_t error_size)
{
    sr_clear(error, error_size);
    sr_enter();
    int ret;
    for (;;) {
        av_packet_unref(r->packet);
        if (sr_stop_requested(&r->stop)) {
            ret = sr_fail(error, error_size, AVERROR_EXIT, "interrupted");
            break;
        }
        ret = av_read_frame(r->format, r->packet);
        if (ret == AVERROR_EOF) {
            ret = 0;
            break;
        }
        if (ret < 0) {
            ret = sr_stop_requested(&r->stop) ? sr_fail(error, error_size, ret, "interrupted")
                : sr_fail(error, error_size, ret, "cannot read a packet");
            break;
        }
        if (r->packet->stream_index != r->stream->index)
            continue;
        /* A frame the file ends inside (a part cut short): copied, it would be a broken frame in the joined video. */
        if (r->packet->flags & AV_PKT_FLAG_CORRUPT) {
            ret = SR_INVALID(error, error_size, "damaged or cut short: its frame at pts %lld is incomplete", (long long)r->packet->pts);
            break;
        }
        info->pts = r->packet->pts;
        info->dts = r->packet->dts;
        info->duration = r->packet->duration;
        info->keyframe = (r->packet->flags & AV_PKT_FLAG_KEY) ? 1 : 0;
        info->size = r->packet->size;
        ret = 1;
        break;
    }
    sr_leave();
    return ret;
}

static const char *sr_tag(const AVStream *stream, const char *key)
{
    const AVDictionaryEntry *entry = av_dict_get(stream->metadata, key, NULL, 0);
    return entry ? entry->value : "unset";
}

static const char *sr_name(const char *name) { return name ? name : "unknown"; }

/* The first difference between two streams' parameters, as text; 0 when none. */
static int sr_describe_difference(const AVStream *sa, const AVStream *sb, char *text, size_t size)
{
    const AVCodecParameters *a = sa->codecpar, *b = sb->codecpar;
#define SR_DIFFERS(condition, ...) if (condition) { snprintf(text, size, __VA_ARGS__); return 1; }
    SR_DIFFERS(a->codec_id != b->codec_id, "codec %s, not %s", avcodec_get_name(a->codec_id),
               avcodec_get_name(b->codec_id))
    SR_DIFFERS(a->width != b->width || a->height != b->height, "size %dx%d, not %dx%d",
               a->width, a->height, b->width, b->height)
    SR_DIFFERS(a->format != b->format, "pixel format %s, not %s", sr_name(av_get_pix_fmt_name(a->format)),
               sr_name(av_get_pix_fmt_name(b->format)))
    SR_DIFFERS(a->codec_tag != b->codec_tag, "codec tag %08x, not %08x", a->codec_tag, b->codec_tag)
    SR_DIFFERS(a->profile != b->profile, "profile %s, not %s", sr_name(avcodec_profile_name(a->codec_id, a->profile)),
               sr_name(avcodec_profile_name(b->codec_id, b->profile)))
    SR_DIFFERS(a->level != b->level, "level %d, not %d", a->level, b->level)
    SR_DIFFERS(a->color_range != b->color_range || a->color_primaries != b->color_primaries
               || a->color_trc != b->color_trc || a->color_space != b->color_space
               || a->chroma_location != b->chroma_location,
               "colour %s/%s/%s/%s, not %s/%s/%s/%s",
               sr_name(av_color_range_name(a->color_range)), sr_name(av_color_primaries_name(a->color_primaries)),
               sr_name(av_color_transfer_name(a->color_trc)), sr_name(av_color_space_name(a->color_space)),
               sr_name(av_color_range_name(b->color_range)), sr_name(av_color_primaries_name(b->color_primaries)),
               sr_name(av_color_transfer_name(b->color_trc)), sr_name(av_color_space_name(b->color_space)))
    SR_DIFFERS(a->field_order != b->field_order, "field order %d, not %d", a->field_order, b->field_order)
    SR_DIFFERS(av_cmp_q(a->sample_aspect_ratio, b->sample_aspect_ratio) != 0, "pixel aspect %d:%d, not %d:%d",
               a->sample_aspect_ratio.num, a->sample_aspect_ratio.den,
               b->sample_aspect_ratio.num, b->sample_aspect_ratio.den)
    SR_DIFFERS(a->video_delay != b->video_delay, "reordering delay %d frames, not %d", a->video_delay, b->video_delay)
    SR_DIFFERS(a->extradata_size != b->extradata_size
               || (a->extradata_size > 0 && memcmp(a->extradata, b->extradata, (size_t)a->extradata_size) != 0),
               "codec headers (%d bytes of extradata) differ from the other's (%d bytes): other encoder settings",
               a->extradata_size, b->extradata_size)
    SR_DIFFERS(av_cmp_q(sa->time_base, sb->time_base) != 0, "time base %d/%d, not %d/%d",
               sa->time_base.num, sa->time_base.den, sb->time_base.num, sb->time_base.den)
    SR_DIFFERS(strcmp(sr_tag(sa, "alpha_mode"), sr_tag(sb, "alpha_mode")) != 0, "alpha mode %s, not %s",
               sr_tag(sa, "alpha_mode"), sr_tag(sb, "alpha_mode"))
#undef SR_DIFFERS
    return 0;
}

int sr_packet_reader_difference(const sr_packet_reader *a, const sr_packet_reader *b, char *text, size_t text_size)
{
    char scratch[8];
    if (!text || text_size == 0) {
        text = scratch;
        text_size = sizeof scratch;
    }
    text[0] = '\0';
    return sr_describe_difference(a->stream, b->stream, text, text_size);
}

void sr_packet_reader_interrupt(sr_packet_reader *r)
{
    if (r)
        sr_stop_raise(&r->stop);
}

void sr_packet_reader_free(sr_packet_reader *r)
{
    if (!r)
        return;
    av_packet_free(&r->packet);
    avformat_close_input(&r->format);
    av_free(r);
}

/* ---------------------------------------------------------------------------
 * Writing.
 */

static int sr_writer_open(sr_packet_writer *w, const char *path, const char *format_name,
                          const sr_packet_reader *model, int fps_num, int fps_den,
                          const char *key, const char *value, const char *format_options,
                          char *error, size_t error_size)
{
    int ret = avformat_alloc_output_context2(&w->format, NULL, format_name, path);
    if (ret < 0 || !w->format)
        return sr_fail(error, error_size, ret, "cannot set up a %s container for '%s'", format_name, path);
    w->format->flags |= AVFMT_FLAG_BITEXACT;
    w->format->interrupt_callback = (AVIOInterruptCB){ sr_stop_requested, &w->stop };
    if (key && value && (ret = av_dict_set(&w->format->metadata, key, value, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot set the container metadata");
    w->stream = avformat_new_stream(w->format, NULL);
    if (!w->stream)
        return sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate the stream");
    if ((ret = avcodec_parameters_copy(w->stream->codecpar, model->stream->codecpar)) < 0
        || (ret = av_dict_copy(&w->stream->metadata, model->stream->metadata, 0)) < 0)
        return sr_fail(error, error_size, ret, "cannot copy the stream parameters");
    /* Matroska's per-track length is the model part's, not the joined video's. */
    av_dict_set(&w->stream->metadata, "DURATION", NULL, 0);
    w->stream->time_base = model->stream->time_base;
    w->stream->avg_frame_rate = (AVRational){ fps_num, fps_den };
    w->stream->r_frame_rate = w->stream->avg_frame_rate;
    w->stream->sample_aspect_ratio = model->stream->sample_aspect_ratio;

    ret = avio_open2(&w->format->pb, path, AVIO_FLAG_WRITE, &w->format->interrupt_callback, NULL);
    if (ret < 0)
        return sr_fail(error, error_size, ret, "cannot open '%s' for writing", path);
    AVDictionary *options = NULL;
    if (format_options && *format_options
        && (ret = av_dict_parse_string(&options, format_options, "=", ":", 0)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot parse muxer options '%s'", format_options);
    else if ((ret = avformat_write_header(w->format, &options)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot write the %s header to '%s'", format_name, path);
    else if (av_dict_count(options) > 0)
        ret = SR_INVALID(error, error_size, "muxer '%s' has no option '%s'", format_name,
                         av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX)->key);
    av_dict_free(&options);
    return ret < 0 ? ret : 0;
}

int sr_packet_writer_open(const char *path, const char *format_name, const sr_packet_reader *model,
                          int fps_num, int fps_den, const char *metadata_key, const char *metadata_value,
                          const char *format_options, sr_packet_writer **out_writer,
                          char *error, size_t error_size)
{
    sr_clear(error, error_size);
    if (!out_writer)
        return AVERROR(EINVAL);
    *out_writer = NULL;
    sr_enter();
    int ret;
    sr_packet_writer *w = av_mallocz(sizeof *w);
    if (!path || !format_name || !model || fps_num <= 0 || fps_den <= 0)
        ret = SR_INVALID(error, error_size, "invalid stream copy parameters");
    else if (!w)
        ret = sr_fail(error, error_size, AVERROR(ENOMEM), "cannot allocate a writer");
    else
        ret = sr_writer_open(w, path, format_name, model, fps_num, fps_den, metadata_key, metadata_value,
                             format_options, error, error_size);
    sr_leave();
    if (ret < 0) {
        sr_packet_writer_free(w);
        return ret;
    }
    *out_writer = w;
    return 0;
}

int sr_packet_writer_write(sr_packet_writer *w, sr_packet_reader *r, int64_t pts, int64_t dts, int64_t duration,
                           char *error, size_t error_size)
{
    sr_clear(error, error_size);
    sr_enter();
    int ret;
    if (sr_stop_requested(&w->stop)) {
        ret = sr_fail(error, error_size, AVERROR_EXIT, "interrupted");
    } else {
        AVPacket *packet = r->packet;
        packet->pts = pts;
        packet->dts = dts;
        packet->duration = duration;
        packet->stream_index = w->stream->index;
        packet->pos = -1;
        /* The packet's time base is the model stream's; the muxer may have
           picked another for the output (mov rounds to a timescale). */
        av_packet_rescale_ts(packet, r->stream->time_base, w->stream->time_base);
        ret = av_interleaved_write_frame(w->format, packet);
        if (ret < 0)
            ret = sr_stop_requested(&w->stop) ? sr_fail(error, error_size, ret, "interrupted")
                : sr_fail(error, error_size, ret, "cannot write a packet to the %s file", w->format->oformat->name);
    }
    sr_leave();
    return ret < 0 ? ret : 0;
}

int sr_packet_writer_finish(sr_packet_writer *w, char *error, size_t error_size)
{
    sr_clear(error, error_size);
    sr_enter();
    int ret;
    if (sr_stop_requested(&w->stop))
        ret = sr_fail(error, error_size, AVERROR_EXIT, "interrupted");
    else if ((ret = av_write_trailer(w->format)) < 0)
        ret = sr_stop_requested(&w->stop) ? sr_fail(error, error_size, ret, "interrupted")
            : sr_fail(error, error_size, ret, "cannot finish the %s file", w->format->oformat->name);
    else if ((ret = avio_closep(&w->format->pb)) < 0)
        ret = sr_fail(error, error_size, ret, "cannot close the %s file", w->format->oformat->name);
    sr_leave();
    return ret < 0 ? ret : 0;
}

void sr_packet_writer_interrupt(sr_packet_writer *w)
{
    if (w)
        sr_stop_raise(&w->stop);
}

void sr_packet_writer_free(sr_packet_writer *w)
{
    if (!w)
        return;
    if (w->format) {
        avio_closep(&w->format->pb);
        avformat_free_context(w->format);
    }
    av_free(w);
}
