/* Relocalization benchmark: latency of upc_all_broadcast, scatter, gather,
 * gather_all, exchange and permute per sync mode, 8 B .. 16 MiB, beside an
 * all-threads memcpy floor measured in the same run.
 *
 * Method (OSU): per size, warm-up calls, then `iters` calls each timed on
 * its own by every thread, with an untimed upc_barrier between calls (so a
 * NOSYNC call starts with every thread present, as in OSU's MPI loops).
 * Each thread's mean over the calls; reported: the max over threads (the
 * latency), the average and min over threads, and the fastest and slowest
 * single call. Back-to-back calls on the same buffers are race-free here:
 * sources are never written and each destination byte has one writer.
 *
 * Floor: every thread memcpys, in its own partition, as many bytes as it
 * moves in the collective (nbytes; nbytes * THREADS for gather_all and
 * exchange), timed the same way: once per size for the memcpy rows, and
 * again just before each measurement for its "%floor" (floor / latency *
 * 100), so that the two share the VM's phase (--b2b: the row's floor).
 *
 * --b2b times a loop of calls back to back instead (no barrier between;
 * loop time / iters per thread): what a chain of MYSYNC calls costs.
 *
 * --rounds R repeats the whole measurement R times in the same run (barrier
 * included) and ends with the medians over the rounds of each latency, of
 * its ratio to the barrier and of its ratio to ALL|ALL of the same call and
 * size, each ratio taken within a round: the VM's slow and fast phases come
 * and go within seconds, and a ratio between two rounds compares phases.
 *
 * Usage: bench_reloc [-n THREADS] [--min BYTES] [--max BYTES]
 *          [--funcs broadcast,scatter,...] [--modes no,my,all,no-my,...]
 *          [--iters N] [--quick] [--b2b] [--rounds R] [--mem BYTES] [--csv FILE]
 * Sizes take K, M, G suffixes. A mode "X" is IN_X | OUT_X, "X-Y" IN_X | OUT_Y. */
#include "args.h"
#include "median.h"
#include "probe.h"
#include "progress.h"

#include <upc.h>
#include <upc_collective.h>

#include <float.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum fn { BROADCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE, PERMUTE, NFN };
static const char *const fn_names[NFN] = {"broadcast",  "scatter",  "gather",
                                          "gather_all", "exchange", "permute"};

struct mode {
    upc_flag_t flags;
    char name[8];
};

static struct {
    size_t min, max, mem;
    int iters; /* 0: by size */
    int quick;
    int b2b; /* --b2b: calls back to back, no barrier between, loop time / iters */
    int rounds;
    int use[NFN];
    struct mode modes[9];
    int nmodes;
    FILE *csv;
} opt = {.min = 8, .max = 16u << 20, .mem = (size_t)1 << 30, .rounds = 1};

struct stat {
    double max, avg, min, call_min, call_max;
};

/* Latencies per round (thread 0 writes them): [round][fn][mode][size], the
 * barrier in [round][NFN][0][0]; sizes are powers of two from --min. */
#define MAX_ROUNDS 31
#define MAX_SIZES 40
static double lat[MAX_ROUNDS][NFN + 1][9][MAX_SIZES];

/* Per-thread results of the last measurement, read by thread 0 after a barrier. */
static double th_mean[TUPC_MAX_THREADS], th_cmin[TUPC_MAX_THREADS], th_cmax[TUPC_MAX_THREADS];

static int iters_for(size_t moved)
{
    int it = opt.iters ? opt.iters : moved <= 8192 ? 1000 : (int)((size_t)(64u << 20) / moved);
    if (it < 10)
        it = 10;
    if (it > 1000)
        it = 1000;
    return opt.quick ? (it + 9) / 10 : it;
}

/* The buffers of the run: shared [R] char S[R * THREADS], D likewise. */
static tupc_sptr_t S, D, P;
static size_t R;

static tupc_sptr_t on(tupc_sptr_t region, int t)
{
    return tupc_ptr_add(region, (ptrdiff_t)((size_t)t * R), R, 1);
}

