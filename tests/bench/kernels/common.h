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

#define KERN_REPORT(name, secs, sum)                                                               \
    do {                                                                                           \
        printf("%s: took %.6f s\n", (name), (secs));                                               \
        printf("%s: checksum %.6e\n", (name), (double)(sum));                                      \
    } while (0)
#endif
