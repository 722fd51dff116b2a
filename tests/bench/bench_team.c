/* A split team against UPC_TEAM_ALL with the same members (issue 28): the
 * team is tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD), so its ranks are the
 * threads and every call moves the same bytes between the same threads.
 * For broadcast, exchange, reduceL and prefix_reduceL, each size and each
 * sync mode, a round times the 1.3 call and then its team form on the same
 * arrays, each back to back (a barrier before and after the loop only);
 * reported: the medians over the rounds of both latencies and of their
 * ratio taken within the round, so that the VM's phases cancel. 15 rounds
 * by default: with 5, an 8-byte cell of 40 ns at 4 or 8 THREADS on 2 CPUs
 * moved by 0.8-1.3 from one run to the next (a thread descheduled in a
 * round); with 15 by 0.95-1.15.
 *
 * Usage: bench_team [-n THREADS] [--rounds R] [--sizes 8,64K,1M] */
#include "args.h"
#include "median.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum verb { BROADCAST, EXCHANGE, REDUCE, PREFIX, NVERB };
static const char *const verb_names[NVERB] = {"broadcast", "exchange", "reduce", "prefix"};
#define NMODE 3
static const upc_flag_t modes[NMODE] = {UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                                        UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
                                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};
static const char *const mode_names[NMODE] = {"NO|NO", "MY|MY", "ALL|ALL"};

#define MAX_ROUNDS 31
#define MAX_SIZES 8

static struct {
    int rounds, nsizes;
    size_t size[MAX_SIZES];
} opt = {.rounds = 15, .nsizes = 3, .size = {8, 64u << 10, 1u << 20}};

static double lat[MAX_ROUNDS][NVERB][NMODE][MAX_SIZES][2];
static double th_mean[TUPC_MAX_THREADS];
static tupc_sptr_t S, D;
static size_t R; /* bytes per thread of S and D */

struct call {
    int verb, mode;
    size_t nb;
    upc_team_t team; /* UPC_TEAM_ALL: the 1.3 call */
};

/* One call; reductions on longs, nb / 8 of them, one block per thread. */
static void one(const struct call *c)
{
    upc_flag_t f = modes[c->mode];
    size_t n = c->nb / sizeof(long), blk = (n + (size_t)THREADS - 1) / (size_t)THREADS;
    int all = c->team == UPC_TEAM_ALL;
    switch (c->verb) {
    case BROADCAST:
        if (all)
            upc_all_broadcast(D, S, c->nb, f);
        else
            tupc_team_broadcast(D, S, c->nb, f, c->team);
        break;
    case EXCHANGE:
        if (all)
            upc_all_exchange(D, S, c->nb, f);
        else
            tupc_team_exchange(D, S, c->nb, f, c->team);
        break;
    case REDUCE:
        if (all)
            upc_all_reduceL(D, S, UPC_ADD, n, blk, NULL, f);
        else
            tupc_team_reduceL(D, S, UPC_ADD, n, blk, NULL, f, c->team);
        break;
    default:
        if (all)
            upc_all_prefix_reduceL(D, S, UPC_ADD, n, blk, NULL, f);
        else
            tupc_team_prefix_reduceL(D, S, UPC_ADD, n, blk, NULL, f, c->team);
    }
}

static int iters_for(size_t moved)
{
    int it = moved <= 8192 ? 2000 : (int)((size_t)(128u << 20) / moved);
    return it < 20 ? 20 : it > 2000 ? 2000 : it;
}

/* Max over threads of each thread's mean of `iters` calls back to back. */
static double timeit(const struct call *c, int iters)
{
    for (int i = 0; i < iters / 10 + 2; i++)
        one(c);
    upc_barrier();
    double t0 = tb_now_us();
    for (int i = 0; i < iters; i++)
        one(c);
    th_mean[MYTHREAD] = (tb_now_us() - t0) / iters;
    upc_barrier();
    double mx = 0;
    for (int t = 0; t < THREADS; t++)
        mx = th_mean[t] > mx ? th_mean[t] : mx;
    upc_barrier();
    return mx;
}

