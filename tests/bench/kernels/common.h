/* What the kernels of compare_tupcc.sh --kernels share: the time of the
 * timed part, printed as "KERNEL: took S s" by thread 0, and a checksum
 * line the script compares across the three forms of a kernel. */
#ifndef KERNELS_COMMON_H
#define KERNELS_COMMON_H
#include <stdio.h>
#include <time.h>

static inline double kern_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* With -DKERN_COUNT, under valgrind --tool=callgrind, the instructions of
 * the timed part: thread `me` 0 zeroes the counts where it starts and dumps
 * them where it ends (compare_tupcc.sh --kernels --count). */
#ifdef KERN_COUNT
#include <valgrind/callgrind.h>
#define KERN_ZERO(me)                                                                              \
    do {                                                                                           \
        if ((me) == 0)                                                                             \
            CALLGRIND_ZERO_STATS;                                                                  \
    } while (0)
#define KERN_DUMP(me)                                                                              \
    do {                                                                                           \
        if ((me) == 0)                                                                             \
            CALLGRIND_DUMP_STATS;                                                                  \
    } while (0)
#else
#define KERN_ZERO(me) ((void)0)
#define KERN_DUMP(me) ((void)0)
#endif

#define KERN_REPORT(name, secs, sum)                                                               \
    do {                                                                                           \
        printf("%s: took %.6f s\n", (name), (secs));                                               \
        printf("%s: checksum %.6e\n", (name), (double)(sum));                                      \
    } while (0)
#endif
