/* Barrier benchmark: ns per barrier of upc_barrier beside pthread_barrier_wait,
 * an OpenMP barrier (libgomp) and a central barrier whose waiters yield K
 * times (--central-yields, 4) and then usleep(20), left to the scheduler and
 * pinned as tupc pins, measured in the same run, for THREADS = 1, 2, cores,
 * 2 x cores, 8 x cores and 16 x cores; min, median and max over repetitions.
 * Also the cost and granularity of upc_ticks_now.
 *
 * Usage: bench_barrier [--reps R] [--csv FILE] [--threads N,N,...]
 *                      [--central-yields K] [--alternate N] */
#include "args.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_tick.h>

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdatomic.h>

static int reps = 11;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats {
    double min, med, max;
};

static struct stats summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (struct stats){v[0], v[n / 2], v[n - 1]};
}

/* Barriers per repetition: enough to last a few ms at the expected speed. */
static int iters_for(int threads, int cpus)
{
    return threads <= cpus ? 20000 : 20000 / threads + 200;
}

/* ---- upc_barrier ---- */
static double per_rep[64];
static int upc_iters;

static int upc_body(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        upc_barrier();
    for (int r = 0; r < reps; r++) {
        upc_barrier();
        double t0 = now_ns();
        for (int i = 0; i < upc_iters; i++)
            upc_barrier();
        if (MYTHREAD == 0)
            per_rep[r] = (now_ns() - t0) / upc_iters;
    }
    return 0;
}

static struct stats bench_upc(int threads, int cpus)
{
    upc_iters = iters_for(threads, cpus);
    tupc_run(threads, upc_body, NULL);
    return summarize(per_rep, reps);
}

/* ---- pthread_barrier_wait ---- */
static pthread_barrier_t pbar;
static int p_iters;

static void *pthread_body(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < 1000; i++)
        pthread_barrier_wait(&pbar);
    for (int r = 0; r < reps; r++) {
        pthread_barrier_wait(&pbar);
        double t0 = now_ns();
        for (int i = 0; i < p_iters; i++)
            pthread_barrier_wait(&pbar);
        if (me == 0)
            per_rep[r] = (now_ns() - t0) / p_iters;
    }
    return NULL;
}

/* Pins one thread per CPU while threads <= CPUs, as tupc and a careful user
 * do. With more threads than CPUs the peers are left to the scheduler, as a
 * plain pthread program is, unless pin_blocks is set: then a multiple of
 * the CPUs is pinned in equal blocks of consecutive threads, as tupc does
 * (runtime/placement.c), to tell the placement's share of a difference
 * from the algorithm's. */
static int pin_blocks;

static void pin_attr(pthread_attr_t *attr, int t, int threads)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    int n = CPU_COUNT(&set), slot = t;
    if (threads > n) {
        if (!pin_blocks || threads % n != 0)
            return;
        slot = t / (threads / n);
    }
    int seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && seen++ == slot) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            pthread_attr_setaffinity_np(attr, sizeof one, &one);
            return;
        }
}

/* Runs body on `threads` pinned POSIX threads (argument: the thread's number). */
static void run_pthreads(int threads, void *(*body)(void *))
{
    pthread_t *tid = malloc(sizeof *tid * (size_t)threads);
    for (int t = 0; t < threads; t++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pin_attr(&attr, t, threads);
        pthread_create(&tid[t], &attr, body, (void *)(intptr_t)t);
        pthread_attr_destroy(&attr);
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    free(tid);
}

static struct stats bench_pthread(int threads, int cpus)
{
    p_iters = iters_for(threads, cpus);
    pthread_barrier_init(&pbar, NULL, (unsigned)threads);
    run_pthreads(threads, pthread_body);
    pthread_barrier_destroy(&pbar);
    return summarize(per_rep, reps);
}

/* ---- A central barrier for oversubscription: one counter, waiters yield a
 * few times and then sleep 20 us at a time (timer sleeps leave the CPU to
 * the threads that have not arrived yet). ---- */
static _Atomic unsigned c_count, c_gen;
static int c_threads, c_iters, c_yields = 4;

static void central_wait(void)
{
    unsigned g = atomic_load_explicit(&c_gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&c_count, 1, memory_order_acq_rel) + 1 == (unsigned)c_threads) {
        atomic_store_explicit(&c_count, 0, memory_order_relaxed);
        atomic_store_explicit(&c_gen, g + 1, memory_order_release);
        return;
    }
    for (int i = 0; atomic_load_explicit(&c_gen, memory_order_acquire) == g; i++) {
        if (i < c_yields)
            sched_yield();
        else
            usleep(20);
    }
}

