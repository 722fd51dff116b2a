/* The _x relocalizations against their 1.3 twins, and UPC_PUSH against
 * UPC_PULL, at equal sizes and on the same blocks: the _x argument arrays
 * point at exactly the blocks the 1.3 call moves. Then the same broadcast
 * on two half-teams at once against one on all threads.
 *
 * Per size, each round times, in turns, the 1.3 call, the _x call with
 * neither flag, with UPC_PUSH and with UPC_PULL (each: warm-up, then
 * `iters` calls with a barrier between, every thread's mean, the max over
 * threads). Reported: the medians over the rounds of each latency and of
 * its ratio to the 1.3 twin taken within the round, so that the VM's phases
 * cancel. A probe before and after the run says which phase it saw.
 *
 * Usage: bench_x [-n THREADS] [--min BYTES] [--max BYTES] [--rounds R]
 *          [--mode all|my|no] [--funcs broadcast,scatter,...] */
#include "args.h"
#include "median.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum fn { BROADCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE, PERMUTE, NFN };
static const char *const fn_names[NFN] = {"broadcast",  "scatter",  "gather",
                                          "gather_all", "exchange", "permute"};
enum form { TWIN, X, XPUSH, XPULL, NFORM };
static const char *const form_names[NFORM] = {"1.3", "_x", "_x push", "_x pull"};

#define MAX_ROUNDS 31
#define MAX_SIZES 16

static struct {
    size_t min, max;
    int rounds, use[NFN];
    upc_flag_t sync;
} opt = {.min = 8, .max = 16u << 20, .rounds = 5, .sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};

static double lat[MAX_ROUNDS][NFN][MAX_SIZES][NFORM];
static double half[MAX_ROUNDS][MAX_SIZES][2];
static double th_mean[TUPC_MAX_THREADS];

static tupc_sptr_t S, D, P, p1_src, p1_dst, pT_src, pT_dst, nb1, nbT;
static size_t R; /* bytes per thread of S and D */

/* Byte `off` of thread t's area of X. */
static tupc_sptr_t at(tupc_sptr_t X, int t, size_t off)
{
    return tupc_index(X, (ptrdiff_t)((size_t)t * R + off), R, char);
}

/* The argument arrays of fn at nb bytes, pointing at the blocks of the 1.3 call. */
static void set_arrays(int fn, size_t nb)
{
    int T = THREADS, me = MYTHREAD;
    for (int k = 0; k < T; k++) {
        /* Entries on this thread only: block size 1, entry me; block size T,
         * entries me * T .. me * T + T - 1. */
        size_t e = (size_t)me * (size_t)T + (size_t)k;
        int i = me, j = k;
        switch (fn) {
        case EXCHANGE: /* src[j*T+i] on j = S of j at i*nb; dst[i*T+j] = D of i at j*nb */
            tupc_ref(pT_src, e, T, tupc_sptr_t) = at(S, me, (size_t)k * nb);
            tupc_ref(pT_dst, e, T, tupc_sptr_t) = at(D, i, (size_t)j * nb);
            tupc_ref(nbT, e, T, size_t) = nb;
            break;
        case GATHER_ALL: /* dst[i*T+r] = D of i at r*nb */
            tupc_ref(pT_dst, e, T, tupc_sptr_t) = at(D, me, (size_t)k * nb);
            break;
        default:
            break;
        }
    }
    tupc_ref(nb1, me, 1, size_t) = nb;
    tupc_ref(P, me, 1, int) = (me + 1) % T;
    switch (fn) {
    case BROADCAST:
    case PERMUTE:
    case GATHER_ALL:
        tupc_ref(p1_src, me, 1, tupc_sptr_t) = at(S, me, 0);
        tupc_ref(p1_dst, me, 1, tupc_sptr_t) = at(D, me, 0);
        break;
    case SCATTER:
        tupc_ref(p1_src, me, 1, tupc_sptr_t) = at(S, 0, (size_t)me * nb);
        tupc_ref(p1_dst, me, 1, tupc_sptr_t) = at(D, me, 0);
        break;
    case GATHER:
        tupc_ref(p1_src, me, 1, tupc_sptr_t) = at(S, me, 0);
        tupc_ref(p1_dst, me, 1, tupc_sptr_t) = at(D, 0, (size_t)me * nb);
        break;
    }
    upc_barrier();
}

