/* Reductions without barriers between them.
 *
 * - NOSYNC storm: 40 back-to-back upc_all_reduceL (UPC_IN_NOSYNC |
 *   UPC_OUT_NOSYNC, more calls than scratch slots) into 40 distinct dst
 *   cells on cycling threads, then one barrier and every result checked,
 *   over 1003 elements and over 2 * THREADS - 1 (the small-call path);
 *   the same with UPC_NONCOMM_FUNC over many blocks (index ranges).
 * - the same for upc_all_prefix_reduceL over 2 * THREADS - 1 elements.
 * - over 2 * THREADS - 1 elements, also a rewrite of src right before an
 *   IN_MYSYNC | OUT_ALLSYNC prefix reduction.
 * - MYSYNC chain: each thread rewrites its own src elements before each
 *   call (IN_MYSYNC keeps others from reading them earlier) and checks the
 *   results with affinity to it right after return (OUT_MYSYNC), for reduce
 *   and prefix_reduce, with no barrier at all; over 2 * THREADS - 1
 *   elements also ALLSYNC|ALLSYNC reduces, whose result every thread reads.
 * THREADS {2, 3, 5, 8, 16}, rounds reduced under TUPC_TEST_QUICK. */
#include "tt.h"

#include <upc_collective.h>

#include <sched.h>
#include <stdlib.h>

#define STORM 40

static int rounds(void)
{
    return getenv("TUPC_TEST_QUICK") ? 20 : 200;
}

static long val(size_t i, int round)
{
    return (long)(i * 3 + (size_t)round * 7) % 1000 - 500;
}

static long last(long a, long b)
{
    (void)a;
    return b;
}

/* arg: 0 for 1003 elements in blocks of 4, 1 for 2 * THREADS - 1 elements
 * in blocks of 1 (at most 1024 bytes: the path where one thread reads every
 * element itself). */
