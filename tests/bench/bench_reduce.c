/* Reduction benchmark: upc_all_reduceL/D, upc_all_reduce_allL/D and
 * upc_all_prefix_reduceL/D, inclusive and exclusive (prefixX: with
 * UPC_EXCLUSIVE_PREFIX_REDUCE), all UPC_ADD, 8 B .. 64 MiB, sync NO|NO and
 * ALL|ALL, and MY|MY for reduce_all (each thread returns with its result in
 * its own dst[i], as MPI_Allreduce does), OSU method: warm-up calls, then
 * `iters` back-to-back calls timed by every thread; reported: the mean per
 * call of the slowest thread (and the min and max over threads of the
 * per-thread means). Beside it, in the same run: upc_barrier,
 * an OpenMP `reduction(+)` loop over the same bytes, and the all-threads
 * memory read bandwidth (OpenMP, 8 independent sums per thread, 256 MiB).
 * The src layout is one block per thread (blk_size = ceil(nelems/THREADS)).
 * copyNT, per size: each thread copies its block of src to dst with
 * streaming stores, a barrier after each copy: what any prefix reduction
 * must at least do (read src once, write dst once), the floor of prefix.
 *
 * Before the table: 8-byte reduces and reduce_allDs against the barrier,
 * and the largest size's reduceD, prefixD, copyNT, exclusive prefixD and
 * reduce_allD, each in interleaved rounds.
 *
 * Usage: bench_reduce [-n THREADS] [--max BYTES] [--quick] [--csv FILE] */
#include "args.h"
#include "median.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>
#include <upc_tick.h>

#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static size_t max_bytes = (size_t)64 << 20;
static int quick;
static FILE *csv; /* --csv: one row per measurement */
static double t_thread[TUPC_MAX_THREADS];

enum kind { RED_L, RED_D, PRE_L, PRE_D, ALL_L, ALL_D, PRX_L, PRX_D, BARRIER, COPY_NT };
static const char *const kind_name[] = {"reduceL",     "reduceD",     "prefixL",  "prefixD",
                                        "reduce_allL", "reduce_allD", "prefixXL", "prefixXD",
                                        "barrier",     "copyNT"};
#define EXCL UPC_EXCLUSIVE_PREFIX_REDUCE

struct job {
    enum kind k;
    size_t bytes;
    upc_flag_t flags;
};

static int iters_for(size_t bytes)
{
    int it = bytes <= 4096 ? 20000 : (int)((size_t)200 << 20) / (int)(bytes / 64 + 1) / 64;
    it = it < 5 ? 5 : it;
    return quick ? it / 10 + 2 : it;
}

/* The floor of a prefix reduction: each thread copies its block of src to
 * its block of dst with streaming stores (read once, written once, no read
 * for ownership), as the tiled prefix path writes dst. */
static void copy_nt(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
#if defined(__SSE2__)
    for (; n >= 64 && ((uintptr_t)d & 15) == 0; n -= 64, d += 64, s += 64) {
        __m128i x0 = _mm_loadu_si128((const __m128i *)s);
        __m128i x1 = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, x0);
        _mm_stream_si128((__m128i *)(d + 16), x1);
        _mm_stream_si128((__m128i *)(d + 32), x2);
        _mm_stream_si128((__m128i *)(d + 48), x3);
    }
    _mm_sfence();
#endif
    memcpy(d, s, n);
}