/* One call of fn (fn == NFN: the memcpy floor of `nb` bytes; -1: a barrier). */
static void one(int fn, size_t nb, upc_flag_t fl)
{
    switch (fn) {
    case BROADCAST:
        upc_all_broadcast(D, S, nb, fl);
        break;
    case SCATTER:
        upc_all_scatter(D, S, nb, fl);
        break;
    case GATHER:
        upc_all_gather(D, S, nb, fl);
        break;
    case GATHER_ALL:
        upc_all_gather_all(D, S, nb, fl);
        break;
    case EXCHANGE:
        upc_all_exchange(D, S, nb, fl);
        break;
    case PERMUTE:
        upc_all_permute(D, S, P, nb, fl);
        break;
    case NFN:
        memcpy(on(D, MYTHREAD).addr, on(S, MYTHREAD).addr, nb);
        break;
    default:
        upc_barrier();
        break;
    }
}

/* One thread's timings of a measurement. */
struct times {
    double sum, cmin, cmax;
};

static void timed(struct times *t, int fn, size_t nb, upc_flag_t fl)
{
    double t0 = tb_now_us();
    one(fn, nb, fl);
    double dt = tb_now_us() - t0;
    t->sum += dt;
    t->cmin = dt < t->cmin ? dt : t->cmin;
    t->cmax = dt > t->cmax ? dt : t->cmax;
    upc_barrier();
}

/* Every thread's mean over `iters` calls, summed up over threads. */
static struct stat collect(const struct times *t, int iters)
{
    int me = MYTHREAD;
    th_mean[me] = t->sum / iters;
    th_cmin[me] = t->cmin;
    th_cmax[me] = t->cmax;
    upc_barrier();
    struct stat s = {0, 0, DBL_MAX, DBL_MAX, 0};
    for (int k = 0; k < THREADS; k++) {
        s.max = th_mean[k] > s.max ? th_mean[k] : s.max;
        s.min = th_mean[k] < s.min ? th_mean[k] : s.min;
        s.avg += th_mean[k] / THREADS;
        s.call_min = th_cmin[k] < s.call_min ? th_cmin[k] : s.call_min;
        s.call_max = th_cmax[k] > s.call_max ? th_cmax[k] : s.call_max;
    }
    upc_barrier(); /* th_* are rewritten by the next measurement */
    return s;
}

/* Times `iters` calls of fn (warm-up calls first). */
static struct stat measure(int fn, size_t nb, upc_flag_t fl, int iters)
{
    for (int i = 0; i < iters / 10 + 2; i++) {
        one(fn, nb, fl);
        upc_barrier();
    }
    struct times t = {0, DBL_MAX, 0};
    if (opt.b2b) {
        double t0 = tb_now_us();
        for (int i = 0; i < iters; i++)
            one(fn, nb, fl);
        t.sum = tb_now_us() - t0;
        t.cmin = t.cmax = t.sum / iters;
        upc_barrier();
    }
    for (int i = 0; i < iters && !opt.b2b; i++)
        timed(&t, fn, nb, fl);
    return collect(&t, iters);
}

/* As measure, with the memcpy floor of floor_nb bytes timed just before
 * (into *floor), so that the two share the VM's phase, which can change
 * between the start of a size and its last function; each is timed warm,
 * on its own buffers, as the MPI benchmarks time theirs. */
static struct stat measure_with(int fn, size_t nb, upc_flag_t fl, int iters, size_t floor_nb,
                                struct stat *floor)
{
    if (floor)
        *floor = measure(NFN, floor_nb, 0, iters);
    return measure(fn, nb, fl, iters);
}

static size_t moved_by(int fn, size_t nb)
{
    return fn == GATHER_ALL || fn == EXCHANGE ? nb * (size_t)THREADS : nb;
}

