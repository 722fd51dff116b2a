#include "runtime/config.h"

#include "runtime/runtime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tupc_config tupc_config_;

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* A count from 0 to max into *v (-1 when unset); -1 when malformed. The
 * knobs of the waits are bounded so that a typo cannot turn a reported
 * error into a hang: a million pauses is some 10-40 ms per wait. */
static int count(const char *name, long max, long *v, char *err, size_t errlen)
{
    const char *s = env(name);
    *v = -1;
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || n < 0 || n > max) {
        snprintf(err, errlen, "%s is \"%.64s\"; expected a count from 0 to %ld", name, s, max);
        return -1;
    }
    *v = n;
    return 0;
}

/* s must be one of the n words; its index, or -1 with a message. */
static int word(const char *name, const char *s, const char *const *words, int n, char *err,
                size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, words[i]) == 0)
            return i;
    int len = snprintf(err, errlen, "%s is \"%.64s\"; expected ", name, s);
    for (int i = 0; i < n && len >= 0 && (size_t)len < errlen; i++)
        len += snprintf(err + len, errlen - (size_t)len, "%s%s", words[i],
                        i + 2 < n   ? ", "
                        : i + 1 < n ? " or "
                                    : "");
    return -1;
}

int tupc_config_read(char *err, size_t errlen)
{
    struct tupc_config c = {.spin = -1, .yield = -1, .nap = -1, .hugepages = 1};
    const char *s;

    c.threads_env = env("UPC_THREADS");
    c.threads = -1;
    if (c.threads_env) {
        char *end;
        errno = 0;
        long v = strtol(c.threads_env, &end, 10);
        if (!errno && end != c.threads_env && *end == '\0' && v >= 1 && v <= TUPC_MAX_THREADS)
            c.threads = (int)v;
    }
    c.heap_env = env("UPC_SHARED_HEAP_SIZE");
    if (c.heap_env)
        c.heap_size = tupc_parse_size(c.heap_env);

    static const char *const bars[] = {"flat", "tree"};
    if ((s = env("TUPC_BARRIER"))) {
        int i = word("TUPC_BARRIER", s, bars, 2, err, errlen);
        if (i < 0)
            return -1;
        c.barrier = i == 0 ? TUPC_BARRIER_FLAT : TUPC_BARRIER_TREE;
    }
    static const char *const fences[] = {"asymmetric", "symmetric"};
    if ((s = env("TUPC_FENCE"))) {
        int i = word("TUPC_FENCE", s, fences, 2, err, errlen);
        if (i < 0)
            return -1;
        c.fence_symmetric = i == 1;
    }
    if (count("TUPC_SPIN", 1000000, &c.spin, err, errlen) ||
        count("TUPC_YIELD", 100000, &c.yield, err, errlen) ||
        count("TUPC_NAP", 100000, &c.nap, err, errlen) ||
        count("TUPC_HANG_TIMEOUT", 86400, &c.hang_timeout, err, errlen))
        return -1;
    if ((s = env("TUPC_STREAM_MIN"))) {
        c.stream_min = tupc_parse_size(s);
        if (c.stream_min == 0) {
            snprintf(err, errlen, "TUPC_STREAM_MIN is \"%s\"; expected a size such as 32M", s);
            return -1;
        }
    }
    static const char *const simds[] = {"auto", "sse2"};
    if ((s = env("TUPC_SIMD"))) {
        int i = word("TUPC_SIMD", s, simds, 2, err, errlen);
        if (i < 0)
            return -1;
        c.simd_sse2 = i == 1;
    }
    s = env("TUPC_HUGEPAGES");
    c.hugepages = !s || strcmp(s, "0") != 0; /* only "0" turns them off */
    static const char *const places[] = {"compact", "scatter", "none"};
    c.placement_name = "compact";
    if ((s = env("TUPC_PLACEMENT"))) {
        int i = word("TUPC_PLACEMENT", s, places, 3, err, errlen);
        if (i < 0)
            return -1;
        c.placement = (enum tupc_placement)i;
        c.placement_name = places[i];
    }
    s = env("TUPC_VERBOSE");
    c.verbose = s && strcmp(s, "0") != 0;
    c.trace_path = env("TUPC_TRACE");
    static const char *const stats[] = {"0", "1", "all"};
    if ((s = env("TUPC_STATS"))) {
        int i = word("TUPC_STATS", s, stats, 3, err, errlen);
        if (i < 0)
            return -1;
        c.stats = i;
    }
    static const char *const levels[] = {"off", "default", "full"};
    c.checks = -1;
    if ((s = env("TUPC_CHECKS"))) {
        int i = word("TUPC_CHECKS", s, levels, 3, err, errlen);
        if (i < 0)
            return -1;
        c.checks = i;
    }
    tupc_config_ = c;
    return 0;
}
