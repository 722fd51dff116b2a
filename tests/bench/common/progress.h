/* Progress of a long benchmark, on standard error when it is a terminal:
 * one line, rewritten in place ("bench_reloc: round 1 of 3, broadcast
 * ALL|ALL, 1048576 B, size 18 of 22"), and cleared at the end. When standard
 * error is not a terminal nothing is written, so that logs and the figures
 * on standard output stay as they were. TB_PROGRESS=0 turns it off on a
 * terminal too, TB_PROGRESS=1 prints one line per step even without one. */
#ifndef TB_PROGRESS_H
#define TB_PROGRESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* 0: off, 1: a line rewritten in place (terminal), 2: one line per step. */
static inline int tb_progress_mode(void)
{
    static int mode = -1;
    if (mode < 0) {
        const char *e = getenv("TB_PROGRESS");
        if (e && e[0] == '0')
            mode = 0;
        else if (isatty(STDERR_FILENO))
            mode = 1;
        else
            mode = e && e[0] == '1' ? 2 : 0;
    }
    return mode;
}

/* prog: the program's name; then what it is doing now, printf-style. */
static inline void tb_progress(const char *prog, const char *fmt, ...)
{
    int mode = tb_progress_mode();
    if (!mode)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s: ", mode == 1 ? "\r\033[K" : "", prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (mode == 2)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Clears the line at the end (terminal only). */
static inline void tb_progress_done(void)
{
    if (tb_progress_mode() == 1) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

#endif