static void print_table(void)
{
    int Rn = opt.rounds;
    double a[MAX_ROUNDS], t[MAX_ROUNDS], q[MAX_ROUNDS];
    printf("# THREADS %d, back to back, medians over %d rounds; team/all within a round\n", THREADS,
           Rn);
    printf("%-10s %-8s %9s %10s %10s %9s\n", "verb", "mode", "bytes", "all us", "team us",
           "team/all");
    for (int v = 0; v < NVERB; v++)
        for (int m = 0; m < NMODE; m++)
            for (int s = 0; s < opt.nsizes; s++) {
                for (int r = 0; r < Rn; r++) {
                    a[r] = lat[r][v][m][s][0], t[r] = lat[r][v][m][s][1];
                    q[r] = t[r] / a[r];
                }
                printf("%-10s %-8s %9zu %10.3f %10.3f %9.3f\n", verb_names[v], mode_names[m],
                       opt.size[s], tb_median(a, Rn), tb_median(t, Rn), tb_median(q, Rn));
            }
}

static int body(void *arg)
{
    (void)arg;
    int me = MYTHREAD;
    S = upc_all_alloc((size_t)THREADS, R);
    D = upc_all_alloc((size_t)THREADS, R);
    if (tupc_isnull(S) || tupc_isnull(D)) {
        if (me == 0)
            fprintf(stderr, "bench_team: allocation failed: %s\n", tupc_alloc_error());
        return 1;
    }
    memset(tupc_index(S, (ptrdiff_t)((size_t)me * R), R, char).addr, 1, R);
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, 0, me, &team);
    upc_barrier();
    for (int r = 0; r < opt.rounds; r++)
        for (int v = 0; v < NVERB; v++)
            for (int m = 0; m < NMODE; m++)
                for (int s = 0; s < opt.nsizes; s++) {
                    size_t nb = opt.size[s];
                    if (me == 0)
                        tb_progress("bench_team", "round %d of %d, %s %s, %zu B", r + 1, opt.rounds,
                                    verb_names[v], mode_names[m], nb);
                    int it = iters_for(v == EXCHANGE ? nb * (size_t)THREADS : nb);
                    struct call all = {v, m, nb, UPC_TEAM_ALL}, tm = {v, m, nb, team};
                    /* Which goes first alternates, so that neither
                     * always finds the other's caches. */
                    if (r & 1) {
                        lat[r][v][m][s][1] = timeit(&tm, it);
                        lat[r][v][m][s][0] = timeit(&all, it);
                    } else {
                        lat[r][v][m][s][0] = timeit(&all, it);
                        lat[r][v][m][s][1] = timeit(&tm, it);
                    }
                }
    upc_barrier();
    tupc_team_free(&team);
    if (me == 0) {
        tb_progress_done();
        print_table();
    }
    return 0;
}

enum { O_N, O_ROUNDS, O_SIZES };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default 2)"},
    [O_ROUNDS] = {"--rounds", "R", "rounds, 1 to 31, for the medians (default 15)"},
    [O_SIZES] = {"--sizes", "B,B,...", "bytes per call, with K, M or G (default 8,64K,1M)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "A split team with every thread against UPC_TEAM_ALL, same calls, same members.", opts};

int main(int argc, char **argv)
{
    int threads = 2, i = 1, k;
    const char *v;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        if (k == O_N) {
            threads = atoi(v);
        } else if (k == O_ROUNDS) {
            opt.rounds = atoi(v);
        } else if (k == O_SIZES) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            opt.nsizes = 0;
            for (char *t = strtok(buf, ","); t && opt.nsizes < MAX_SIZES; t = strtok(NULL, ","))
                opt.size[opt.nsizes++] = tb_parse_size(t);
        } else {
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    if (opt.rounds < 1 || opt.rounds > MAX_ROUNDS)
        opt.rounds = 15;
    size_t max = 8;
    for (int s = 0; s < opt.nsizes; s++) {
        if (opt.size[s] < sizeof(long))
            opt.size[s] = sizeof(long);
        max = opt.size[s] > max ? opt.size[s] : max;
    }
    R = max * (size_t)(threads > 0 ? threads : 1); /* exchange: nb per thread */
    tupc_options o = {.threads = threads, .heap_size = 2 * R + (8u << 20)};
    tb_probe_print("before");
    int st = tupc_run_opts(&o, body, NULL);
    tb_probe_print("after");
    return st;
}
