/* Sort benchmark: upc_all_sort of 1e6 and 1e7 ints and doubles (blocked,
 * one block per thread, IN/OUT ALLSYNC) beside serial qsort and, where a
 * C++ compiler was found, std::sort, std::stable_sort and std::execution::par
 * (bench_sort_cpp.cpp). Best of `reps` runs, seconds.
 *
 * Usage: bench_sort [-n THREADS] [--quick] */
#include "args.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef TB_HAVE_CPP
double tb_cpp_sort(int kind, void *v, size_t n, int is_double); /* bench_sort_cpp.cpp */
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_i(tupc_sptr_t a, tupc_sptr_t b)
{
    int x = *(int *)tupc_local(a), y = *(int *)tupc_local(b);
    return (x > y) - (x < y);
}
static int cmp_d(tupc_sptr_t a, tupc_sptr_t b)
{
    double x = *(double *)tupc_local(a), y = *(double *)tupc_local(b);
    return (x > y) - (x < y);
}
static int qcmp_i(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int qcmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct job {
    size_t n;
    int is_double;
    double secs;
};

static double val(size_t i)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    return (double)(z >> 40);
}

/* A private array of the benchmark's n values (malloc'd; the caller frees). */
static char *fresh_values(size_t n, int is_double)
{
    char *v = malloc(n * (is_double ? 8 : 4));
    for (size_t i = 0; i < n; i++) {
        if (is_double)
            ((double *)v)[i] = val(i);
        else
            ((int *)v)[i] = (int)val(i);
    }
    return v;
}

static int body(void *arg)
{
    struct job *j = arg;
    size_t es = j->is_double ? 8 : 4, B = (j->n + (size_t)THREADS - 1) / (size_t)THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, B * es);
    for (size_t i = (size_t)MYTHREAD * B; i < j->n && i < (size_t)(MYTHREAD + 1) * B; i++) {
        if (j->is_double)
            tupc_ref(a, i, B, double) = val(i);
        else
            tupc_ref(a, i, B, int) = (int)val(i);
    }
    upc_barrier();
    double t0 = now_s();
    upc_all_sort(a, es, j->n, B, j->is_double ? cmp_d : cmp_i, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    double t = now_s() - t0;
    if (MYTHREAD == 0)
        j->secs = t;
    upc_barrier();
    upc_all_free(a);
    return 0;
}

enum { O_N, O_QUICK };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 2)"},
    [O_QUICK] = {"--quick", NULL,
                 "10^6 elements only, best of 1 (default 10^6 and 10^7, best of 3)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "upc_all_sort of ints and doubles beside qsort and, with C++, std::sort.", opts};

int main(int argc, char **argv)
{
    int P = 2, quick = 0, i = 1, k;
    const char *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        if (k == O_N)
            P = atoi(v);
        else if (k == O_QUICK)
            quick = 1;
        else
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
    }
    tb_probe_print("before");
    printf("# THREADS %d; seconds, best of %d\n# %-8s %-6s %10s %10s", P, quick ? 1 : 3, "n",
           "type", "upc_all", "qsort");
#ifdef TB_HAVE_CPP
    printf(" %10s %12s %10s", "std::sort", "stable_sort", "par_sort");
#endif
    printf("\n");
    size_t sizes[] = {1000000, 10000000};
    for (int s = 0; s < (quick ? 1 : 2); s++) {
        for (int d = 0; d < 2; d++) {
            size_t n = sizes[s], es = d ? 8 : 4;
            double best = 1e30, bq = 1e30;
            for (int r = 0; r < (quick ? 1 : 3); r++) {
                tb_progress("bench_sort", "%zu %s, upc_all_sort and qsort, run %d of %d", n,
                            d ? "doubles" : "ints", r + 1, quick ? 1 : 3);
                struct job j = {n, d, 0};
                tupc_options o = {.threads = P, .heap_size = 2 * n * es / (size_t)P + (16 << 20)};
                tupc_run_opts(&o, body, &j);
                best = j.secs < best ? j.secs : best;
                char *v = fresh_values(n, d);
                double t0 = now_s();
                qsort(v, n, es, d ? qcmp_d : qcmp_i);
                double t = now_s() - t0;
                bq = t < bq ? t : bq;
                free(v);
            }
#ifdef TB_HAVE_CPP
            tb_progress("bench_sort", "%zu %s, std::sort, std::stable_sort, parallel sort", n,
                        d ? "doubles" : "ints");
            double cpp[3];
            for (int k = 0; k < 3; k++) {
                char *v = fresh_values(n, d);
                cpp[k] = tb_cpp_sort(k, v, n, d);
                free(v);
            }
#endif
            tb_progress_done();
            printf("%10zu %-6s %10.3f %10.3f", n, d ? "double" : "int", best, bq);
#ifdef TB_HAVE_CPP
            for (int k = 0; k < 3; k++)
                printf(" %11.3f", cpp[k]);
#endif
            printf("\n");
        }
    }
    tb_probe_print("after");
    return 0;
}
