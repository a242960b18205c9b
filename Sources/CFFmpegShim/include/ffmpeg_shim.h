/*
 * ffmpeg_shim.h: the whole C surface Swift sees of FFmpeg.
 *
 * A video writer takes RGBA frames, converts them with swscale (or, for GIF,
 * maps them onto a palette with libavfilter) to the codec's pixel format,
 * encodes them and muxes the packets into a file. Container,
 * codec, pixel format, colour tags and codec/muxer options are parameters, so
 * other outputs (ProRes 4444 .mov, VP9 .webm with alpha, GIF) are a different
 * configuration rather than a different code path.
 *
 * Outputs are bit-exact: the muxer and encoder run with FFmpeg's bitexact
 * flags (no random WebM segment id, no version strings or creation times),
 * so the same frames, settings and encoder thread count give the same bytes.
 *
 * Any thread may stop a writer with sr_video_writer_interrupt while another
 * thread is inside it: the call in progress returns at the next packet (or
 * the next I/O buffer of the file) with an error.
 *
 * This header deliberately includes no FFmpeg header: the FFmpeg types stay
 * inside ffmpeg_shim.c. Every function reports failure as a negative return
 * value plus a one-line, NUL-terminated message in the caller's buffer; none
 * of them aborts or exits.
 */
#ifndef SHIFTRENDER_FFMPEG_SHIM_H
#define SHIFTRENDER_FFMPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handle: one output file being written. */
typedef struct sr_video_writer sr_video_writer;

/*
 * What to write. Strings may be NULL where noted; all are copied or consumed
 * during sr_video_writer_open, so they need not outlive the call.
 */
typedef struct sr_video_writer_config {
    /* Output file. Written as is; the caller picks a temporary name if it wants. */
    const char *path;
    /* Muxer short name ("mp4", "mov", "webm", "gif"). NULL: guess from path. */
    const char *format_name;
    /* Encoder name ("libx264", "prores_ks", "libvpx-vp9", "gif"). */
    const char *codec_name;
    /* Encoded pixel format ("yuv420p", "yuva444p10le", "yuva420p", "pal8"). */
    const char *pixel_format;
    /* Layout of the bytes passed to sr_video_writer_write: "rgba" when NULL. */
    const char *input_pixel_format;
    int width;
    int height;
    /* Frame rate as a rational; the time base is its inverse and the pts of
       frame i is i, so the file holds exactly the frames given at that rate. */
    int fps_num;
    int fps_den;
    /* Encoder private options, "key=value:key=value" (e.g. "crf=18:preset=medium").
       NULL or "" for none. An option the encoder does not know is an error. */
    const char *codec_options;
    /* Muxer options, same syntax (e.g. "movflags=+faststart"). NULL for none. */
    const char *format_options;
    /* Colour description, FFmpeg names. NULL leaves the tag unspecified.
       color_space also picks the swscale RGB->YUV matrix ("bt709", "bt470bg",
       "smpte170m", "bt2020nc"); color_range "tv" (limited) or "pc" (full). */
    const char *color_primaries;
    const char *color_transfer;
    const char *color_space;
    const char *color_range;
    /* Encoded size, when larger than width x height: each frame is padded on
       the right and at the bottom with pad_color (4 bytes in the input pixel
       layout). 0 means width / height. Pixels are converted as they are: the
       caller un-premultiplies them first for outputs that keep alpha. */
    int output_width;
    int output_height;
    uint8_t pad_color[4];
    /* 1 lets an encoder that handles them (libvpx-vp9) take sizes its chroma
       subsampling does not divide; 0 refuses them here with a clear message. */
    int allow_odd_size;
    /* Encoder threads; 0 leaves the choice to FFmpeg. */
    int thread_count;
    /* PAL8 outputs (GIF): 256 entries 0xAARRGGBB every frame is mapped onto
       with libavfilter's paletteuse instead of swscale; the input must then
       be straight-alpha "bgra". palette_options are paletteuse's
       ("dither=sierra2_4a:diff_mode=rectangle"). NULL palette: swscale. */
    const uint32_t *palette;
    const char *palette_options;
    /* One container metadata entry (e.g. the chunk label), or NULL. mp4 and
       mov keep an arbitrary key only with movflags +use_metadata_tags. */
    const char *metadata_key;
    const char *metadata_value;
} sr_video_writer_config;

/*
 * Opens the output, the encoder and the converter and writes the container
 * header. On success returns 0 and stores the handle in *out_writer. On
 * failure returns a negative value, leaves *out_writer NULL, writes a message
 * to error (when error_size > 0) and closes whatever it opened; the file at
 * config->path may exist and is the caller's to remove.
 */
int sr_video_writer_open(const sr_video_writer_config *config,
                         sr_video_writer **out_writer,
                         char *error, size_t error_size);

/*
 * Converts, encodes and muxes one frame. pixels holds height rows of
 * stride bytes in the configured input pixel format. Frames get pts 0, 1, 2...
 * in the order written. Returns 0 or a negative value with a message.
 */
int sr_video_writer_write(sr_video_writer *writer,
                          const uint8_t *pixels, ptrdiff_t stride,
                          char *error, size_t error_size);

/* Number of frames accepted so far. */
int64_t sr_video_writer_frame_count(const sr_video_writer *writer);

/*
 * Flushes the encoder, writes the trailer (for mp4 with +faststart this moves
 * the index to the front) and closes the file. After it, only free is valid.
 * Returns 0 or a negative value with a message.
 */
int sr_video_writer_finish(sr_video_writer *writer, char *error, size_t error_size);

/*
 * Makes the call in progress on another thread (write or finish: encoding,
 * the encoder's flush, the trailer, a blocking file write) and every later
 * call fail promptly with "interrupted". Only sets an atomic flag: safe from
 * any thread at any time until sr_video_writer_free, including after
 * sr_video_writer_close. NULL is accepted.
 */
void sr_video_writer_interrupt(sr_video_writer *writer);

/*
 * Closes the file (without a trailer if unfinished: the file is then
 * unusable and the caller should remove it) and releases FFmpeg's state,
 * keeping the handle itself valid for sr_video_writer_interrupt and
 * sr_video_writer_frame_count. No other thread may be inside write or finish.
 * NULL is accepted.
 */
void sr_video_writer_close(sr_video_writer *writer);

/* sr_video_writer_close, then releases the handle. NULL is accepted. */
void sr_video_writer_free(sr_video_writer *writer);

/* 1 when this FFmpeg build has an encoder by that name, else 0. */
int sr_encoder_available(const char *codec_name);

/* value * from_num/from_den expressed in units of to_num/to_den, rounded to
   the nearest (halves away from zero), as FFmpeg rescales timestamps. */
int64_t sr_rescale(int64_t value, int from_num, int from_den, int to_num, int to_den);

#ifdef __cplusplus
}
#endif

#endif /* SHIFTRENDER_FFMPEG_SHIM_H */
