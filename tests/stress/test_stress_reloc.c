/* Long runs of back-to-back relocalization collectives with no barrier
 * between them; every byte of every destination checked.
 *
 * chain: IN_MYSYNC | OUT_MYSYNC, the six functions in turn, the root
 *   moving every call. Each thread rewrites its own source right before
 *   each call and reads its own destination right after return, on the same
 *   buffers every call: only the library's waits keep this right.
 * storm: IN_NOSYNC | OUT_NOSYNC, each call on its own buffers (what NOSYNC
 *   asks of a program): sources filled, one barrier, then all the calls
 *   with nothing between them, one barrier, then every destination checked.
 *   Threads drift apart by many calls; nothing of one call may disturb
 *   another (the permute claim table in particular).
 * mixed: as storm, but each call's flags drawn at random from all 16
 *   values, so MYSYNC and ALLSYNC waits meet drifted NOSYNC calls.
 *
 * 10,000 calls each (1,000 under TUPC_TEST_QUICK). */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

static int ncalls(void)
{
    return getenv("TUPC_TEST_QUICK") ? 1000 : 10000;
}

/* The byte at `pos` of thread t's source in call k. */
static unsigned char val(uint32_t k, int t, size_t pos)
{
    uint32_t x = k * 2654435761u ^ (uint32_t)t * 40503u ^ (uint32_t)pos * 97u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    return (unsigned char)(x >> 13);
}

/* perm of call k: a rotation by a k-dependent amount, reversed on odd k. */
static int perm_of(uint32_t k, int i, int T)
{
    int r = (int)((k * 7u + 3u) % (uint32_t)T);
    int p = (i + r) % T;
    return (k & 1) ? T - 1 - p : p;
}

static int inv_perm(uint32_t k, int t, int T)
{
    for (int i = 0; i < T; i++)
        if (perm_of(k, i, T) == t)
            return i;
    return -1;
}

/* Areas of one call: offsets into three regions where each thread owns
 * `stride` bytes per call at the same offset. */
struct areas {
    tupc_sptr_t src, dst, perm; /* regions: shared [R] char[R * THREADS] */
    size_t R, stride;
};

static tupc_sptr_t on(const struct areas *a, tupc_sptr_t region, int t, size_t off)
{
    return tupc_ptr_add(region, (ptrdiff_t)((size_t)t * a->R + off), a->R, 1);
}

static int root_of(uint32_t k, int T)
{
    return (int)((k * 5u + 1u) % (uint32_t)T);
}

/* Fills this thread's part of call k's source (and perm entry). */
static void fill(const struct areas *a, int fn, uint32_t k, size_t off, size_t nb)
{
    int me = MYTHREAD, T = THREADS;
    int root = root_of(k, T);
    size_t len = fn == TT_SCATTER || fn == TT_EXCHANGE ? nb * (size_t)T : nb;
    if ((fn == TT_BROADCAST || fn == TT_SCATTER) && me != root)
        return;
    unsigned char *s = (unsigned char *)on(a, a->src, me, off).addr;
    for (size_t i = 0; i < len; i++)
        s[i] = val(k, me, i);
    if (fn == TT_PERMUTE)
        *(int *)on(a, a->perm, me, off).addr = perm_of(k, me, T);
}

static void call(const struct areas *a, int fn, uint32_t k, size_t off, size_t nb, upc_flag_t fl)
{
    int T = THREADS, root = root_of(k, T);
    tupc_sptr_t s0 = on(a, a->src, 0, off), d0 = on(a, a->dst, 0, off);
    switch (fn) {
    case TT_BROADCAST:
        upc_all_broadcast(d0, on(a, a->src, root, off), nb, fl);
        break;
    case TT_SCATTER:
        upc_all_scatter(d0, on(a, a->src, root, off), nb, fl);
        break;
    case TT_GATHER:
        upc_all_gather(on(a, a->dst, root, off), s0, nb, fl);
        break;
    case TT_GATHER_ALL:
        upc_all_gather_all(d0, s0, nb, fl);
        break;
    case TT_EXCHANGE:
        upc_all_exchange(d0, s0, nb, fl);
        break;
    case TT_PERMUTE: {
        /* perm: shared int[THREADS] at this offset, entry i on thread i. */
        tupc_sptr_t p = on(a, a->perm, 0, off);
        upc_all_permute(d0, s0, p, nb, fl);
        break;
    }
    }
}

