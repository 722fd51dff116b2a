/* The environment variables, from one table (`vars` below): each row says
 * how its variable is parsed and checked, where its value goes in
 * tupc_config_, and its row of the README's table, which tests/env.sh
 * compares with tupc_config_table's output. A TUPC_* name that no row
 * knows draws one warning naming the closest one. */
#include "runtime/config.h"

#include "runtime/runtime.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

struct tupc_config tupc_config_;

struct var;
typedef int (*parse_fn)(const struct var *v, const char *s, struct tupc_config *c, char *err,
                        size_t errlen);

struct var {
    const char *name;
    parse_fn parse;           /* called with the value when set and not empty */
    size_t field;             /* where the value goes in struct tupc_config */
    const char *const *words; /* parse_word: the values, NULL-terminated */
    long max;                 /* parse_count: the largest count */
    /* The README's columns (values: generated from words or max when NULL);
     * effect NULL: a name tupc knows but does not document there. */
    const char *values, *deflt, *effect;
};

#define AT(c, v, type) ((type *)(void *)((char *)(c) + (v)->field))

/* UPC_THREADS and UPC_SHARED_HEAP_SIZE apply only where the options leave
 * them open, so they are kept as given and tupc_run judges them. */
static int parse_threads(const struct var *v, const char *s, struct tupc_config *c, char *err,
                         size_t errlen)
{
    (void)v, (void)err, (void)errlen;
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    c->threads_env = s;
    if (!errno && end != s && *end == '\0' && n >= 1 && n <= TUPC_MAX_THREADS)
        c->threads = (int)n;
    return 0;
}

static int parse_heap(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    (void)v, (void)err, (void)errlen;
    c->heap_env = s;
    c->heap_size = tupc_parse_size(s);
    return 0;
}

/* s must be one of the words; the field (an int) takes its index. */
static int parse_word(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    int n = 0;
    for (; v->words[n]; n++)
        if (strcmp(s, v->words[n]) == 0) {
            *AT(c, v, int) = n;
            return 0;
        }
    int len = snprintf(err, errlen, "%s is \"%.64s\"; expected ", v->name, s);
    for (int i = 0; i < n && len >= 0 && (size_t)len < errlen; i++)
        len += snprintf(err + len, errlen - (size_t)len, "%s%s", v->words[i],
                        i + 2 < n   ? ", "
                        : i + 1 < n ? " or "
                                    : "");
    return -1;
}

/* A count from 0 to max into the field (a long). The knobs of the waits
 * are bounded so that a typo cannot turn a reported error into a hang: a
 * million pauses is some 10-40 ms per wait. */
static int parse_count(const struct var *v, const char *s, struct tupc_config *c, char *err,
                       size_t errlen)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || n < 0 || n > v->max) {
        snprintf(err, errlen, "%s is \"%.64s\"; expected a count from 0 to %ld", v->name, s,
                 v->max);
        return -1;
    }
    *AT(c, v, long) = n;
    return 0;
}

static int parse_size(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    size_t n = tupc_parse_size(s);
    if (n == 0) {
        snprintf(err, errlen, "%s is \"%s\"; expected a size such as 32M", v->name, s);
        return -1;
    }
    *AT(c, v, size_t) = n;
    return 0;
}

static int parse_text(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    (void)err, (void)errlen;
    *AT(c, v, const char *) = s;
    return 0;
}

/* Any value but "0" sets the flag (an int). */
static int parse_not0(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    (void)err, (void)errlen;
    *AT(c, v, int) = strcmp(s, "0") != 0;
    return 0;
}

/* Known, and read by someone else (the test suite). */
static int parse_none(const struct var *v, const char *s, struct tupc_config *c, char *err,
                      size_t errlen)
{
    (void)v, (void)s, (void)c, (void)err, (void)errlen;
    return 0;
}

#define F(member) offsetof(struct tupc_config, member)
static const char *const bars[] = {"flat", "tree", NULL};
static const char *const fences[] = {"asymmetric", "symmetric", NULL};
static const char *const simds[] = {"auto", "sse2", NULL};
static const char *const places[] = {"compact", "scatter", "none", NULL};
static const char *const stats[] = {"0", "1", "all", NULL};
static const char *const levels[] = {"off", "default", "full", NULL};

