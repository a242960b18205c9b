/*
 * shim_log.c: how every shim call turns FFmpeg's logging into its one-line
 * error message. See shim_internal.h.
 */
#include "shim_internal.h"

#include <libavutil/avutil.h>
#include <libavutil/log.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Logging. FFmpeg reports details (x264's "Error setting preset", a muxer's
 * complaint) through av_log rather than return codes. While a shim call runs
 * on a thread, error-level lines logged on that thread are captured and added
 * to the call's message. Nothing FFmpeg logs is ever printed: shiftrender's
 * stderr holds its own one-line messages only, and FFmpeg's lines
 * ("[mov,mp4,... @ 0x55...] Packet corrupt", x264's banner, warnings logged
 * from codec threads, where no call is running) name pointers and options a
 * user cannot act on; a failure says what matters in its message.
 */

#define SR_CAPTURE_SIZE 512

static _Thread_local int sr_in_call;
static _Thread_local char sr_captured[SR_CAPTURE_SIZE];

static void sr_log_callback(void *context, int level, const char *format, va_list args)
{
    /* Warnings are dropped too: in a call that fails, they are guesses
       ("misdetection possible!") that would crowd out the error itself. */
    if (!sr_in_call || level > AV_LOG_ERROR)
        return;
    char line[SR_CAPTURE_SIZE];
    int used = 0;
    if (context) {
        const AVClass *cls = *(const AVClass **)context;
        if (cls && cls->item_name) {
            const char *name = cls->item_name(context);
            /* A parser's context names itself "NULL": no name is better than that one. */
            if (name && *name && strcmp(name, "NULL") != 0)
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

void sr_enter(void)
{
    pthread_once(&sr_log_once, sr_install_logger);
    sr_in_call = 1;
    sr_captured[0] = '\0';
}

void sr_leave(void)
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
int sr_fail(char *error, size_t error_size, int code, const char *what, ...)
{
    va_list args;
    va_start(args, what);
    int r = sr_vfail(error, error_size, code, 1, what, args);
    va_end(args);
    return r;
}

/* A problem the shim found itself: the message says it all. */
int sr_invalid(char *error, size_t error_size, const char *what, ...)
{
    va_list args;
    va_start(args, what);
    int r = sr_vfail(error, error_size, AVERROR(EINVAL), 0, what, args);
    va_end(args);
    return r;
}


