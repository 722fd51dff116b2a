/* Late writers: every collective's inputs written right before the call, as
 * the sync modes allow (Collectives 1.0 section 3). Under UPC_IN_ALLSYNC the
 * library may touch data only after all threads have entered, so one late
 * thread (r % THREADS in round r, after a random short spin or yield) writes
 * the inputs of EVERY thread (src blocks, and perm for permute) and only then
 * calls, while the others call at once without writing. Under UPC_IN_MYSYNC
 * the library may touch only data of threads that have entered, so each
 * thread writes its OWN inputs right before its own call, one thread (again
 * r % THREADS) after a delay. A library that reads inputs before the entry
 * synchronization gets the previous round's values, which differ (every
 * round has its own seed), and the checks see them.
 *
 * Cases: broadcast, scatter, gather, gather_all, exchange, permute (nbytes
 * 8 and 1000; the root of broadcast, scatter and gather is the late thread
 * every other round; a fresh permutation every round, never the previous
 * one), reduceL and reduceD (a one-block src and two many-block arrays),
 * reduce_allL and reduce_allD (the same three), prefix_reduceL and
 * prefix_reduceD, inclusive and exclusive (the many-block arrays), and sort
 * (a tiny and a many-block array), each with IN_ALLSYNC and IN_MYSYNC x
 * OUT_NOSYNC, OUT_MYSYNC and OUT_ALLSYNC, at THREADS 2, 4, 8 (100 rounds) and
 * 32 (25 rounds). Under TUPC_TEST_QUICK (ThreadSanitizer) a quarter of the
 * rounds.
 *
 * After the call (and a barrier unless OUT_ALLSYNC) every byte of every
 * destination is checked against data recomputed from the round's seed, by
 * a thread that rotates with the round; reductions against a serial
 * oracle, sort against a sorted copy. A barrier ends each round, so the
 * checks of a round come before the writes of the next. */
#include "tt.h"

#include <upc_collective_ext.h>

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define GAMMA 0x9e3779b97f4a7c15ull

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

static int rounds_for(int T)
{
    int n = T <= 8 ? 100 : 25;
    return quick() ? (n + 3) / 4 : n;
}

#define NMODES 6
static const upc_flag_t modes[NMODES] = {
    UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,  UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
    UPC_IN_MYSYNC | UPC_OUT_MYSYNC,   UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
};

static const int thread_counts[] = {2, 4, 8, 32};
#define NCOUNTS ((int)(sizeof thread_counts / sizeof thread_counts[0]))

static uint64_t hash(uint64_t seed, uint64_t i)
{
    uint64_t s = seed + i * GAMMA;
    return tt_rand(&s);
}

/* The seed of round r of a case: every round has its own data. */
static uint64_t round_seed(int what, int shape, int mode, int r)
{
    uint64_t s = ((uint64_t)what << 48) ^ ((uint64_t)shape << 40) ^ ((uint64_t)mode << 32) ^
                 (uint64_t)r ^ ((uint64_t)THREADS << 20);
    return tt_rand(&s);
}

/* A short random wait: a spin of up to a few microseconds and up to three
 * yields. */
static void delay(uint64_t seed)
{
    uint64_t h = hash(seed, 0x5851f42d4c957f2dull);
    unsigned spins = (unsigned)(h % 8000);
    for (volatile unsigned i = 0; i < spins; i++)
        ;
    for (unsigned y = (unsigned)((h >> 32) % 4); y > 0; y--)
        sched_yield();
}

static void check_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                        const char *what, upc_flag_t fl, size_t nb, int r, int dt, int blk)
{
    if (memcmp(got, want, n) == 0)
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    TCHECK(0,
           "%s flags 0x%x nbytes %zu round %d (late %d): dst of thread %d block %d byte %zu is "
           "0x%02x, expected 0x%02x",
           what, (unsigned)fl, nb, r, r % THREADS, dt, blk, i, got[i], want[i]);
}

/* ---- Relocalization ---------------------------------------------------- */

static const char *const fn_name[TT_NFN] = {"broadcast",  "scatter",  "gather",
                                            "gather_all", "exchange", "permute"};

/* Bytes pos.. of the random stream s (any position reachable directly). */
static void gen(unsigned char *out, size_t len, uint64_t s, size_t pos)
{
    uint64_t word = 0;
    for (size_t i = 0; i < len; i++) {
        size_t p = pos + i;
        if (i == 0 || p % 8 == 0)
            word = hash(s, p / 8);
        out[i] = (unsigned char)(word >> (8 * (p % 8)));
    }
}