static int body(void *arg)
{
    const struct job *j = arg;
    size_t n = j->bytes / 8, B = (n + (size_t)THREADS - 1) / (size_t)THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, B * 8),
                p = upc_all_alloc((size_t)THREADS, B * 8);
    tupc_sptr_t r = upc_all_alloc((size_t)THREADS, 8); /* reduce: r[0]; reduce_all: r[i] */
    for (size_t i = 0; i < B; i++) {                   /* first touch by the owner */
        ((long *)tupc_local(tupc_index(a, (size_t)MYTHREAD * B, B, long)))[i] = (long)i;
        ((long *)tupc_local(tupc_index(p, (size_t)MYTHREAD * B, B, long)))[i] = 0;
    }
    upc_barrier();
    int iters = iters_for(j->bytes), warm = iters / 10 + 1;
    double t0 = 0;
    for (int it = -warm; it < iters; it++) {
        if (it == 0) {
            upc_barrier();
            t0 = now_ns();
        }
        switch (j->k) {
        case RED_L:
            upc_all_reduceL(r, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case RED_D:
            upc_all_reduceD(r, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case PRE_L:
            upc_all_prefix_reduceL(p, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case PRE_D:
            upc_all_prefix_reduceD(p, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case ALL_L:
            upc_all_reduce_allL(r, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case ALL_D:
            upc_all_reduce_allD(r, a, UPC_ADD, n, B, NULL, j->flags);
            break;
        case PRX_L:
            upc_all_prefix_reduceL(p, a, UPC_ADD, n, B, NULL, j->flags | EXCL);
            break;
        case PRX_D:
            upc_all_prefix_reduceD(p, a, UPC_ADD, n, B, NULL, j->flags | EXCL);
            break;
        case BARRIER:
            upc_barrier();
            break;
        case COPY_NT:
            copy_nt(tupc_local(tupc_index(p, (size_t)MYTHREAD * B, B, long)),
                    tupc_local(tupc_index(a, (size_t)MYTHREAD * B, B, long)), B * 8);
            upc_barrier(); /* as a collective with OUT_ALLSYNC would */
            break;
        }
    }
    t_thread[MYTHREAD] = (now_ns() - t0) / iters;
    upc_barrier();
    upc_all_free(r);
    upc_all_free(p);
    upc_all_free(a);
    return 0;
}

/* Each thread's mean per call in, the slowest thread's out (on thread 0;
 * 0 elsewhere). Collective: two barriers, the second before t_thread is
 * written again. */
static double slowest(double mean_ns)
{
    t_thread[MYTHREAD] = mean_ns;
    upc_barrier();
    double mx = 0;
    if (MYTHREAD == 0)
        for (int t = 0; t < THREADS; t++)
            mx = t_thread[t] > mx ? t_thread[t] : mx;
    upc_barrier();
    return mx;
}

/* ---- 8 bytes against the barrier, interleaved --------------------------------
 * The VM's slow and fast phases come and go within seconds, so timing the
 * barrier and a reduce in separate runs can compare one phase with another.
 * Here one run alternates them: ROUNDS rounds of SMALL_ITERS barriers, then
 * as many NO|NO reduces, then as many ALL|ALL reduces (8 bytes, long, ADD);
 * each gets the slowest thread's mean per call, and the ratios are taken
 * within a round, so both sides of a ratio share a phase. */
enum { SMALL_ROUNDS = 11, SMALL_ITERS = 2000, SMALL_KINDS = 3 };
static double small_ns[SMALL_ROUNDS][SMALL_KINDS];

static int small_body(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 8), r = upc_all_alloc(1, 8);
    *(long *)tupc_local(tupc_index(a, (size_t)MYTHREAD, 1, long)) = MYTHREAD + 1;
    const upc_flag_t fl[SMALL_KINDS] = {0, UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};
    for (int round = -1; round < SMALL_ROUNDS; round++) { /* round -1: warm-up */
        for (int k = 0; k < SMALL_KINDS; k++) {
            upc_barrier();
            double t0 = now_ns();
            for (int it = 0; it < SMALL_ITERS; it++) {
                if (k == 0)
                    upc_barrier();
                else
                    upc_all_reduceL(r, a, UPC_ADD, 1, 1, NULL, fl[k]);
            }
            double mx = slowest((now_ns() - t0) / SMALL_ITERS);
            if (MYTHREAD == 0 && round >= 0)
                small_ns[round][k] = mx;
        }
    }
    upc_all_free(r);
    upc_all_free(a);
    return 0;
}

static void run_small(int P)
{
    tupc_options o = {.threads = P};
    tupc_run_opts(&o, small_body, NULL);
    double col[SMALL_KINDS][SMALL_ROUNDS], rno[SMALL_ROUNDS], rall[SMALL_ROUNDS];
    int below = 0;
    for (int i = 0; i < SMALL_ROUNDS; i++) {
        for (int k = 0; k < SMALL_KINDS; k++)
            col[k][i] = small_ns[i][k];
        rno[i] = small_ns[i][1] / small_ns[i][0];
        rall[i] = small_ns[i][2] / small_ns[i][0];
        below += rall[i] < 2;
    }
    tb_progress_done();
    printf("# 8-byte reduceL against upc_barrier, interleaved in one run (%d rounds of %d calls;\n"
           "# medians; ratios within a round): barrier %.1f ns, NO|NO %.1f ns (%.2f barriers),\n"
           "# ALL|ALL %.1f ns (%.2f barriers; under 2 barriers in %d of %d rounds)\n",
           SMALL_ROUNDS, SMALL_ITERS, tb_median(col[0], SMALL_ROUNDS),
           tb_median(col[1], SMALL_ROUNDS), tb_median(rno, SMALL_ROUNDS),
           tb_median(col[2], SMALL_ROUNDS), tb_median(rall, SMALL_ROUNDS), below, SMALL_ROUNDS);
    if (csv)
        for (int i = 0; i < SMALL_ROUNDS; i++)
            fprintf(csv, "%d,small-round-%d,barrier|NO|ALL,8,%.1f,%.1f,%.1f,0\n", P, i,
                    small_ns[i][0], small_ns[i][1], small_ns[i][2]);
}

/* ---- 8-byte reduce_all against the barrier, interleaved ------------------------
 * As above, for upc_all_reduce_allD: rounds of SMALL_ITERS barriers, then as
 * many NO|NO, MY|MY and ALL|ALL calls over one double (8 bytes, ADD), then
 * MY|MY and ALL|ALL over one double per thread (nelems THREADS, blk_size 1:
 * what MPI_Allreduce of one double reduces). MY|MY is MPI_Allreduce's
 * contract: each thread's input is its own, and it returns with the result
 * in its own dst[i]. */
enum { ALL_KINDS = 6 };
static double small_all_ns[SMALL_ROUNDS][ALL_KINDS];

static int small_all_body(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 8), r = upc_all_alloc((size_t)THREADS, 8);
    *(double *)tupc_local(tupc_index(a, (size_t)MYTHREAD, 1, double)) = MYTHREAD + 1;
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC, all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    const upc_flag_t fl[ALL_KINDS] = {0, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, my, all, my, all};
    for (int round = -1; round < SMALL_ROUNDS; round++) { /* round -1: warm-up */
        for (int k = 0; k < ALL_KINDS; k++) {
            upc_barrier();
            double t0 = now_ns();
            for (int it = 0; it < SMALL_ITERS; it++) {
                if (k == 0)
                    upc_barrier();
                else
                    upc_all_reduce_allD(r, a, UPC_ADD, k < 4 ? 1 : (size_t)THREADS, 1, NULL, fl[k]);
            }
            double mx = slowest((now_ns() - t0) / SMALL_ITERS);
            if (MYTHREAD == 0 && round >= 0)
                small_all_ns[round][k] = mx;
        }
    }
    upc_all_free(r);
    upc_all_free(a);
    return 0;
}

static void run_small_all(int P)
{
    tupc_options o = {.threads = P};
    tupc_run_opts(&o, small_all_body, NULL);
    double col[ALL_KINDS][SMALL_ROUNDS], ratio[ALL_KINDS][SMALL_ROUNDS];
    for (int i = 0; i < SMALL_ROUNDS; i++)
        for (int k = 0; k < ALL_KINDS; k++) {
            col[k][i] = small_all_ns[i][k];
            ratio[k][i] = small_all_ns[i][k] / small_all_ns[i][0];
        }
    tb_progress_done();
    printf("# 8-byte reduce_allD against upc_barrier, interleaved in one run (%d rounds of %d\n"
           "# calls; medians; ratios within a round): barrier %.1f ns, NO|NO %.1f ns (%.2f\n"
           "# barriers), MY|MY %.1f ns (%.2f barriers), ALL|ALL %.1f ns (%.2f barriers);\n"
           "# one double per thread (as MPI_Allreduce of one double): MY|MY %.1f ns (%.2f\n"
           "# barriers), ALL|ALL %.1f ns (%.2f barriers)\n",
           SMALL_ROUNDS, SMALL_ITERS, tb_median(col[0], SMALL_ROUNDS),
           tb_median(col[1], SMALL_ROUNDS), tb_median(ratio[1], SMALL_ROUNDS),
           tb_median(col[2], SMALL_ROUNDS), tb_median(ratio[2], SMALL_ROUNDS),
           tb_median(col[3], SMALL_ROUNDS), tb_median(ratio[3], SMALL_ROUNDS),
           tb_median(col[4], SMALL_ROUNDS), tb_median(ratio[4], SMALL_ROUNDS),
           tb_median(col[5], SMALL_ROUNDS), tb_median(ratio[5], SMALL_ROUNDS));
    if (csv)
        for (int i = 0; i < SMALL_ROUNDS; i++)
            fprintf(csv,
                    "%d,small-all-round-%d,barrier|NO|MY|ALL|perthread-MY|perthread-ALL,8,%.1f,"
                    "%.1f,%.1f,%.1f,%.1f,%.1f\n",
                    P, i, small_all_ns[i][0], small_all_ns[i][1], small_all_ns[i][2],
                    small_all_ns[i][3], small_all_ns[i][4], small_all_ns[i][5]);
}

/* ---- The largest size, interleaved -------------------------------------------
 * The memory bandwidth of this VM has phases too, so reduce, prefix_reduce,
 * the streaming-copy floor, the exclusive prefix_reduce and reduce_all are
 * timed in BIG_ROUNDS rounds of one run, each round all five (doubles,
 * UPC_ADD, NO|NO), and each ratio is taken within a round. */
enum { BIG_ROUNDS = 11, BIG_KINDS = 5 };
static double big_ns[BIG_ROUNDS][BIG_KINDS];
static size_t big_bytes;

static int big_body(void *arg)
{
    (void)arg;
    size_t n = big_bytes / 8, B = (n + (size_t)THREADS - 1) / (size_t)THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, B * 8),
                p = upc_all_alloc((size_t)THREADS, B * 8), r = upc_all_alloc((size_t)THREADS, 8);
    double *la = tupc_local(tupc_index(a, (size_t)MYTHREAD * B, B, double));
    double *lp = tupc_local(tupc_index(p, (size_t)MYTHREAD * B, B, double));
    for (size_t i = 0; i < B; i++) { /* first touch by the owner */
        la[i] = (double)(i & 1023);
        lp[i] = 0;
    }
    const upc_flag_t nono = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;
    int iters = iters_for(big_bytes);
    /* The two prefixes one after the other, in turns first: the ratio of
     * exclusive to inclusive compares moments as close as can be. */
    static const int order[2][BIG_KINDS] = {{0, 1, 3, 2, 4}, {0, 3, 1, 2, 4}};
    for (int round = -1; round < BIG_ROUNDS; round++) { /* round -1: warm-up */
        for (int ki = 0; ki < BIG_KINDS; ki++) {
            const int k = order[round & 1][ki];
            upc_barrier();
            double t0 = now_ns();
            for (int it = 0; it < iters; it++) {
                if (k == 0)
                    upc_all_reduceD(r, a, UPC_ADD, n, B, NULL, nono);
                else if (k == 1)
                    upc_all_prefix_reduceD(p, a, UPC_ADD, n, B, NULL, nono);
                else if (k == 2)
                    copy_nt(lp, la, B * 8);
                else if (k == 3)
                    upc_all_prefix_reduceD(p, a, UPC_ADD, n, B, NULL, nono | EXCL);
                else
                    upc_all_reduce_allD(r, a, UPC_ADD, n, B, NULL, nono);
                upc_barrier(); /* NOSYNC calls: the timed span ends for all */
            }
            double mx = slowest((now_ns() - t0) / iters);
            if (MYTHREAD == 0 && round >= 0)
                big_ns[round][k] = mx;
        }
    }
    upc_all_free(r);
    upc_all_free(p);
    upc_all_free(a);
    return 0;
}

static void run_big(int P, size_t bytes, double bw)
{
    big_bytes = bytes;
    tupc_options o = {.threads = P, .heap_size = 2 * bytes / (size_t)P + (16 << 20)};
    tupc_run_opts(&o, big_body, NULL);
    double col[BIG_KINDS][BIG_ROUNDS], pr[BIG_ROUNDS], cr[BIG_ROUNDS], pc[BIG_ROUNDS];
    double xi[BIG_ROUNDS], ar[BIG_ROUNDS];
    int below = 0, xbelow = 0;
    for (int i = 0; i < BIG_ROUNDS; i++) {
        for (int k = 0; k < BIG_KINDS; k++)
            col[k][i] = big_ns[i][k];
        pr[i] = big_ns[i][1] / big_ns[i][0];
        cr[i] = big_ns[i][2] / big_ns[i][0];
        pc[i] = big_ns[i][1] / big_ns[i][2];
        xi[i] = big_ns[i][3] / big_ns[i][1];
        ar[i] = big_ns[i][4] / big_ns[i][0];
        below += pr[i] <= 2;
        xbelow += xi[i] <= 1.1;
    }
    tb_progress_done();
    printf("# %zu bytes of doubles, UPC_ADD, NO|NO, interleaved in one run (%d rounds; medians;\n"
           "# ratios within a round): reduceD %.0f us, prefixD %.0f us, copyNT %.0f us;\n"
           "# prefix / reduce %.2f (at most 2 in %d of %d rounds), copyNT / reduce %.2f,\n"
           "# prefix / copyNT %.2f\n",
           bytes, BIG_ROUNDS, tb_median(col[0], BIG_ROUNDS) / 1e3,
           tb_median(col[1], BIG_ROUNDS) / 1e3, tb_median(col[2], BIG_ROUNDS) / 1e3,
           tb_median(pr, BIG_ROUNDS), below, BIG_ROUNDS, tb_median(cr, BIG_ROUNDS),
           tb_median(pc, BIG_ROUNDS));
    double all_gbs = (double)bytes / tb_median(col[4], BIG_ROUNDS);
    printf("# exclusive prefixD %.0f us, exclusive / inclusive %.2f (at most 1.1 in %d of %d\n"
           "# rounds); reduce_allD %.0f us, %.2f GB/s, %.0f %% of the read bandwidth;\n"
           "# reduce_all / reduce %.2f\n",
           tb_median(col[3], BIG_ROUNDS) / 1e3, tb_median(xi, BIG_ROUNDS), xbelow, BIG_ROUNDS,
           tb_median(col[4], BIG_ROUNDS) / 1e3, all_gbs, bw > 0 ? 100 * all_gbs / bw : 0,
           tb_median(ar, BIG_ROUNDS));
    if (csv)
        for (int i = 0; i < BIG_ROUNDS; i++)
            fprintf(csv,
                    "%d,big-round-%d,reduceD|prefixD|copyNT|prefixXD|reduce_allD,%zu,%.1f,%.1f,"
                    "%.1f,%.1f,%.1f\n",
                    P, i, bytes, big_ns[i][0], big_ns[i][1], big_ns[i][2], big_ns[i][3],
                    big_ns[i][4]);
}

static void run(int P, enum kind k, size_t bytes, upc_flag_t flags, const char *fl, double omp_ns)
{
    struct job j = {k, bytes, flags};
    tupc_options o = {.threads = P, .heap_size = 2 * bytes / (size_t)P + (16 << 20)};
    tupc_run_opts(&o, body, &j);
    double mn = t_thread[0], mx = t_thread[0];
    for (int t = 1; t < P; t++) {
        mn = t_thread[t] < mn ? t_thread[t] : mn;
        mx = t_thread[t] > mx ? t_thread[t] : mx;
    }
    tb_progress_done();
    printf("%-11s %-6s %10zu %12.1f %12.1f %12.1f %9.2f", kind_name[k], fl, bytes, mx, mn, mx,
           bytes / mx);
    if (csv)
        fprintf(csv, "%d,%s,%s,%zu,%.1f,%.1f,%.3f,%.1f\n", P, kind_name[k], fl, bytes, mx, mn,
                bytes / mx, omp_ns);
    if (omp_ns > 0)
        printf(" %12.1f %6.2f", omp_ns, mx / omp_ns);
    printf("\n");
}

static double omp_sum_ns(const long *v, size_t n, int P, int iters)
{
    volatile long sink = 0; /* keeps the sum alive */
    double t0 = 0;
    for (int it = -2; it < iters; it++) {
        if (it == 0)
            t0 = now_ns();
        long s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(P)
        for (size_t i = 0; i < n; i++)
            s += v[i];
        sink += s;
    }
    (void)sink;
    return (now_ns() - t0) / iters;
}

static double read_bw(int P)
{
    size_t n = (size_t)32 << 20; /* 256 MiB of longs */
    unsigned long *v = malloc(n * sizeof *v);
    if (!v)
        return 0;
#pragma omp parallel for num_threads(P)
    for (size_t i = 0; i < n; i++)
        v[i] = i;
    double best = 1e30;
    volatile unsigned long sink = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ns();
        unsigned long s = 0;
#pragma omp parallel for reduction(^ : s) num_threads(P)
        for (size_t i = 0; i < n; i++)
            s ^= v[i];
        double t = now_ns() - t0;
        best = t < best ? t : best;
        sink ^= s;
    }
    free(v);
    (void)sink;
    return n * sizeof(unsigned long) / best;
}

