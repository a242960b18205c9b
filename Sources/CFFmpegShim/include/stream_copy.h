/*
 * stream_copy.h: reading the packets of a video file's one video stream and
 * writing them, unchanged, into another file of the same container: how
 * chunks rendered apart are joined without re-encoding.
 *
 * The caller decides which packets go where and with which timestamps; this
 * side only demuxes and muxes (as FFmpeg's doc/examples/remux.c does) and
 * compares two files' stream parameters. Both sides are interruptible from
 * another thread, like sr_video_writer: the call in progress returns at its
 * next packet or I/O buffer. Failures are a negative return value and a
 * one-line message, never an abort.
 */
#ifndef SHIFTRENDER_STREAM_COPY_H
#define SHIFTRENDER_STREAM_COPY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sr_packet_reader sr_packet_reader;
typedef struct sr_packet_writer sr_packet_writer;

/* What a reader found in its file. */
typedef struct sr_stream_summary {
    /* FFmpeg's demuxer: "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "gif"... */
    char format_name[64];
    /* ISO-BMFF major brand ("isom", "qt  "); empty for other containers. */
    char major_brand[8];
    /* Streams of any kind in the file; the reader reads the first video stream. */
    int stream_count;
    char codec_name[32];
    int width;
    int height;
    /* The video stream's time base: its timestamps count these. */
    int time_base_num;
    int time_base_den;
    /* The container metadata entry named by the key given to open, matched
       without regard to case (Matroska stores keys in capitals). */
    int has_label;
    char label[512];
} sr_stream_summary;

typedef struct sr_packet_info {
    /* In the stream's time base; INT64_MIN when the file gives none. */
    int64_t pts;
    int64_t dts;
    int64_t duration;
    int keyframe;
    int size;
} sr_packet_info;

/* Opens path and its first video stream, filling summary. label_key may be NULL. */
int sr_packet_reader_open(const char *path, const char *label_key, sr_packet_reader **out_reader,
                          sr_stream_summary *summary, char *error, size_t error_size);

/* Reads the video stream's next packet: 1 and its info, 0 at the end, or negative. */
int sr_packet_reader_next(sr_packet_reader *reader, sr_packet_info *info, char *error, size_t error_size);

/*
 * 0 when both readers' video streams have the same codec parameters (codec,
 * tag, size, pixel format, profile, level, colour tags, chroma siting, field
 * order, aspect ratio, reordering delay, extradata), time base and alpha
 * mode; else 1 and the first difference in text, e.g. "size 96x64, not 64x48"
 * (a's value first).
 */
int sr_packet_reader_difference(const sr_packet_reader *a, const sr_packet_reader *b,
                                char *text, size_t text_size);

void sr_packet_reader_interrupt(sr_packet_reader *reader);
void sr_packet_reader_free(sr_packet_reader *reader);

/*
 * Creates path as a format_name file ("mp4", "mov", "webm") with one video
 * stream whose parameters, time base and stream tags are model's, at
 * fps_num/fps_den, bit-exact, with one container metadata entry (key NULL:
 * none), and writes the header. format_options as sr_video_writer_config's.
 */
int sr_packet_writer_open(const char *path, const char *format_name, const sr_packet_reader *model,
                          int fps_num, int fps_den, const char *metadata_key, const char *metadata_value,
                          const char *format_options, sr_packet_writer **out_writer,
                          char *error, size_t error_size);

/* Writes the reader's current packet with these timestamps (in the time base
   of the model's stream). The reader's packet is consumed. */
int sr_packet_writer_write(sr_packet_writer *writer, sr_packet_reader *reader,
                           int64_t pts, int64_t dts, int64_t duration, char *error, size_t error_size);

/* Writes the trailer and closes the file. */
int sr_packet_writer_finish(sr_packet_writer *writer, char *error, size_t error_size);

void sr_packet_writer_interrupt(sr_packet_writer *writer);
void sr_packet_writer_free(sr_packet_writer *writer);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_STREAM_COPY_H */