static uint64_t stream_of(uint64_t seed, int thread)
{
    return hash(seed ^ 0x632be59bd9b4e019ull, (uint64_t)thread);
}

/* The round's permutation, the same on every thread: a seeded shuffle,
 * rotated by one where it equals the previous round's. */
static void next_perm(int *perm, int *prev, int *have_prev, int T, uint64_t seed)
{
    for (int i = 0; i < T; i++)
        perm[i] = i;
    uint64_t st = seed;
    for (int i = T - 1; i > 0; i--) {
        int j = (int)(tt_rand(&st) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    if (*have_prev && memcmp(perm, prev, (size_t)T * sizeof *perm) == 0)
        for (int i = 0; i < T; i++)
            perm[i] = (perm[i] + 1) % T;
    memcpy(prev, perm, (size_t)T * sizeof *perm);
    *have_prev = 1;
}

/* &region[t * R + off]: byte off of thread t's part of a region blocked by R. */
static tupc_sptr_t at(tupc_sptr_t region, size_t R, int t, size_t off)
{
    return tupc_ptr_add(region, (ptrdiff_t)((size_t)t * R + off), R, 1);
}

static int reloc_thread(void *arg)
{
    const int fn = *(const int *)arg, T = THREADS, me = MYTHREAD, nr = rounds_for(T);
    const size_t sizes[] = {8, 1000};
    const int src_root_only = fn == TT_BROADCAST || fn == TT_SCATTER;
    const int dst_root_only = fn == TT_GATHER;
    const int rooted = src_root_only || dst_root_only;
    int *perm = calloc((size_t)T, sizeof(int)), *prev = calloc((size_t)T, sizeof(int));
    int have_prev = 0;
    for (int si = 0; si < 2; si++) {
        const size_t nb = sizes[si], R = nb * (size_t)T;
        const size_t srclen = (fn == TT_SCATTER || fn == TT_EXCHANGE) ? R : nb;
        /* shared [R] char[R * THREADS] each; perm is shared int[THREADS]. */
        tupc_sptr_t srcr = upc_all_alloc((size_t)T, R), dstr = upc_all_alloc((size_t)T, R);
        tupc_sptr_t pr = upc_all_alloc((size_t)T, sizeof(int));
        unsigned char *want = malloc(nb);
        for (int mi = 0; mi < NMODES; mi++) {
            const upc_flag_t fl = modes[mi];
            for (int r = 0; r < nr; r++) {
                const uint64_t seed = round_seed(fn, si, mi, r);
                const int late = r % T;
                const int root = !rooted ? 0 : r % 2 ? (int)(hash(seed, 1) % (uint64_t)T) : late;
                if (fn == TT_PERMUTE)
                    next_perm(perm, prev, &have_prev, T, seed);
                tupc_sptr_t src = at(srcr, R, src_root_only ? root : 0, 0);
                tupc_sptr_t dst = at(dstr, R, dst_root_only ? root : 0, 0);

                /* The writes: under ALLSYNC the late thread writes everyone's
                 * inputs; under MYSYNC each thread its own. */
                int first = me, last = me;
                if (fl & UPC_IN_ALLSYNC) {
                    first = 0;
                    last = me == late ? T - 1 : -1;
                }
                if (me == late)
                    delay(seed);
                for (int t = first; t <= last; t++) {
                    if (!src_root_only || t == root)
                        gen((unsigned char *)at(srcr, R, t, 0).addr, srclen, stream_of(seed, t), 0);
                    if (fn == TT_PERMUTE)
                        tupc_ref(pr, t, 1, int) = perm[t];
                }
                tt_reloc_call(fn, dst, src, pr, nb, fl);
                if (!(fl & UPC_OUT_ALLSYNC))
                    upc_barrier();

                /* The checks: thread (me + r) % T's destination, every byte
                 * (for gather, block (me + r) % T of the root's). */
                const int dt = (me + r) % T;
                int b0 = 0, nblk = (fn == TT_GATHER_ALL || fn == TT_EXCHANGE) ? T : 1;
                int owner = dt;
                if (fn == TT_GATHER)
                    b0 = dt, owner = root;
                for (int b = b0; b < b0 + nblk; b++) {
                    switch (fn) {
                    case TT_BROADCAST:
                        gen(want, nb, stream_of(seed, root), 0);
                        break;
                    case TT_SCATTER:
                        gen(want, nb, stream_of(seed, root), (size_t)dt * nb);
                        break;
                    case TT_GATHER:
                    case TT_GATHER_ALL:
                        gen(want, nb, stream_of(seed, b), 0);
                        break;
                    case TT_EXCHANGE:
                        gen(want, nb, stream_of(seed, b), (size_t)dt * nb);
                        break;
                    case TT_PERMUTE: {
                        int from = 0;
                        while (perm[from] != dt)
                            from++;
                        gen(want, nb, stream_of(seed, from), 0);
                        break;
                    }
                    }
                    const unsigned char *got =
                        (const unsigned char *)at(dstr, R, owner, (size_t)b * nb).addr;
                    check_bytes(got, want, nb, fn_name[fn], fl, nb, r, owner, b);
                }
                upc_barrier();
            }
        }
        free(want);
        upc_all_free(pr);
        upc_all_free(dstr);
        upc_all_free(srcr);
    }
    free(perm);
    free(prev);
    return 0;
}

/* ---- Reductions --------------------------------------------------------- */

enum { RED_L, RED_D, PRE_L, PRE_D, ALL_L, ALL_D, EXC_L, EXC_D, NRED };
static const char *const red_name[NRED] = {
    "reduceL",     "reduceD",     "prefix_reduceL",           "prefix_reduceD",
    "reduce_allL", "reduce_allD", "prefix_reduceL exclusive", "prefix_reduceD exclusive"};

/* Element i of a round: any long, or an integer-valued double (sums exact). */
static long lvalue(uint64_t seed, size_t i)
{
    return (long)hash(seed, i);
}

static double dvalue(uint64_t seed, size_t i)
{
    return (double)(long)(hash(seed, i) % 2000001) - 1000000.0;
}

struct shape {
    size_t nelems, blk;
};

/* A one-block src (reduce only), and two many-block arrays. */
static struct shape red_shape(int k, int T)
{
    switch (k) {
    case 0:
        return (struct shape){5, 8};
    case 1:
        return (struct shape){(size_t)T * 40 + 3, 16};
    default:
        return (struct shape){(size_t)T * 250 + 7, 125};
    }
}

static int red_thread(void *arg)
{
    const int kind = *(const int *)arg, T = THREADS, me = MYTHREAD, nr = rounds_for(T);
    const int excl = kind == EXC_L || kind == EXC_D,
              prefix = kind == PRE_L || kind == PRE_D || excl;
    const int to_all = kind == ALL_L || kind == ALL_D;
    const int dbl = kind == RED_D || kind == PRE_D || kind == ALL_D || kind == EXC_D;
    const size_t es = dbl ? sizeof(double) : sizeof(long);
    for (int k = prefix ? 1 : 0; k < 3; k++) {
        const struct shape sh = red_shape(k, T);
        const size_t n = sh.nelems, B = sh.blk;
        /* Room for a start anywhere in the first T blocks. */
        const size_t nblocks = (size_t)T + (n + B - 1) / B + 1;
        tupc_sptr_t S = upc_all_alloc(nblocks, B * es), D = upc_all_alloc(nblocks, B * es);
        tupc_sptr_t Rr = upc_all_alloc((size_t)T, es);
        for (int mi = 0; mi < NMODES; mi++) {
            const upc_flag_t fl = modes[mi];
            for (int r = 0; r < nr; r++) {
                const uint64_t seed = round_seed(16 + kind, k, mi, r);
                const int late = r % T;
                /* src starts on the late thread every other round; a phase
                 * that keeps the one-block src in one block. */
                const int root = r % 2 ? (int)(hash(seed, 1) % (uint64_t)T) : late;
                const size_t phase = k == 0 ? (size_t)r % (B - n + 1) : (size_t)r % B;
                const size_t start = (size_t)root * B + phase;
                tupc_sptr_t src = tupc_ptr_add(S, (ptrdiff_t)start, B, es);
                /* prefix: dst like src; reduce: one element on any thread;
                 * reduce_all: one element on every thread. */
                tupc_sptr_t dst =
                    prefix   ? tupc_ptr_add(D, (ptrdiff_t)start, B, es)
                    : to_all ? Rr
                             : tupc_ptr_add(Rr, (ptrdiff_t)(hash(seed, 2) % (uint64_t)T), 1, es);

                const int all = (fl & UPC_IN_ALLSYNC) != 0;
                if (me == late)
                    delay(seed);
                if (!all || me == late)
                    for (size_t i = 0; i < n; i++) {
                        tupc_sptr_t p = tupc_ptr_add(src, (ptrdiff_t)i, B, es);
                        if (!all && (int)p.thread != me)
                            continue;
                        if (dbl)
                            *(double *)p.addr = dvalue(seed, i);
                        else
                            *(long *)p.addr = lvalue(seed, i);
                    }
                switch (kind) {
                case RED_L:
                    upc_all_reduceL(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case RED_D:
                    upc_all_reduceD(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case PRE_L:
                    upc_all_prefix_reduceL(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case PRE_D:
                    upc_all_prefix_reduceD(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case ALL_L:
                    upc_all_reduce_allL(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case ALL_D:
                    upc_all_reduce_allD(dst, src, UPC_ADD, n, B, NULL, fl);
                    break;
                case EXC_L:
                    upc_all_prefix_reduceL(dst, src, UPC_ADD, n, B, NULL,
                                           fl | UPC_EXCLUSIVE_PREFIX_REDUCE);
                    break;
                case EXC_D:
                    upc_all_prefix_reduceD(dst, src, UPC_ADD, n, B, NULL,
                                           fl | UPC_EXCLUSIVE_PREFIX_REDUCE);
                    break;
                }
                if (!(fl & UPC_OUT_ALLSYNC))
                    upc_barrier();

                /* The serial oracle; for prefix, the elements on thread
                 * (me + r) % T are checked by this thread (exclusive: from
                 * element 1, against the sum before the element). */
                const int dt = (me + r) % T;
                unsigned long lsum = 0;
                double dsum = 0;
                int bad = 0;
                for (size_t i = 0; i < n; i++) {
                    unsigned long lprev = lsum;
                    double dprev = dsum;
                    if (dbl)
                        dsum += dvalue(seed, i);
                    else
                        lsum += (unsigned long)lvalue(seed, i);
                    if (!prefix || (excl && i == 0))
                        continue;
                    tupc_sptr_t p = tupc_ptr_add(dst, (ptrdiff_t)i, B, es);
                    if ((int)p.thread != dt || bad >= 3)
                        continue;
                    if (excl) {
                        if (dbl ? *(double *)p.addr != dprev : *(long *)p.addr != (long)lprev) {
                            bad++;
                            TCHECK(0,
                                   "%s flags 0x%x nelems %zu blk %zu round %d (late %d): "
                                   "dst[%zu] is %g / %ld, expected %g / %ld",
                                   red_name[kind], (unsigned)fl, n, B, r, late, i,
                                   dbl ? *(double *)p.addr : 0.0, dbl ? 0 : *(long *)p.addr, dprev,
                                   (long)lprev);
                        }
                        continue;
                    }
                    if (dbl ? *(double *)p.addr != dsum : *(long *)p.addr != (long)lsum) {
                        bad++;
                        TCHECK(0,
                               "%s flags 0x%x nelems %zu blk %zu round %d (late %d): "
                               "dst[%zu] is %g / %ld, expected %g / %ld",
                               red_name[kind], (unsigned)fl, n, B, r, late, i,
                               dbl ? *(double *)p.addr : 0.0, dbl ? 0 : *(long *)p.addr, dsum,
                               (long)lsum);
                    }
                }
                if (to_all) /* every thread's element: thread dt's here */
                    dst = tupc_ptr_add(dst, dt, 1, es);
                if (!prefix && me == dt) {
                    if (dbl)
                        TCHECK(*(double *)dst.addr == dsum,
                               "%s flags 0x%x nelems %zu blk %zu round %d (late %d): %g, "
                               "expected %g",
                               red_name[kind], (unsigned)fl, n, B, r, late, *(double *)dst.addr,
                               dsum);
                    else
                        TCHECK(*(long *)dst.addr == (long)lsum,
                               "%s flags 0x%x nelems %zu blk %zu round %d (late %d): %ld, "
                               "expected %ld",
                               red_name[kind], (unsigned)fl, n, B, r, late, *(long *)dst.addr,
                               (long)lsum);
                }
                upc_barrier();
            }
        }
        upc_all_free(Rr);
        upc_all_free(D);
        upc_all_free(S);
    }
    return 0;
}

/* ---- Sort --------------------------------------------------------------- */

static int by_value(tupc_sptr_t a, tupc_sptr_t b)
{
    long x = *(const long *)tupc_local(a), y = *(const long *)tupc_local(b);
    return (x > y) - (x < y);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int sort_thread(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD, nr = rounds_for(T);
    const struct shape shapes[] = {{7, 2}, {(size_t)T * 40 + 5, 16}};
    for (int k = 0; k < 2; k++) {
        const size_t n = shapes[k].nelems, B = shapes[k].blk, es = sizeof(long);
        const size_t nblocks = (size_t)T + (n + B - 1) / B + 1;
        tupc_sptr_t S = upc_all_alloc(nblocks, B * es);
        long *want = malloc(n * es);
        for (int mi = 0; mi < NMODES; mi++) {
            const upc_flag_t fl = modes[mi];
            for (int r = 0; r < nr; r++) {
                const uint64_t seed = round_seed(32, k, mi, r);
                const int late = r % T;
                const int root = r % 2 ? (int)(hash(seed, 1) % (uint64_t)T) : late;
                const size_t start = (size_t)root * B + (size_t)r % B;
                tupc_sptr_t A = tupc_ptr_add(S, (ptrdiff_t)start, B, es);
                /* Values with repeats: a multiset, not a set. */
                for (size_t i = 0; i < n; i++)
                    want[i] = (long)(hash(seed, i) % (n / 2 + 1)) - (long)(n / 4);

                const int all = (fl & UPC_IN_ALLSYNC) != 0;
                if (me == late)
                    delay(seed);
                if (!all || me == late)
                    for (size_t i = 0; i < n; i++) {
                        tupc_sptr_t p = tupc_ptr_add(A, (ptrdiff_t)i, B, es);
                        if (all || (int)p.thread == me)
                            *(long *)p.addr = want[i];
                    }
                upc_all_sort(A, es, n, B, by_value, fl);
                if (!(fl & UPC_OUT_ALLSYNC))
                    upc_barrier();

                /* Sorted and a permutation of the input: equal to a sorted
                 * copy, element for element. Each thread checks every T-th. */
                qsort(want, n, es, cmp_long);
                int bad = 0;
                for (size_t i = (size_t)((me + r) % T); i < n && bad < 3; i += (size_t)T) {
                    long got = tupc_ref(A, i, B, long);
                    if (got != want[i]) {
                        bad++;
                        TCHECK(0,
                               "sort flags 0x%x nelems %zu blk %zu round %d (late %d): A[%zu] is "
                               "%ld, expected %ld",
                               (unsigned)fl, n, B, r, late, i, got, want[i]);
                    }
                }
                upc_barrier();
            }
        }
        free(want);
        upc_all_free(S);
    }
    return 0;
}

/* ---- cmocka -------------------------------------------------------------- */

static void run_reloc(int fn)
{
    for (int i = 0; i < NCOUNTS; i++)
        TT_RUN(thread_counts[i], reloc_thread, &fn);
}

static void run_red(int kind)
{
    for (int i = 0; i < NCOUNTS; i++)
        TT_RUN(thread_counts[i], red_thread, &kind);
}

static void test_broadcast(void **state)
{
    (void)state;
    run_reloc(TT_BROADCAST);
}

static void test_scatter(void **state)
{
    (void)state;
    run_reloc(TT_SCATTER);
}

static void test_gather(void **state)
{
    (void)state;
    run_reloc(TT_GATHER);
}

static void test_gather_all(void **state)
{
    (void)state;
    run_reloc(TT_GATHER_ALL);
}

static void test_exchange(void **state)
{
    (void)state;
    run_reloc(TT_EXCHANGE);
}

static void test_permute(void **state)
{
    (void)state;
    run_reloc(TT_PERMUTE);
}

static void test_reduceL(void **state)
{
    (void)state;
    run_red(RED_L);
}

static void test_reduceD(void **state)
{
    (void)state;
    run_red(RED_D);
}

static void test_prefix_reduceL(void **state)
{
    (void)state;
    run_red(PRE_L);
}

static void test_prefix_reduceD(void **state)
{
    (void)state;
    run_red(PRE_D);
}

static void test_reduce_allL(void **state)
{
    (void)state;
    run_red(ALL_L);
}

static void test_reduce_allD(void **state)
{
    (void)state;
    run_red(ALL_D);
}

static void test_prefix_exclusiveL(void **state)
{
    (void)state;
    run_red(EXC_L);
}

static void test_prefix_exclusiveD(void **state)
{
    (void)state;
    run_red(EXC_D);
}

static void test_sort(void **state)
{
    (void)state;
    for (int i = 0; i < NCOUNTS; i++)
        TT_RUN(thread_counts[i], sort_thread, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_scatter),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_gather_all),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_permute),
        cmocka_unit_test(test_reduceL),
        cmocka_unit_test(test_reduceD),
        cmocka_unit_test(test_prefix_reduceL),
        cmocka_unit_test(test_prefix_reduceD),
        cmocka_unit_test(test_reduce_allL),
        cmocka_unit_test(test_reduce_allD),
        cmocka_unit_test(test_prefix_exclusiveL),
        cmocka_unit_test(test_prefix_exclusiveD),
        cmocka_unit_test(test_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