static void *central_body(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < 200; i++)
        central_wait();
    for (int r = 0; r < reps; r++) {
        central_wait();
        double t0 = now_ns();
        for (int i = 0; i < c_iters; i++)
            central_wait();
        if (me == 0)
            per_rep[r] = (now_ns() - t0) / c_iters;
    }
    return NULL;
}

static struct stats bench_central(int threads, int cpus)
{
    c_iters = iters_for(threads, cpus);
    c_threads = threads;
    atomic_store(&c_count, 0);
    run_pthreads(threads, central_body);
    return summarize(per_rep, reps);
}

/* ---- OpenMP barrier ---- */
static struct stats bench_omp(int threads, int cpus)
{
    int iters = iters_for(threads, cpus);
#pragma omp parallel num_threads(threads)
    {
        for (int i = 0; i < 1000; i++) {
#pragma omp barrier
        }
        for (int r = 0; r < reps; r++) {
#pragma omp barrier
            double t0 = now_ns();
            for (int i = 0; i < iters; i++) {
#pragma omp barrier
            }
            if (omp_get_thread_num() == 0)
                per_rep[r] = (now_ns() - t0) / iters;
        }
    }
    return summarize(per_rep, reps);
}

static struct stats bench_central_pinned(int threads, int cpus)
{
    pin_blocks = 1;
    struct stats st = bench_central(threads, cpus);
    pin_blocks = 0;
    return st;
}

static void print_ratios(const char *name, double *ratio, int faster, int n)
{
    qsort(ratio, (size_t)n, sizeof *ratio, cmp_double);
    printf("         upc/%s: median %.2f, quartiles %.2f-%.2f; upc faster in %d of %d\n", name,
           ratio[n / 2], ratio[n / 4], ratio[(3 * n) / 4], faster, n);
}

/* --alternate N: upc_barrier, the central barrier as a plain pthread
 * program runs it and the central barrier pinned as tupc pins, N runs of
 * each taking turns (one repetition each, so all see the same phases of
 * the machine), and the median and quartiles of the pairwise ratios. The
 * VM's scheduler makes single runs at many THREADS vary by 2x or more. */
static void alternate(int P, int cpus, int n)
{
    double *u = malloc(sizeof *u * (size_t)n), *c = malloc(sizeof *c * (size_t)n);
    double *cp = malloc(sizeof *cp * (size_t)n);
    double *rc = malloc(sizeof *rc * (size_t)n), *rp = malloc(sizeof *rp * (size_t)n);
    int saved = reps, fc = 0, fp = 0;
    reps = 1;
    for (int i = 0; i < n; i++) {
        tb_progress("bench_barrier", "%d THREADS, turn %d of %d", P, i + 1, n);
        u[i] = bench_upc(P, cpus).med;
        c[i] = bench_central(P, cpus).med;
        cp[i] = bench_central_pinned(P, cpus).med;
        rc[i] = u[i] / c[i];
        rp[i] = u[i] / cp[i];
        fc += u[i] < c[i];
        fp += u[i] < cp[i];
    }
    reps = saved;
    tb_progress_done();
    qsort(u, (size_t)n, sizeof *u, cmp_double);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    qsort(cp, (size_t)n, sizeof *cp, cmp_double);
    printf("%7d  medians: upc_barrier %.1f ns, central yield+usleep %.1f ns, the same pinned as "
           "tupc %.1f ns\n",
           P, u[n / 2], c[n / 2], cp[n / 2]);
    print_ratios("central", rc, fc, n);
    print_ratios("central pinned as tupc", rp, fp, n);
    free(u);
    free(c);
    free(cp);
    free(rc);
    free(rp);
}

static void ticks_report(FILE *csv)
{
    enum { N = 10000000 };
    upc_tick_t sink = 0;
    double t0 = now_ns();
    for (int i = 0; i < N; i++)
        sink += upc_ticks_now();
    double per_call = (now_ns() - t0) / N;
    /* Granularity: the smallest non-zero step between consecutive readings. */
    upc_tick_t best = UPC_TICK_MAX;
    for (int i = 0; i < 100000; i++) {
        upc_tick_t a = upc_ticks_now(), b = upc_ticks_now();
        while (b == a)
            b = upc_ticks_now();
        if (b - a < best)
            best = b - a;
    }
    double gran_ns = (double)upc_ticks_to_ns(1000000 * best) / 1e6;
    printf("\nupc_ticks_now: %.1f ns per call, granularity %llu ticks = %.2f ns (sink %llu)\n",
           per_call, (unsigned long long)best, gran_ns, (unsigned long long)(sink & 1));
    if (csv)
        fprintf(csv, "ticks,call_ns,%.2f,granularity_ns,%.3f\n", per_call, gran_ns);
}

