/* Start-up time and memory of a run at high THREADS: the wall time of
 * tupc_run of a trivial program (each thread writes its element of a
 * small shared array, one barrier, a reduce) and the process's peak
 * resident set size. One run per process, so that the peak is this run's.
 *
 * Usage: bench_startup -n THREADS [--reps R]
 * Prints: THREADS, the first run's wall time (the one that faults the
 * memory in) and the median over R runs, peak RSS in MiB, user and system
 * CPU seconds of the process. */
#include "args.h"

#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int trivial(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t r = upc_all_alloc(1, sizeof(long));
    tupc_ref(a, MYTHREAD, 1, long) = MYTHREAD;
    upc_barrier();
    upc_all_reduceL(r, a, UPC_ADD, (size_t)THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    long want = (long)THREADS * (THREADS - 1) / 2;
    if (tupc_ref(r, 0, 0, long) != want) {
        fprintf(stderr, "bench_startup: sum %ld, expected %ld\n", tupc_ref(r, 0, 0, long), want);
        exit(1);
    }
    upc_all_free(a);
    upc_all_free(r);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { O_N, O_REPS };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 64)"},
    [O_REPS] = {"--reps", "R", "runs, 1 to 100, for the median (default 3)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "Wall time and peak memory of a trivial run at THREADS, one run per process.", opts};

int main(int argc, char **argv)
{
    int threads = 64, reps = 3, i = 1, k;
    const char *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        if (k == O_N)
            threads = atoi(v);
        else if (k == O_REPS)
            reps = atoi(v);
        else
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
    }
    if (reps < 1 || reps > 100)
        reps = 3;
    double t[100], first = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        if (tupc_run(threads, trivial, NULL) != 0)
            return 1;
        t[r] = now_ms() - t0;
        if (r == 0)
            first = t[0];
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("threads %d  wall %.1f ms first, %.1f ms median of %d  peak RSS %.1f MiB  user %.2f s  "
           "sys %.2f s\n",
           threads, first, t[reps / 2], reps, ru.ru_maxrss / 1024.0,
           ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
    return 0;
}