/* In the README's order. */
static const struct var vars[] = {
    {"UPC_THREADS", parse_threads, 0, NULL, 0, "1 to 1024", "CPUs the process may use",
     "THREADS of the library's `main` and of `tupc_run_opts` with `threads = 0`; `-n N` wins"},
    {"UPC_SHARED_HEAP_SIZE", parse_heap, 0, NULL, 0, "bytes, with K, M or G", "64M",
     "size of each thread's heap partition (virtual: pages are touched only when used)"},
    {"TUPC_PLACEMENT", parse_word, F(placement), places, 0, NULL, "`compact`",
     "pinning: one allowed CPU per thread, filling NUMA nodes in order (`compact`) or "
     "round-robin over nodes (`scatter`); when THREADS are a multiple of the allowed CPUs, "
     "equal blocks of consecutive threads per CPU; other counts above the CPUs are not pinned"},
    {"TUPC_TRACE", parse_text, F(trace_path), NULL, 0, "a file name", "unset",
     "write a timeline of the run: a track per thread, a span per collective, barrier, lock, "
     "team call and allocation (bytes, flags, team), and the waits inside each; Chrome "
     "trace-event JSON for Perfetto or chrome://tracing (`tupcrun --trace FILE` sets it)"},
    {"TUPC_CHECKS", parse_word, F(checks), levels, 0, NULL, "`default`",
     "how much the collectives verify (see \"Check levels\"); `tupc_options.checks` overrides "
     "it"},
    {"TUPC_HANG_TIMEOUT", parse_count, F(hang_timeout), NULL, 86400, NULL, "60",
     "seconds without progress, while a thread waits in the library, before the run is "
     "stopped with a report of what each thread is in (barrier, collective call, lock and who "
     "holds it, or user code) and who waits for whom; 0 never; `tupc_options.hang_timeout` "
     "overrides it"},
    {"TUPC_STATS", parse_word, F(stats), stats, 0, NULL, "`0`",
     "at the end of the run, print to standard error per function (summed over threads) and "
     "per thread (up to 16 THREADS, or all with `all`): calls, bytes, time in the call, time "
     "waiting for other threads, and the thread waited for most where the wait names one"},
    {"TUPC_VERBOSE", parse_not0, F(verbose), NULL, 0, "`1`", "unset",
     "print the placement (thread, CPU, node), how long waits spin, yield and nap, and the "
     "algorithms of `UPC_TEAM_ALL`'s calls at the start of every run"},
    {"TUPC_BARRIER", parse_word, F(barrier), bars, 0, NULL,
     "`flat` while THREADS (a team: its members) <= CPUs and <= 6, else `tree`",
     "barrier algorithm of all threads and of each team (`tree`: a team's counter; "
     "see docs/design.md)"},
    {"TUPC_HUGEPAGES", parse_not0, F(hugepages), NULL, 0, "`0`", "unset (on)",
     "`0` stops tupc from asking for transparent huge pages; otherwise allocations of 1 MiB or "
     "more per partition get them (small ones and untouched partitions stay in 4 KiB pages)"},
    {"TUPC_STREAM_MIN", parse_size, F(stream_min), NULL, 0, "bytes, with K, M or G",
     "1.5x the largest CPU cache in sysfs (or `sysconf`)",
     "relocalization collectives copy with streaming stores once the bytes a call reads and "
     "writes, all threads together, reach this size"},
    {"TUPC_SPIN", parse_count, F(spin), NULL, 1000000, NULL,
     "20000, or 0 when THREADS exceed the CPUs",
     "how many times a waiting thread polls (with `pause`) before it yields"},
    {"TUPC_YIELD", parse_count, F(yield), NULL, 100000, NULL,
     "200, or 8 when THREADS exceed the CPUs", "how many times it then yields"},
    {"TUPC_NAP", parse_count, F(nap), NULL, 100000, NULL,
     "0, or 100 when THREADS exceed the CPUs (across MPI processes: when more than two "
     "threads share a CPU)",
     "how many 10 us sleeps it then takes before it sleeps on a futex"},
    {"TUPC_FENCE", parse_word, F(fence_symmetric), fences, 0, NULL,
     "`asymmetric` where membarrier(2) works, else `symmetric`",
     "how a thread that wakes others orders its store before its look for sleepers: a plain "
     "store, with the sleepers calling membarrier (asymmetric), or a locked instruction on "
     "every store (symmetric); see docs/design.md"},
    {"TUPC_SIMD", parse_word, F(simd_sse2), simds, 0, NULL, "`auto`",
     "the vector kernels of large prefix reductions: AVX2 where the CPU has it (`auto`) or "
     "SSE2 always; both give the same bits (see docs/design.md)"},
    /* The test suite's (README, "For developers of tupc"). */
    {"TUPC_TEST_QUICK", parse_none, 0, NULL, 0, NULL, NULL, NULL},
#if TUPC_HAVE_MPI
    /* The MPI layer's, read by lib/mpi/window.c, barrier.c and hier.c
     * (README, "Across processes"). */
    {"TUPC_MPI_PROGRESS", parse_none, 0, NULL, 0, NULL, NULL, NULL},
    {"TUPC_MPI_BARRIER", parse_none, 0, NULL, 0, NULL, NULL, NULL},
    {"TUPC_MPI_TAG_UB", parse_none, 0, NULL, 0, NULL, NULL, NULL},
    {"TUPC_MPI_PIECE", parse_none, 0, NULL, 0, NULL, NULL, NULL},
#endif
};
#define NVARS (sizeof vars / sizeof vars[0])

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* Levenshtein distance, for the closest known name (names are short). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 64 || lb >= 64)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* One line per unknown TUPC_* name, once per process: a misspelt variable
 * would otherwise be ignored without a word. */
