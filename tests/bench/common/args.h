/* What the benchmarks share besides the probe: their options (a table per
 * program, so that every one answers --help and rejects a bad option the
 * same way, before any work), a clock in microseconds and sizes with K, M, G
 * suffixes on the command line. */
#ifndef TB_ARGS_H
#define TB_ARGS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* One option of a program's table; the table ends with {NULL}. */
struct tb_opt {
    const char *name; /* "-n", "--max" */
    const char *arg;  /* the value's name ("BYTES"), or NULL for a flag */
    const char *help; /* one line: what it does, and its default */
};

struct tb_cmd {
    const char *args;  /* the operands after "[options]", or NULL for none */
    const char *about; /* one line on what the program measures */
    const struct tb_opt *opts;
};

static inline const char *tb_prog(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

static inline void tb_usage(FILE *f, const char *argv0, const struct tb_cmd *c)
{
    fprintf(f, "usage: %s [options]%s%s\n%s\n\noptions:\n", tb_prog(argv0), c->args ? " " : "",
            c->args ? c->args : "", c->about);
    for (const struct tb_opt *o = c->opts; o->name; o++) {
        char lhs[64];
        snprintf(lhs, sizeof lhs, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-20s %s\n", lhs, o->help);
    }
    fprintf(f, "  %-20s %s\n", "-h, --help", "print this text and exit");
}

/* What is wrong ("unknown option ", "--x"), then the usage, on stderr. */
static inline _Noreturn void tb_usage_error(const char *argv0, const struct tb_cmd *c,
                                            const char *what, const char *arg)
{
    fprintf(stderr, "%s: %s%s\n", tb_prog(argv0), what, arg);
    tb_usage(stderr, argv0, c);
    exit(2);
}

enum { TB_END = -1, TB_OPERAND = -2 };

/* The option at argv[*i]: its index in c->opts, with its value in *val
 * (NULL for a flag), and *i moved past both; TB_OPERAND for an argument that
 * is not an option (in *val), TB_END past the last. -h and --help print the
 * usage to stdout and exit 0; an unknown option or a missing value print it
 * to stderr and exit 2. */
static inline int tb_next_opt(int argc, char **argv, int *i, const struct tb_cmd *c,
                              const char **val)
{
    if (*i >= argc)
        return TB_END;
    const char *a = argv[(*i)++];
    *val = a;
    if (a[0] != '-' || a[1] == '\0')
        return TB_OPERAND;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
        tb_usage(stdout, argv[0], c);
        exit(0);
    }
    for (int k = 0; c->opts[k].name; k++) {
        if (strcmp(a, c->opts[k].name) != 0)
            continue;
        *val = NULL;
        if (c->opts[k].arg) {
            if (*i >= argc)
                tb_usage_error(argv[0], c, "missing value for ", a);
            *val = argv[(*i)++];
        }
        return k;
    }
    tb_usage_error(argv[0], c, "unknown option ", a);
}

#endif