static void row(const char *fn, const char *mode, size_t nb, struct stat s, double floor_us,
                size_t floor_bytes)
{
    if (MYTHREAD != 0)
        return;
    tb_progress_done();
    double pct = floor_us > 0 ? floor_us / s.max * 100 : 0;
    printf("%-10s %-7s %9zu %10.3f %10.3f %10.3f %10.3f %10.3f", fn, mode, nb, s.max, s.avg, s.min,
           s.call_min, s.call_max);
    if (floor_us > 0)
        printf(" %10.3f %6.1f%%\n", floor_us, pct);
    else
        printf("\n");
    if (opt.csv)
        fprintf(opt.csv, "%d,%s,%s,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%.1f\n", THREADS, fn, mode,
                nb, s.max, s.avg, s.min, s.call_min, s.call_max, floor_us, floor_bytes, pct);
}

/* Medians over the rounds; ratios within a round. */
static void summary(void)
{
    int all = -1, R = opt.rounds;
    for (int m = 0; m < opt.nmodes; m++)
        if (opt.modes[m].flags == (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC))
            all = m;
    double v[MAX_ROUNDS], rb[MAX_ROUNDS], ra[MAX_ROUNDS];
    for (int r = 0; r < R; r++)
        v[r] = lat[r][NFN][0][0];
    printf("\n# medians over %d rounds, ratios within a round; barrier %.3f us\n", R,
           tb_median(v, R));
    printf("%-10s %-7s %9s %10s %10s %10s\n", "function", "mode", "bytes", "lat us", "/barrier",
           "/ALL|ALL");
    for (int fn = 0; fn < NFN; fn++) {
        if (!opt.use[fn])
            continue;
        int si = 0;
        for (size_t nb = opt.min; nb <= opt.max && si < MAX_SIZES; nb *= 2, si++) {
            if (lat[0][fn][0][si] == 0)
                continue; /* skipped for --mem */
            for (int m = 0; m < opt.nmodes; m++) {
                for (int r = 0; r < R; r++) {
                    v[r] = lat[r][fn][m][si];
                    rb[r] = v[r] / lat[r][NFN][0][0];
                    ra[r] = all >= 0 ? v[r] / lat[r][fn][all][si] : 0;
                }
                printf("%-10s %-7s %9zu %10.3f %10.3f %10.3f\n", fn_names[fn], opt.modes[m].name,
                       nb, tb_median(v, R), tb_median(rb, R), tb_median(ra, R));
            }
        }
    }
}