/* Checks this thread's part of call k's destination; returns mismatches. */
static int check(const struct areas *a, int fn, uint32_t k, size_t off, size_t nb)
{
    int me = MYTHREAD, T = THREADS, root = root_of(k, T);
    const unsigned char *d = (const unsigned char *)on(a, a->dst, me, off).addr;
    int bad = 0;
    for (int b = 0; b < (fn == TT_BROADCAST || fn == TT_SCATTER || fn == TT_PERMUTE ? 1 : T); b++) {
        int from;
        size_t pos;
        switch (fn) {
        case TT_BROADCAST:
            from = root, pos = 0;
            break;
        case TT_SCATTER:
            from = root, pos = (size_t)me * nb;
            break;
        case TT_GATHER:
            if (me != root)
                return 0;
            from = b, pos = 0;
            break;
        case TT_GATHER_ALL:
            from = b, pos = 0;
            break;
        case TT_EXCHANGE:
            from = b, pos = (size_t)me * nb;
            break;
        default:
            from = inv_perm(k, me, T), pos = 0;
            break;
        }
        for (size_t i = 0; i < nb; i++)
            if (d[(size_t)b * nb + i] != val(k, from, pos + i)) {
                if (bad++ == 0)
                    TCHECK(0, "call %u (fn %d): dst block %d byte %zu is 0x%02x, expected 0x%02x",
                           k, fn, b, i, d[(size_t)b * nb + i], val(k, from, pos + i));
                break;
            }
    }
    return bad;
}

static int setup(struct areas *a, size_t nb, int calls_with_own_areas)
{
    int T = THREADS;
    a->stride = (nb * (size_t)T + 63) / 64 * 64;
    a->R = a->stride * (size_t)(calls_with_own_areas ? calls_with_own_areas : 1);
    a->src = upc_all_alloc((size_t)T, a->R);
    a->dst = upc_all_alloc((size_t)T, a->R);
    a->perm = upc_all_alloc((size_t)T, a->R);
    TCHECK(!tupc_isnull(a->src) && !tupc_isnull(a->dst) && !tupc_isnull(a->perm),
           "allocation failed: %s", tupc_alloc_error());
    return !tupc_isnull(a->src) && !tupc_isnull(a->dst) && !tupc_isnull(a->perm);
}

static int chain(void *arg)
{
    size_t nb = *(size_t *)arg;
    struct areas a;
    if (!setup(&a, nb, 0))
        return 1;
    int n = ncalls(), bad = 0;
    /* No early exit on a failure: every thread must make every call. */
    for (uint32_t k = 1; k <= (uint32_t)n; k++) {
        int fn = (int)(k % TT_NFN);
        fill(&a, fn, k, 0, nb);
        call(&a, fn, k, 0, nb, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        bad += check(&a, fn, k, 0, nb);
    }
    upc_barrier();
    return bad != 0;
}

struct storm_arg {
    size_t nb;
    int mixed;
};

static int storm(void *arg)
{
    const struct storm_arg *sa = arg;
    size_t nb = sa->nb;
    int n = ncalls();
    struct areas a;
    if (!setup(&a, nb, n))
        return 1;
    for (uint32_t k = 0; k < (uint32_t)n; k++) {
        int fn = (int)(k % TT_NFN);
        fill(&a, fn, k, k * a.stride, nb);
        /* Mark the destination so that a call that never wrote shows. */
        memset(on(&a, a.dst, MYTHREAD, k * a.stride).addr, 0xEE, nb * (size_t)THREADS);
    }
    upc_barrier();
    uint64_t st = 42;
    for (uint32_t k = 0; k < (uint32_t)n; k++) {
        upc_flag_t fl = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;
        if (sa->mixed)
            fl = tt_sync_flags[tt_rand(&st) % TT_NSYNC];
        call(&a, (int)(k % TT_NFN), k, k * a.stride, nb, fl);
    }
    upc_barrier();
    int bad = 0;
    for (uint32_t k = 0; k < (uint32_t)n && bad < 5; k++)
        bad += check(&a, (int)(k % TT_NFN), k, k * a.stride, nb);
    upc_barrier();
    return 0;
}

static const int counts[] = {2, 3, 5, 8, 16};

static void test_mysync_chain(void **s)
{
    (void)s;
    const size_t sizes[] = {1, 24, 1000};
    for (int c = 0; c < 5; c++)
        for (int z = 0; z < 3; z++) {
            size_t nb = sizes[(c + z) % 3];
            if (z > 0 && getenv("TUPC_TEST_QUICK"))
                break;
            TT_RUN(counts[c], chain, &nb);
        }
}

static void test_nosync_storm(void **s)
{
    (void)s;
    for (int c = 0; c < 5; c++) {
        struct storm_arg sa = {(size_t)(c % 2 ? 3 : 16), 0};
        TT_RUN(counts[c], storm, &sa);
    }
}

static void test_mixed_storm(void **s)
{
    (void)s;
    for (int c = 0; c < 5; c++) {
        struct storm_arg sa = {(size_t)(c % 2 ? 16 : 5), 1};
        TT_RUN(counts[c], storm, &sa);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mysync_chain),
        cmocka_unit_test(test_nosync_storm),
        cmocka_unit_test(test_mixed_storm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
