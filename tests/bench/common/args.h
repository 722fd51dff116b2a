/* What the relocalization benchmarks share besides the probe: a clock in
 * microseconds and sizes with K, M, G suffixes on the command line. */
#ifndef TB_ARGS_H
#define TB_ARGS_H

#include <stddef.h>
#include <stdlib.h>
#include <time.h>

static inline double tb_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* "64", "4K", "16M", "1G" (either case). */
static inline size_t tb_parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'K':
    case 'k':
        v *= 1024;
        break;
    case 'M':
    case 'm':
        v *= 1024 * 1024;
        break;
    case 'G':
    case 'g':
        v *= 1024.0 * 1024 * 1024;
        break;
    }
    return (size_t)v;
}

#endif
