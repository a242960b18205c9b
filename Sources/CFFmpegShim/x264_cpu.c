/*
 * x264_cpu.c: the CPU features libx264 may use, AVX-512 left out.
 *
 * Why: libx264's AVX-512 code (Debian 12's 0.164.3095) reads heap memory
 * that nothing wrote, and what it finds there changes the stream. The same
 * frames and settings gave different MP4s when glibc filled fresh heap
 * memory with different bytes (MALLOC_PERTURB_=1, 85, 170: a different file
 * each, every run, at 320x180 with presets fast and medium, 1 and 2
 * threads); so does ffmpeg's command line tool on frames that trigger it.
 * Zeroing every byte of the frames handed to x264, padding and 64 KB beyond
 * included, changed nothing: the memory is x264's. In a long-lived process
 * it showed as an MP4 that depended on what the process had encoded before.
 * With AVX-512 left out, the bytes never depend on the heap (BitExactTests
 * runs both checks). Leaving it out costs only speed, and little: x264
 * alone at 1080p took 4% more CPU time, within this machine's noise
 * (benchmarks/RESULTS.md).
 *
 * x264 takes the list of features by name ("asm"), replacing its own
 * detection, so the list must name only what the CPU has: it is built from
 * libavutil's detection, plus cpuid for the two facts libavutil does not
 * report (LZCNT, a 64-byte cache line).
 */
#include "shim_internal.h"

#include <libavutil/cpu.h>
#include <libavutil/dict.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static int sr_has_lzcnt(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 5));
}

static int sr_cache_line_64(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && ((b >> 8) & 0xFF) * 8 == 64;
}

int sr_x264_cpu_list(char *out, size_t size)
{
    int flags = av_get_cpu_flags();
    if (!(flags & AV_CPU_FLAG_AVX512))
        return 0;
    static const struct { int flag; const char *name; } names[] = {
        { AV_CPU_FLAG_MMXEXT, "MMX2" }, { AV_CPU_FLAG_SSE, "SSE" }, { AV_CPU_FLAG_SSE2, "SSE2" },
        { AV_CPU_FLAG_SSE3, "SSE3" }, { AV_CPU_FLAG_SSSE3, "SSSE3" }, { AV_CPU_FLAG_SSE4, "SSE4.1" },
        { AV_CPU_FLAG_SSE42, "SSE4.2" }, { AV_CPU_FLAG_AVX, "AVX" }, { AV_CPU_FLAG_XOP, "XOP" },
        { AV_CPU_FLAG_FMA4, "FMA4" }, { AV_CPU_FLAG_FMA3, "FMA3" }, { AV_CPU_FLAG_BMI1, "BMI1" },
        { AV_CPU_FLAG_BMI2, "BMI2" }, { AV_CPU_FLAG_AVX2, "AVX2" },
    };
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & names[i].flag))
            continue;
        int n = snprintf(out + used, size - used, "%s%s", used ? "," : "", names[i].name);
        if (n < 0 || (size_t)n >= size - used)
            return -1;
        used += (size_t)n;
    }
    /* What x264's own detection adds on such CPUs: SSE2 is fast where SSSE3 exists. */
    const char *extra[] = {
        (flags & AV_CPU_FLAG_SSSE3) && !(flags & AV_CPU_FLAG_SSE2SLOW) ? "SSE2Fast" : NULL,
        sr_has_lzcnt() ? "LZCNT" : NULL,
        sr_cache_line_64() ? "Cache64" : NULL,
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        if (!extra[i])
            continue;
        int n = snprintf(out + used, size - used, ",%s", extra[i]);
        if (n < 0 || (size_t)n >= size - used)
            return -1;
        used += (size_t)n;
    }
    return 1;
}
#else
int sr_x264_cpu_list(char *out, size_t size)
{
    (void)out;
    (void)size;
    return 0;
}
#endif

int sr_x264_leave_out_avx512(AVDictionary **options)
{
    char list[256];
    int have = sr_x264_cpu_list(list, sizeof list);
    if (have <= 0)
        return have;
    const AVDictionaryEntry *params = av_dict_get(*options, "x264-params", NULL, 0);
    char merged[1024];
    int n = snprintf(merged, sizeof merged, "%s%sasm=%s", params ? params->value : "",
                     params && params->value[0] ? ":" : "", list);
    if (n < 0 || (size_t)n >= sizeof merged)
        return -1;
    return av_dict_set(options, "x264-params", merged, 0);
}