enum { O_N, O_MAX, O_QUICK, O_CSV };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 2)"},
    [O_MAX] = {"--max", "BYTES", "largest size, with K, M or G (default 64M)"},
    [O_QUICK] = {"--quick", NULL, "about a tenth of the calls (default off)"},
    [O_CSV] = {"--csv", "FILE", "also write every figure to FILE (default none)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL,
    "upc_all_reduce, upc_all_reduce_all and upc_all_prefix_reduce (inclusive and exclusive), 8 B "
    "to --max, beside OpenMP and a copy.",
    opts};

int main(int argc, char **argv)
{
    int P = 2, i = 1, k;
    const char *csv_path = NULL, *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        switch (k) {
        case O_N:
            P = atoi(v);
            break;
        case O_MAX: {
            char *end;
            max_bytes = strtoull(v, &end, 0);
            /* K, M, G as everywhere else in tupc. */
            max_bytes <<= *end == 'K' || *end == 'k'   ? 10
                          : *end == 'M' || *end == 'm' ? 20
                          : *end == 'G' || *end == 'g' ? 30
                                                       : 0;
            break;
        }
        case O_QUICK:
            quick = 1;
            break;
        case O_CSV:
            csv_path = v;
            break;
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    /* Opened once every option is known: --help must not truncate it. */
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) {
            perror(csv_path);
            return 1;
        }
        fprintf(csv, "threads,call,sync,bytes,ns_max,ns_min,gb_s,omp_ns\n");
    }
    tb_probe_print("before");
    tb_progress("bench_reduce", "all-threads read bandwidth (256 MiB)");
    double bw = read_bw(P);
    tb_progress_done();
    printf("# THREADS %d; all-threads memory read bandwidth %.2f GB/s (OpenMP, 256 MiB)\n", P, bw);
    if (csv)
        fprintf(csv, "%d,readbw,-,268435456,0,0,%.3f,0\n", P, bw);
    printf("# %-9s %-6s %10s %12s %12s %12s %9s %12s %6s\n", "call", "sync", "bytes", "ns(max)",
           "min-thread", "max-thread", "GB/s", "omp ns", "ratio");
    tb_progress("bench_reduce", "8-byte reduceL beside upc_barrier, %d rounds", SMALL_ROUNDS);
    run_small(P);
    tb_progress("bench_reduce", "8-byte reduce_allD beside upc_barrier, %d rounds", SMALL_ROUNDS);
    run_small_all(P);
    if (max_bytes >= ((size_t)1 << 20)) {
        tb_progress("bench_reduce",
                    "%zu B reduceD, prefixD, copyNT, prefixXD, reduce_allD, %d rounds", max_bytes,
                    BIG_ROUNDS);
        run_big(P, max_bytes, bw);
    }
    run(P, BARRIER, 8, 0, "-", 0);
    const struct {
        upc_flag_t f;
        const char *name;
    } modes[] = {{UPC_IN_NOSYNC | UPC_OUT_NOSYNC, "NO|NO"},
                 {UPC_IN_MYSYNC | UPC_OUT_MYSYNC, "MY|MY"},
                 {UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, "AL|AL"}};
    int nsizes = 0, si = 0;
    for (size_t bytes = 8; bytes <= max_bytes; bytes *= 8) {
        nsizes++;
        if (bytes * 8 > max_bytes && bytes < max_bytes)
            bytes = max_bytes / 8;
    }
    for (size_t bytes = 8; bytes <= max_bytes; bytes *= 8) {
        tb_progress("bench_reduce", "reduce, prefix_reduce and OpenMP, %zu B, size %d of %d", bytes,
                    ++si, nsizes);
        long *v = malloc(bytes);
        for (size_t i = 0; i < bytes / 8; i++)
            v[i] = (long)i;
        double omp = omp_sum_ns(v, bytes / 8, P, iters_for(bytes));
        free(v);
        for (int m = 0; m < 3; m++)
            for (int k = RED_L; k <= PRX_D; k++)
                if (m != 1 || k == ALL_L || k == ALL_D) /* MY|MY: reduce_all only */
                    run(P, (enum kind)k, bytes, modes[m].f, modes[m].name, k == RED_L ? omp : 0);
        run(P, COPY_NT, bytes, 0, "-", 0);
        if (bytes * 8 > max_bytes && bytes < max_bytes)
            bytes = max_bytes / 8;
    }
    tb_progress_done();
    tb_probe_print("after");
    if (csv)
        fclose(csv);
    return 0;
}