static void warn_unknown(void)
{
    /* Relaxed: the flag only keeps a second run from repeating the lines. */
    static _Atomic int warned;
    if (atomic_exchange_explicit(&warned, 1, memory_order_relaxed))
        return;
    for (char **e = environ; e && *e; e++) {
        char name[64];
        size_t n = strcspn(*e, "=");
        if (strncmp(*e, "TUPC_", 5) != 0 || n >= sizeof name)
            continue;
        memcpy(name, *e, n);
        name[n] = '\0';
        const struct var *best = NULL;
        size_t d = (size_t)-1;
        for (size_t i = 0; i < NVARS && d; i++) {
            size_t di = distance(name, vars[i].name);
            if (di < d)
                d = di, best = &vars[i];
        }
        if (d)
            fprintf(stderr, "tupc: warning: %s is no variable of tupc (the closest is %s)\n", name,
                    best->name);
    }
}

int tupc_config_read(char *err, size_t errlen)
{
    struct tupc_config c = {.threads = -1,
                            .barrier = TUPC_BARRIER_AUTO,
                            .spin = -1,
                            .yield = -1,
                            .nap = -1,
                            .hugepages = 1,
                            .hang_timeout = -1,
                            .checks = -1};
    warn_unknown();
    for (size_t i = 0; i < NVARS; i++) {
        const char *s = env(vars[i].name);
        if (s && vars[i].parse(&vars[i], s, &c, err, errlen) != 0)
            return -1;
    }
    c.placement_name = places[c.placement];
    tupc_config_ = c;
    return 0;
}

void tupc_config_table(FILE *f)
{
    fputs("| variable | values | default | effect |\n|---|---|---|---|\n", f);
    for (size_t i = 0; i < NVARS; i++) {
        const struct var *v = &vars[i];
        if (!v->effect)
            continue;
        fprintf(f, "| `%s` | ", v->name);
        if (v->values)
            fputs(v->values, f);
        else if (v->words)
            for (int w = 0; v->words[w]; w++)
                fprintf(f, "%s`%s`", w ? ", " : "", v->words[w]);
        else
            fprintf(f, "0 to %ld", v->max);
        fprintf(f, " | %s | %s |\n", v->deflt, v->effect);
    }
}