static void one(int fn, int form, size_t nb)
{
    upc_flag_t f = opt.sync;
    upc_flag_t m = f | (form == XPUSH ? UPC_PUSH : form == XPULL ? UPC_PULL : 0);
    if (form == TWIN) {
        switch (fn) {
        case BROADCAST:
            upc_all_broadcast(D, S, nb, f);
            break;
        case SCATTER:
            upc_all_scatter(D, S, nb, f);
            break;
        case GATHER:
            upc_all_gather(D, S, nb, f);
            break;
        case GATHER_ALL:
            upc_all_gather_all(D, S, nb, f);
            break;
        case EXCHANGE:
            upc_all_exchange(D, S, nb, f);
            break;
        case PERMUTE:
            upc_all_permute(D, S, P, nb, f);
            break;
        }
        return;
    }
    switch (fn) {
    case BROADCAST:
        upc_all_broadcast_x(p1_dst, S, nb, m, UPC_TEAM_ALL);
        break;
    case SCATTER:
        upc_all_scatter_x(p1_dst, p1_src, nb1, m, UPC_TEAM_ALL);
        break;
    case GATHER:
        upc_all_gather_x(p1_dst, p1_src, nb1, m, UPC_TEAM_ALL);
        break;
    case GATHER_ALL:
        upc_all_gather_all_x(pT_dst, p1_src, nb1, m, UPC_TEAM_ALL);
        break;
    case EXCHANGE:
        upc_all_exchange_x(pT_dst, pT_src, nbT, m, UPC_TEAM_ALL);
        break;
    case PERMUTE:
        upc_all_permute_x(p1_dst, p1_src, P, nb1, m, UPC_TEAM_ALL);
        break;
    }
}

static int iters_for(size_t moved)
{
    int it = moved <= 8192 ? 2000 : (int)((size_t)(64u << 20) / moved);
    return it < 10 ? 10 : it > 2000 ? 2000 : it;
}

/* Max over threads of each thread's mean of `iters` calls of g(arg). */
static double timeit(void (*g)(const void *), const void *arg, int iters)
{
    for (int i = 0; i < iters / 10 + 2; i++) {
        g(arg);
        upc_barrier();
    }
    double sum = 0;
    for (int i = 0; i < iters; i++) {
        double t0 = tb_now_us();
        g(arg);
        sum += tb_now_us() - t0;
        upc_barrier();
    }
    th_mean[MYTHREAD] = sum / iters;
    upc_barrier();
    double mx = 0;
    for (int t = 0; t < THREADS; t++)
        mx = th_mean[t] > mx ? th_mean[t] : mx;
    upc_barrier();
    return mx;
}

struct call {
    int fn, form;
    size_t nb;
    upc_team_t team;
};

static void run_call(const void *a)
{
    const struct call *c = a;
    one(c->fn, c->form, c->nb);
}

/* Broadcast of nb bytes from the team's rank 0 to every member, on team. */
static void run_team_bcast(const void *a)
{
    const struct call *c = a;
    int base = tupc_team_thread(c->team, 0);
    tupc_sptr_t arr = tupc_index(p1_dst, base, 1, tupc_sptr_t);
    upc_all_broadcast_x(arr, at(S, base, 0), c->nb, opt.sync, c->team);
}