static int body(void *arg)
{
    (void)arg;
    int T = THREADS, me = MYTHREAD;
    size_t maxarea = opt.max * (size_t)T;
    R = maxarea;
    S = upc_all_alloc((size_t)T, R);
    D = upc_all_alloc((size_t)T, R);
    P = upc_all_alloc((size_t)T, sizeof(int));
    if (tupc_isnull(S) || tupc_isnull(D) || tupc_isnull(P)) {
        if (me == 0)
            fprintf(stderr, "bench_reloc: allocation failed: %s\n", tupc_alloc_error());
        return 1;
    }
    /* Touch every page that will be used before timing anything: thread 0
     * holds the root areas (THREADS blocks), every thread its own areas,
     * THREADS blocks of the largest gather_all/exchange size --mem allows. */
    size_t ex = 0;
    for (size_t nb = opt.min; nb <= opt.max; nb *= 2)
        if (nb * (size_t)T * T * 2 <= opt.mem)
            ex = nb * (size_t)T;
    size_t touch = me == 0 ? R : ex > opt.max ? ex : opt.max;
    memset(on(S, me).addr, me + 1, touch);
    memset(on(D, me).addr, 0, touch);
    tupc_ref(P, me, 1, int) = (me + 1) % T;
    upc_barrier();

    if (me == 0)
        printf("\n%-10s %-7s %9s %10s %10s %10s %10s %10s %10s %7s\n", "function", "mode", "bytes",
               "lat us", "avg us", "min us", "call min", "call max", "floor us", "%floor");
    int nsizes = 0;
    for (size_t nb = opt.min; nb <= opt.max && nsizes < MAX_SIZES; nb *= 2)
        nsizes++;
    for (int round = 0; round < opt.rounds; round++) {
        if (me == 0 && opt.rounds > 1)
            printf("# round %d\n", round + 1);
        struct stat b = measure(-1, 0, 0, 1000);
        row("barrier", "-", 0, b, 0, 0);
        lat[round][NFN][0][0] = b.max;
        int si = 0;
        for (size_t nb = opt.min; nb <= opt.max && si < MAX_SIZES; nb *= 2, si++) {
            /* The floors this size needs, measured once. */
            struct stat f1 = measure(NFN, nb, 0, iters_for(nb));
            struct stat fT = f1;
            if (T > 1 && (opt.use[GATHER_ALL] || opt.use[EXCHANGE]) &&
                nb * (size_t)T * T * 2 <= opt.mem)
                fT = measure(NFN, nb * (size_t)T, 0, iters_for(nb * (size_t)T));
            row("memcpy", "-", nb, f1, 0, 0);
            if (T > 1 && fT.max != f1.max)
                row("memcpy*T", "-", nb * (size_t)T, fT, 0, 0);
            for (int fn = 0; fn < NFN; fn++) {
                if (!opt.use[fn])
                    continue;
                size_t moved = moved_by(fn, nb);
                /* Keep what gather_all and exchange touch within --mem. */
                if (moved * (size_t)T * 2 > opt.mem)
                    continue;
                const struct stat *fl = moved == nb ? &f1 : &fT;
                for (int m = 0; m < opt.nmodes; m++) {
                    if (me == 0)
                        tb_progress("bench_reloc", "round %d of %d, %s %s, %zu B, size %d of %d",
                                    round + 1, opt.rounds, fn_names[fn], opt.modes[m].name, nb,
                                    si + 1, nsizes);
                    struct stat pf = *fl; /* --b2b: the floor of this size */
                    struct stat s = measure_with(fn, nb, opt.modes[m].flags, iters_for(moved),
                                                 moved, opt.b2b ? NULL : &pf);
                    row(fn_names[fn], opt.modes[m].name, nb, s, pf.max, moved);
                    lat[round][fn][m][si] = s.max;
                }
            }
        }
    }
    if (me == 0)
        tb_progress_done();
    if (me == 0 && opt.rounds > 1)
        summary();
    return 0;
}

static int parse_mode(const char *s, struct mode *m)
{
    static const struct {
        const char *name;
        upc_flag_t in, out;
    } k[] = {{"no", UPC_IN_NOSYNC, UPC_OUT_NOSYNC},
             {"my", UPC_IN_MYSYNC, UPC_OUT_MYSYNC},
             {"all", UPC_IN_ALLSYNC, UPC_OUT_ALLSYNC}};
    char a[8] = "", b[8] = "";
    if (sscanf(s, "%7[a-z]-%7[a-z]", a, b) < 1)
        return -1;
    if (!b[0])
        strcpy(b, a);
    int i = -1, o = -1;
    for (int j = 0; j < 3; j++) {
        if (strcmp(a, k[j].name) == 0)
            i = j;
        if (strcmp(b, k[j].name) == 0)
            o = j;
    }
    if (i < 0 || o < 0)
        return -1;
    m->flags = k[i].in | k[o].out;
    snprintf(m->name, sizeof m->name, "%.3s|%.3s", a, b);
    for (char *c = m->name; *c; c++)
        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    return 0;
}