static int storm(void *arg)
{
    const int T = THREADS, me = MYTHREAD;
    const int small = *(const int *)arg;
    const size_t n = small ? 2 * (size_t)T - 1 : 1003, B = small ? 1 : 4;
    tupc_sptr_t a = upc_all_alloc(n / B + 2, B * sizeof(long));
    tupc_sptr_t r = upc_all_alloc(STORM, sizeof(long)); /* cell k on thread k % T */
    long want = 0;
    for (size_t i = 0; i < n; i++)
        want += val(i, 0);
    for (int rep = 0; rep < rounds() / 10; rep++) {
        for (size_t i = (size_t)me; i < n; i += (size_t)T)
            tupc_ref(a, i, B, long) = val(i, 0);
        upc_barrier();
        for (int k = 0; k < STORM; k++)
            upc_all_reduceL(tupc_index(r, k, 1, long), a, k % 2 ? UPC_NONCOMM_FUNC : UPC_ADD, n, B,
                            k % 2 ? last : NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        upc_barrier();
        for (int k = me; k < STORM; k += T) {
            long got = tupc_ref(r, k, 1, long), exp = k % 2 ? val(n - 1, 0) : want;
            TCHECK(got == exp, "rep %d call %d: %ld, expected %ld", rep, k, got, exp);
            tupc_ref(r, k, 1, long) = -1;
        }
        upc_barrier();
    }
    upc_all_free(r);
    upc_all_free(a);
    return 0;
}

/* 40 back-to-back NOSYNC prefix reductions of 2 * THREADS - 1 elements (the
 * path where each thread reads the elements before its own directly) into 40
 * dst arrays, each call over other values (src is rewritten between rounds
 * only, behind barriers); then every element checked. */
static int prefix_storm(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD;
    const size_t n = 2 * (size_t)T - 1, stride = 2 * (size_t)T; /* dst k starts on thread 0 */
    tupc_sptr_t a = upc_all_alloc(n, sizeof(long));
    tupc_sptr_t p = upc_all_alloc(STORM * stride, sizeof(long)); /* dst k: k * stride.. */
    for (int rep = 0; rep < rounds() / 10; rep++) {
        for (size_t i = (size_t)me; i < n; i += (size_t)T)
            tupc_ref(a, i, 1, long) = val(i, rep);
        upc_barrier();
        for (int k = 0; k < STORM; k++)
            upc_all_prefix_reduceL(tupc_index(p, (size_t)k * stride, 1, long), a,
                                   k % 2 ? UPC_NONCOMM_FUNC : UPC_ADD, n, 1, k % 2 ? last : NULL,
                                   UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        upc_barrier();
        for (int k = 0; k < STORM; k++) {
            long acc = 0;
            for (size_t i = 0; i < n; i++) {
                acc = k % 2 ? val(i, rep) : acc + val(i, rep);
                tupc_sptr_t e = tupc_index(p, (size_t)k * stride + i, 1, long);
                if ((int)e.thread == me)
                    TCHECK(*(long *)e.addr == acc, "rep %d call %d: prefix[%zu] %ld, expected %ld",
                           rep, k, i, *(long *)e.addr, acc);
            }
        }
        upc_barrier();
    }
    upc_all_free(p);
    upc_all_free(a);
    return 0;
}

static int chain(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD;
    /* The third case fits 1024 bytes: one thread reads every element itself. */
    const size_t Bs[] = {64, 1, 1};
    for (int ib = 0; ib < 3; ib++) {
        size_t B = Bs[ib], n = ib == 0 ? 64 * (size_t)T - 5 : ib == 1 ? 997 : 2 * (size_t)T - 1;
        tupc_sptr_t a = upc_all_alloc(n / B + 2, B * sizeof(long));
        tupc_sptr_t p = upc_all_alloc(n / B + 2, B * sizeof(long));
        tupc_sptr_t r = upc_all_alloc((size_t)T, sizeof(long));
        upc_barrier();
        for (int round = 1; round <= rounds(); round++) {
            for (size_t i = 0; i < n; i++)
                if ((int)tupc_index(a, i, B, long).thread == me)
                    tupc_ref(a, i, B, long) = val(i, round);
            int root = round % T;
            upc_all_reduceL(tupc_index(r, root, 1, long), a, UPC_ADD, n, B, NULL,
                            UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
            if (me == root) {
                long want = 0;
                for (size_t i = 0; i < n; i++)
                    want += val(i, round);
                TCHECK(tupc_ref(r, root, 1, long) == want, "B %zu round %d: reduce %ld, want %ld",
                       B, round, tupc_ref(r, root, 1, long), want);
            }
            upc_all_prefix_reduceL(p, a, UPC_ADD, n, B, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
            long acc = 0;
            for (size_t i = 0; i < n; i++) {
                acc += val(i, round);
                tupc_sptr_t e = tupc_index(p, i, B, long);
                if ((int)e.thread == me && *(long *)e.addr != acc) {
                    TCHECK(0, "B %zu round %d: prefix[%zu] %ld, want %ld", B, round, i,
                           *(long *)e.addr, acc);
                    break;
                }
            }
            if (ib != 2)
                continue;
            /* Small: IN_MYSYNC with OUT_ALLSYNC takes the path where each
             * thread reads the elements before its own itself; it must wait
             * for their owners' rewrite (nobody read src in the MY|MY prefix
             * above, so rewriting now is safe). Thread 0, whose elements
             * every other thread reads, comes late. */
            if (me == 0)
                for (int y = 0; y < 2000; y++)
                    sched_yield();
            for (size_t i = 0; i < n; i++)
                if ((int)tupc_index(a, i, B, long).thread == me)
                    tupc_ref(a, i, B, long) = val(i, round + 5001);
            upc_all_prefix_reduceL(p, a, UPC_ADD, n, B, NULL, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC);
            acc = 0;
            for (size_t i = 0; i < n; i++) {
                acc += val(i, round + 5001);
                tupc_sptr_t e = tupc_index(p, i, B, long);
                if ((int)e.thread == me && *(long *)e.addr != acc) {
                    TCHECK(0, "round %d: IN_MYSYNC prefix[%zu] %ld, want %ld", round, i,
                           *(long *)e.addr, acc);
                    break;
                }
            }
            /* Small, ALLSYNC|ALLSYNC: the thread that reads src and writes
             * dst takes turns and is mostly not the root; every thread
             * rewrites its src right before and reads dst right after. One
             * thread comes late, thread 0 or the last by turns: as the
             * worker, the others must wait for its write of dst; otherwise
             * the worker must wait for its rewrite of src. */
            if (me == (round % 2 ? T - 1 : 0))
                for (int y = 0; y < 2000; y++)
                    sched_yield();
            for (size_t i = 0; i < n; i++)
                if ((int)tupc_index(a, i, B, long).thread == me)
                    tupc_ref(a, i, B, long) = val(i, round + 9003);
            upc_all_reduceL(tupc_index(r, root, 1, long), a, UPC_ADD, n, B, NULL,
                            UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
            long want = 0;
            for (size_t i = 0; i < n; i++)
                want += val(i, round + 9003);
            TCHECK(tupc_ref(r, root, 1, long) == want, "round %d: ALL|ALL reduce %ld, want %ld",
                   round, tupc_ref(r, root, 1, long), want);
        }
        upc_barrier();
        upc_all_free(r);
        upc_all_free(p);
        upc_all_free(a);
    }
    return 0;
}

static void test_storm(void **state)
{
    (void)state;
    const int threads[] = {2, 3, 5, 8, 16};
    for (int small = 0; small < 2; small++)
        for (int i = 0; i < 5; i++)
            TT_RUN(threads[i], storm, &small);
}

static void test_prefix_storm(void **state)
{
    (void)state;
    const int threads[] = {2, 3, 5, 8, 16};
    for (int i = 0; i < 5; i++)
        TT_RUN(threads[i], prefix_storm, NULL);
}

static void test_chain(void **state)
{
    (void)state;
    const int threads[] = {2, 3, 5, 8, 16};
    for (int i = 0; i < 5; i++)
        TT_RUN(threads[i], chain, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storm),
        cmocka_unit_test(test_prefix_storm),
        cmocka_unit_test(test_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
