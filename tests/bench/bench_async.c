/* Overlap of a posted collective with computation (Extended Collectives 0.3
 * UPC_ASYNC): a 16 MiB upc_all_broadcast_x, an upc_all_exchange_x that
 * moves 16 MiB from each thread, and a reduce_allD of 16 MiB of doubles
 * (posted through its team form on UPC_TEAM_ALL, a tupc extension; alone,
 * the blocking upc_all_reduce_allD), posted, then a computation as long as
 * the collective alone, then upc_wait; against each alone
 * (common/overlap.h). mpi_overlap.c measures MPI_Ibcast, MPI_Ialltoall and
 * MPI_Iallreduce the same way, and compare_overlap.sh runs both. */
#include "args.h"
#include "median.h"
#include "overlap.h"
#include "probe.h"

#include <upc.h>
#include <upc_collective_ext.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXR = 31 };

static struct {
    size_t bytes;
    int rounds;
    upc_flag_t sync;
} opt = {16 << 20, 7, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};

static double spent[1024]; /* each thread's time of the round */
static long iters;         /* of tb_compute: as long as the collective */
static volatile double sink;

enum { BCAST, EXCH, RALL, NCOLL };
static const char *const coll_names[NCOLL] = {"broadcast_x", "exchange_x", "reduce_allD"};

/* The arguments of each collective, laid out by thread 0. */
static tupc_sptr_t bptrs, bsrc, bdst, xdst, xsrc, xdp, xsp, xnb, rsrc, rdst;

static void setup(void)
{
    size_t T = (size_t)THREADS, per = opt.bytes / T;
    bptrs = upc_all_alloc(T, sizeof(tupc_sptr_t));
    bsrc = upc_all_alloc(1, opt.bytes);
    bdst = upc_all_alloc(T, opt.bytes);
    xsrc = upc_all_alloc(T, per * T);
    xdst = upc_all_alloc(T, per * T);
    xdp = upc_all_alloc(T * T, sizeof(tupc_sptr_t));
    xsp = upc_all_alloc(T * T, sizeof(tupc_sptr_t));
    xnb = upc_all_alloc(T * T, sizeof(size_t));
    tupc_ref(bptrs, MYTHREAD, 1, tupc_sptr_t) =
        tupc_index(bdst, (size_t)MYTHREAD * opt.bytes, opt.bytes, char);
    memset(tupc_index(bdst, (size_t)MYTHREAD * opt.bytes, opt.bytes, char).addr, 0, opt.bytes);
    if (MYTHREAD == 0)
        memset(bsrc.addr, 7, opt.bytes);
    /* Block j of thread i: entry i * T + j of the shared [THREADS] arrays. */
    for (size_t j = 0; j < T; j++) {
        size_t e = (size_t)MYTHREAD * T + j, at = (size_t)MYTHREAD * per * T + j * per;
        tupc_ref(xdp, e, T, tupc_sptr_t) = tupc_index(xdst, at, per * T, char);
        tupc_ref(xsp, e, T, tupc_sptr_t) = tupc_index(xsrc, at, per * T, char);
        tupc_ref(xnb, e, T, size_t) = per;
    }
    memset(tupc_index(xsrc, (size_t)MYTHREAD * per * T, per * T, char).addr, MYTHREAD + 1, per * T);
    /* opt.bytes of doubles, in THREADS blocks of per bytes (a whole one each). */
    size_t nd = per / sizeof(double);
    rsrc = upc_all_alloc(T, nd * sizeof(double));
    rdst = upc_all_alloc(T, sizeof(double));
    double *mine = (double *)tupc_index(rsrc, (size_t)MYTHREAD * nd, nd, double).addr;
    for (size_t i = 0; i < nd; i++)
        mine[i] = (double)(i % 7) * 0.5;
    upc_barrier();
}

/* The collective, posted (async) or blocking. */
static upc_coll_handle_t call(int c, upc_flag_t async)
{
    size_t nd = opt.bytes / (size_t)THREADS / sizeof(double);
    if (c == BCAST)
        return upc_all_broadcast_x(bptrs, bsrc, opt.bytes, opt.sync | async, UPC_TEAM_ALL);
    if (c == RALL && !async) {
        upc_all_reduce_allD(rdst, rsrc, UPC_ADD, nd * (size_t)THREADS, nd, NULL, opt.sync);
        return UPC_HANDLE_COMPLETE;
    }
    if (c == RALL)
        return tupc_team_reduce_allD(rdst, rsrc, UPC_ADD, nd * (size_t)THREADS, nd, NULL,
                                     opt.sync | async, UPC_TEAM_ALL);
    return upc_all_exchange_x(xdp, xsp, xnb, opt.sync | async, UPC_TEAM_ALL);
}

enum { COLL, COMP, BOTH, POSTWAIT };

/* One round of `what`: the slowest thread's time. COLL is the blocking
 * call (what a program that does not overlap runs), POSTWAIT the posted
 * call waited for at once. */