static int body(void *arg)
{
    (void)arg;
    int T = THREADS, me = MYTHREAD;
    R = opt.max * (size_t)T;
    S = upc_all_alloc((size_t)T, R);
    D = upc_all_alloc((size_t)T, R);
    P = upc_all_alloc((size_t)T, sizeof(int));
    p1_src = upc_all_alloc((size_t)T, sizeof(tupc_sptr_t));
    p1_dst = upc_all_alloc((size_t)T, sizeof(tupc_sptr_t));
    pT_src = upc_all_alloc((size_t)T, (size_t)T * sizeof(tupc_sptr_t));
    pT_dst = upc_all_alloc((size_t)T, (size_t)T * sizeof(tupc_sptr_t));
    nb1 = upc_all_alloc((size_t)T, sizeof(size_t));
    nbT = upc_all_alloc((size_t)T, (size_t)T * sizeof(size_t));
    if (tupc_isnull(S) || tupc_isnull(D)) {
        if (me == 0)
            fprintf(stderr, "bench_x: allocation failed: %s\n", tupc_alloc_error());
        return 1;
    }
    memset(at(S, me, 0).addr, me + 1, R);
    memset(at(D, me, 0).addr, 0, R);
    upc_team_t halves;
    tupc_team_split(UPC_TEAM_ALL, me * 2 / T, me, &halves);
    upc_barrier();
    int nsizes = 0;
    for (size_t nb = opt.min; nb <= opt.max && nsizes < MAX_SIZES; nb *= 4)
        nsizes++;
    for (int r = 0; r < opt.rounds; r++) {
        int si = 0;
        for (size_t nb = opt.min; nb <= opt.max && si < MAX_SIZES; nb *= 4, si++) {
            for (int fn = 0; fn < NFN; fn++) {
                if (!opt.use[fn])
                    continue;
                if (me == 0)
                    tb_progress("bench_x", "round %d of %d, %s, %zu B, size %d of %d", r + 1,
                                opt.rounds, fn_names[fn], nb, si + 1, nsizes);
                size_t moved = fn == GATHER_ALL || fn == EXCHANGE ? nb * (size_t)T : nb;
                set_arrays(fn, nb);
                for (int form = 0; form < NFORM; form++) {
                    struct call c = {fn, form, nb, UPC_TEAM_ALL};
                    lat[r][fn][si][form] = timeit(run_call, &c, iters_for(moved));
                }
            }
            set_arrays(BROADCAST, nb);
            struct call all = {BROADCAST, X, nb, UPC_TEAM_ALL};
            struct call hv = {BROADCAST, X, nb, halves};
            half[r][si][0] = timeit(run_team_bcast, &all, iters_for(nb));
            half[r][si][1] = timeit(run_team_bcast, &hv, iters_for(nb));
        }
    }
    upc_barrier();
    if (me != 0)
        return 0;
    tb_progress_done();
    int Rn = opt.rounds;
    double v[MAX_ROUNDS], q[MAX_ROUNDS];
    printf("# THREADS %d, mode 0x%x, medians over %d rounds; ratios to the 1.3 twin within a "
           "round\n",
           T, (unsigned)opt.sync, Rn);
    printf("%-10s %9s %10s", "function", "bytes", "1.3 us");
    for (int f = 1; f < NFORM; f++)
        printf(" %10s %8s", form_names[f], "/1.3");
    printf("\n");
    for (int fn = 0; fn < NFN; fn++) {
        if (!opt.use[fn])
            continue;
        int si = 0;
        for (size_t nb = opt.min; nb <= opt.max && si < MAX_SIZES; nb *= 4, si++) {
            for (int r = 0; r < Rn; r++)
                v[r] = lat[r][fn][si][TWIN];
            printf("%-10s %9zu %10.3f", fn_names[fn], nb, tb_median(v, Rn));
            for (int f = 1; f < NFORM; f++) {
                for (int r = 0; r < Rn; r++) {
                    v[r] = lat[r][fn][si][f];
                    q[r] = lat[r][fn][si][f] / lat[r][fn][si][TWIN];
                }
                printf(" %10.3f %8.3f", tb_median(v, Rn), tb_median(q, Rn));
            }
            printf("\n");
        }
    }
    printf("\n# broadcast_x: one on all %d threads against one on each half at once\n", T);
    printf("%9s %12s %12s %8s\n", "bytes", "all us", "halves us", "ratio");
    int si = 0;
    for (size_t nb = opt.min; nb <= opt.max && si < MAX_SIZES; nb *= 4, si++) {
        double a[MAX_ROUNDS], h[MAX_ROUNDS];
        for (int r = 0; r < Rn; r++) {
            a[r] = half[r][si][0], h[r] = half[r][si][1];
            q[r] = h[r] / a[r];
        }
        printf("%9zu %12.3f %12.3f %8.3f\n", nb, tb_median(a, Rn), tb_median(h, Rn),
               tb_median(q, Rn));
    }
    return 0;
}

enum { O_N, O_MIN, O_MAX, O_ROUNDS, O_MODE, O_FUNCS };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 2)"},
    [O_MIN] = {"--min", "BYTES", "smallest size, with K, M or G; then times 4 (default 8)"},
    [O_MAX] = {"--max", "BYTES", "largest size (default 16M)"},
    [O_ROUNDS] = {"--rounds", "R", "rounds, 1 to 31, for the medians (default 5)"},
    [O_MODE] = {"--mode", "all|my|no", "sync of every call: IN_X | OUT_X (default all)"},
    [O_FUNCS] = {"--funcs", "f,f,...",
                 "of broadcast,scatter,gather,gather_all,exchange,permute "
                 "(default all)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "Each _x relocalization beside its 1.3 twin, with UPC_PUSH, UPC_PULL and neither.", opts};

int main(int argc, char **argv)
{
    int threads = 2, any = 0, i = 1, k;
    const char *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        switch (k) {
        case O_N:
            threads = atoi(v);
            break;
        case O_MIN:
            opt.min = tb_parse_size(v);
            break;
        case O_MAX:
            opt.max = tb_parse_size(v);
            break;
        case O_ROUNDS:
            opt.rounds = atoi(v);
            break;
        case O_MODE:
            opt.sync = !strcmp(v, "no")   ? UPC_IN_NOSYNC | UPC_OUT_NOSYNC
                       : !strcmp(v, "my") ? UPC_IN_MYSYNC | UPC_OUT_MYSYNC
                                          : UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
            break;
        case O_FUNCS: {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
                for (int f = 0; f < NFN; f++)
                    if (!strcmp(t, fn_names[f]))
                        opt.use[f] = any = 1;
            break;
        }
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    if (opt.rounds < 1 || opt.rounds > MAX_ROUNDS)
        opt.rounds = 5;
    if (!any)
        for (int f = 0; f < NFN; f++)
            opt.use[f] = 1;
    tupc_options o = {.threads = threads, .heap_size = opt.max * (size_t)threads * 2 + (8u << 20)};
    /* The probe runs outside the run: its two threads want both CPUs. */
    tb_probe_print("before");
    int st = tupc_run_opts(&o, body, NULL);
    tb_probe_print("after");
    return st;
}