enum { O_N, O_MIN, O_MAX, O_FUNCS, O_MODES, O_ITERS, O_QUICK, O_B2B, O_ROUNDS, O_MEM, O_CSV };
static const struct tb_opt opts[] = {
    [O_N] = {"-n", "THREADS", "THREADS (default: one per CPU)"},
    [O_MIN] = {"--min", "BYTES", "smallest size, with K, M or G; then times 2 (default 8)"},
    [O_MAX] = {"--max", "BYTES", "largest size (default 16M)"},
    [O_FUNCS] = {"--funcs", "f,f,...",
                 "of broadcast,scatter,gather,gather_all,exchange,permute "
                 "(default all)"},
    [O_MODES] = {"--modes", "m,m,...",
                 "X-Y is IN_X | OUT_Y, X is X-X; X, Y: no, my, all (default no,my,all)"},
    [O_ITERS] = {"--iters", "N", "timed calls per figure (default by size: 10 to 1000)"},
    [O_QUICK] = {"--quick", NULL, "a tenth of the calls (default off)"},
    [O_B2B] = {"--b2b", NULL, "calls back to back, no barrier between (default off: OSU)"},
    [O_ROUNDS] = {"--rounds", "R", "repeat it all R times, 1 to 31, and print medians (default 1)"},
    [O_MEM] = {"--mem", "BYTES", "skip calls whose buffers, all threads', exceed it (default 1G)"},
    [O_CSV] = {"--csv", "FILE", "also write every figure to FILE (default none)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "Latency of the relocalization collectives per sync mode, beside a memcpy floor.", opts};

int main(int argc, char **argv)
{
    int threads = 0, i = 1, k;
    const char *csv_path = NULL, *funcs = NULL, *modes = "no,my,all", *v;
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
        case O_MEM:
            opt.mem = tb_parse_size(v);
            break;
        case O_ITERS:
            opt.iters = atoi(v);
            break;
        case O_ROUNDS:
            opt.rounds = atoi(v);
            break;
        case O_FUNCS:
            funcs = v;
            break;
        case O_MODES:
            modes = v;
            break;
        case O_CSV:
            csv_path = v;
            break;
        case O_QUICK:
            opt.quick = 1;
            break;
        case O_B2B:
            opt.b2b = 1;
            break;
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    if (opt.min < 1 || opt.max < opt.min || opt.rounds < 1 || opt.rounds > MAX_ROUNDS)
        tb_usage_error(argv[0], &cmd, "bad sizes or rounds", "");
    for (int f = 0; f < NFN; f++)
        opt.use[f] = funcs == NULL;
    if (funcs) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", funcs);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            int found = 0;
            for (int f = 0; f < NFN; f++)
                if (strcmp(t, fn_names[f]) == 0)
                    opt.use[f] = found = 1;
            if (!found)
                tb_usage_error(argv[0], &cmd, "unknown function ", t);
        }
    }
    char mbuf[256];
    snprintf(mbuf, sizeof mbuf, "%s", modes);
    for (char *t = strtok(mbuf, ","); t && opt.nmodes < 9; t = strtok(NULL, ","))
        if (parse_mode(t, &opt.modes[opt.nmodes++]) != 0)
            tb_usage_error(argv[0], &cmd, "unknown mode ", t);
    if (threads <= 0) {
        cpu_set_t set;
        sched_getaffinity(0, sizeof set, &set);
        threads = CPU_COUNT(&set);
    }
    if (csv_path) {
        opt.csv = fopen(csv_path, "w");
        if (!opt.csv) {
            perror(csv_path);
            return 1;
        }
        fprintf(opt.csv, "threads,function,mode,bytes,lat_us,avg_us,min_us,call_min_us,"
                         "call_max_us,floor_us,floor_bytes,pct_of_floor\n");
    }
    printf("# bench_reloc: THREADS %d, %zu .. %zu bytes%s%s\n", threads, opt.min, opt.max,
           opt.quick ? ", quick" : "",
           opt.b2b ? ", back to back" : ", OSU (barrier between calls)");
    printf("# lat: max over threads of the mean call time; floor: all-threads memcpy of the "
           "bytes each thread moves\n");
    double rtt0 = tb_probe_print("before");
    tupc_options o = {.threads = threads, .heap_size = opt.max * (size_t)threads * 2 + (1u << 20)};
    int st = tupc_run_opts(&o, body, NULL);
    double rtt1 = tb_probe_print("after");
    printf("# phase: %s before, %s after\n", tb_phase(rtt0), tb_phase(rtt1));
    if (opt.csv)
        fclose(opt.csv);
    return st;
}