enum { O_REPS, O_CSV, O_THREADS, O_YIELDS, O_ALT };
static const struct tb_opt opts[] = {
    [O_REPS] = {"--reps", "R", "repetitions per figure, 1 to 64 (default 11)"},
    [O_CSV] = {"--csv", "FILE", "also write every figure to FILE (default none)"},
    [O_THREADS] = {"--threads", "N,N,...",
                   "up to 16 THREADS counts (default 1,2,C,2C,8C,16C on C CPUs)"},
    [O_YIELDS] = {"--central-yields", "K",
                  "yields of a central-barrier waiter before usleep (default 4)"},
    [O_ALT] = {"--alternate", "N",
               "instead, N turns of each barrier, pairwise ratios (default 0: off)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "ns per upc_barrier beside pthread, OpenMP and central barriers; upc_ticks_now's cost.",
    opts};

int main(int argc, char **argv)
{
    const char *csv_path = NULL, *v;
    int list[16], nlist = 0, alt = 0, i = 1, k;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        switch (k) {
        case O_REPS:
            reps = atoi(v);
            break;
        case O_ALT:
            alt = atoi(v);
            break;
        case O_YIELDS:
            c_yields = atoi(v);
            break;
        case O_CSV:
            csv_path = v;
            break;
        case O_THREADS: /* v, which strtok cuts in place */
            for (char *s = strtok(argv[i - 1], ","); s && nlist < 16; s = strtok(NULL, ","))
                list[nlist++] = atoi(s);
            break;
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    if (reps < 1 || reps > 64)
        reps = 11;
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    int cpus = CPU_COUNT(&set);
    if (nlist == 0) {
        int def[] = {1, 2, cpus, 2 * cpus, 8 * cpus, 16 * cpus};
        for (int k = 0; k < 6; k++) {
            int dup = 0;
            for (int j = 0; j < nlist; j++)
                dup |= list[j] == def[k];
            if (!dup)
                list[nlist++] = def[k];
        }
    }
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv)
        fprintf(csv, "threads,impl,min_ns,median_ns,max_ns\n");

    printf("# bench_barrier: %d CPUs, %d repetitions\n", cpus, reps);
    double rtt0 = tb_probe_print("before");
    if (alt > 0) {
        for (int k = 0; k < nlist; k++)
            alternate(list[k], cpus, alt);
        double rtt1 = tb_probe_print("after");
        printf("# phase: %s before, %s after\n", tb_phase(rtt0), tb_phase(rtt1));
        return 0;
    }
    printf("\n%7s  %-24s %10s %10s %10s   %s\n", "THREADS", "barrier", "min ns", "median ns",
           "max ns", "median vs upc_barrier");
    for (int k = 0; k < nlist; k++) {
        int P = list[k];
        const char *step = "bench_barrier";
        tb_progress(step, "%d THREADS (%d of %d): upc_barrier", P, k + 1, nlist);
        struct stats u = bench_upc(P, cpus);
        tb_progress(step, "%d THREADS (%d of %d): pthread_barrier_wait", P, k + 1, nlist);
        struct stats p = bench_pthread(P, cpus);
        tb_progress(step, "%d THREADS (%d of %d): libgomp barrier", P, k + 1, nlist);
        struct stats o = bench_omp(P, cpus);
        tb_progress(step, "%d THREADS (%d of %d): central barrier", P, k + 1, nlist);
        struct stats c = bench_central(P, cpus);
        tb_progress(step, "%d THREADS (%d of %d): central barrier, pinned", P, k + 1, nlist);
        struct stats cp = bench_central_pinned(P, cpus);
        tb_progress_done();
        /* The CSV's names have no comma in them, so that a plain split on
         * commas reads them. */
        struct {
            const char *name, *csv_name;
            struct stats s;
        } rows[] = {{"upc_barrier", "upc_barrier", u},
                    {"pthread_barrier_wait", "pthread_barrier_wait", p},
                    {"omp barrier (libgomp)", "omp barrier (libgomp)", o},
                    {"central yield+usleep", "central yield+usleep", c},
                    {"central, pinned as tupc", "central pinned as tupc", cp}};
        for (int r = 0; r < 5; r++) {
            printf("%7d  %-24s %10.1f %10.1f %10.1f   %.2fx\n", P, rows[r].name, rows[r].s.min,
                   rows[r].s.med, rows[r].s.max, rows[r].s.med / u.med);
            if (csv)
                fprintf(csv, "%d,%s,%.1f,%.1f,%.1f\n", P, rows[r].csv_name, rows[r].s.min,
                        rows[r].s.med, rows[r].s.max);
        }
    }
    tb_progress("bench_barrier", "upc_ticks_now");
    ticks_report(csv);
    tb_progress_done();
    double rtt1 = tb_probe_print("after");
    printf("# phase: %s before, %s after\n", tb_phase(rtt0), tb_phase(rtt1));
    if (csv)
        fclose(csv);
    return 0;
}