static double round_of(int c, int what)
{
    upc_barrier();
    double t0 = tb_now_us();
    upc_coll_handle_t h = UPC_HANDLE_COMPLETE;
    if (what == COLL)
        (void)call(c, 0);
    if (what == BOTH || what == POSTWAIT)
        h = call(c, UPC_ASYNC);
    if (what == COMP || what == BOTH)
        sink = tb_compute(iters);
    upc_wait(h);
    spent[MYTHREAD] = tb_now_us() - t0;
    upc_barrier();
    double most = 0;
    for (int t = 0; t < THREADS; t++)
        most = spent[t] > most ? spent[t] : most;
    upc_barrier();
    return most;
}

static int body(void *arg)
{
    (void)arg;
    setup();
    for (int c = 0; c < NCOLL; c++) {
        double coll[MAXR], comp[MAXR], both[MAXR], pw[MAXR];
        for (int w = 0; w < 2; w++) { /* warm-up: pages touched, progress thread started */
            (void)round_of(c, COLL);
            (void)round_of(c, POSTWAIT);
        }
        double t[MAXR];
        for (int r = 0; r < opt.rounds; r++)
            t[r] = round_of(c, COLL);
        double alone = tb_median(t, opt.rounds);
        if (MYTHREAD == 0)
            iters = tb_calibrate(alone);
        upc_barrier();
        for (int k = 0; k < 3; k++) { /* as long as the blocking call, within a few % */
            for (int r = 0; r < 3; r++)
                t[r] = round_of(c, COMP);
            double took = tb_median(t, 3);
            if (MYTHREAD == 0)
                iters = (long)((double)iters * alone / took);
            upc_barrier();
        }
        /* Interleaved, so that all three see the same phases of the VM. */
        for (int r = 0; r < opt.rounds; r++) {
            coll[r] = round_of(c, COLL);
            comp[r] = round_of(c, COMP);
            both[r] = round_of(c, BOTH);
            pw[r] = round_of(c, POSTWAIT);
        }
        double mc = tb_median(coll, opt.rounds), mp = tb_median(comp, opt.rounds),
               mb = tb_median(both, opt.rounds), mw = tb_median(pw, opt.rounds);
        if (MYTHREAD == 0)
            printf("tupc     %-12s P=%-2d bytes %-9zu coll %8.1f us  comp %8.1f us  both %8.1f us"
                   "  ratio %.3f  | post+wait %8.1f us, ratio to it %.3f\n",
                   coll_names[c], THREADS, opt.bytes, mc, mp, mb, mb / (mc + mp), mw,
                   mb / (mw + mp));
    }
    /* The data arrived. */
    const char *d = tupc_index(bdst, (size_t)MYTHREAD * opt.bytes, opt.bytes, char).addr;
    for (size_t i = 0; i < opt.bytes; i += 4099)
        if (d[i] != 7) {
            fprintf(stderr, "bench_async: broadcast byte %zu is %d\n", i, d[i]);
            return 1;
        }
    /* Each block sums to (0 + 0.5 + ... + 3) per 7 elements, exactly. */
    size_t nd = opt.bytes / (size_t)THREADS / sizeof(double);
    double want = 0;
    for (size_t i = 0; i < nd; i++)
        want += (double)(i % 7) * 0.5;
    want *= THREADS;
    double got = tupc_ref(rdst, MYTHREAD, 1, double);
    if (got != want) {
        fprintf(stderr, "bench_async: reduce_all gave %.17g, expected %.17g\n", got, want);
        return 1;
    }
    return 0;
}

enum { O_N, O_BYTES, O_ROUNDS, O_MODE };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 1)"},
    [O_BYTES] = {"--bytes", "BYTES",
                 "bytes broadcast, and sent by each thread in the exchange "
                 "(default 16M)"},
    [O_ROUNDS] = {"--rounds", "R", "rounds, 1 to 31, for the medians (default 7)"},
    [O_MODE] = {"--mode", "all|my|no", "sync: IN_X | OUT_X (default all)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL,
    "Overlap of a posted broadcast_x, exchange_x and reduce_allD with computation: both / (coll + "
    "comp).",
    opts};

int main(int argc, char **argv)
{
    int threads = 1, i = 1, k;
    const char *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        switch (k) {
        case O_N:
            threads = atoi(v);
            break;
        case O_BYTES:
            opt.bytes = tb_parse_size(v);
            break;
        case O_ROUNDS:
            opt.rounds = atoi(v);
            break;
        case O_MODE:
            opt.sync = !strcmp(v, "no")   ? UPC_IN_NOSYNC | UPC_OUT_NOSYNC
                       : !strcmp(v, "my") ? UPC_IN_MYSYNC | UPC_OUT_MYSYNC
                                          : UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
            break;
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    if (threads < 1 || threads > 1024 || opt.rounds < 1 || opt.rounds > MAXR || opt.bytes < 1)
        tb_usage_error(argv[0], &cmd, "bad value", "");
    tupc_options o = {.threads = threads, .heap_size = 5 * opt.bytes + (64 << 20)};
    tb_probe_print("before");
    int st = tupc_run_opts(&o, body, NULL);
    tb_probe_print("after");
    return st;
}
