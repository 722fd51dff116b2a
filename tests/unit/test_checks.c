/* The check levels (TUPC_CHECKS, tupc_options.checks): off lets through
 * what default refuses, full finds what default cannot see (NOSYNC calls
 * compared when they are made, overlapping src and dst), and both are
 * chosen by the option over the environment. */
#include "tt.h"

#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <stdlib.h>
#include <string.h>

static int run_at(int checks, int threads, int (*fn)(void *), void *arg)
{
    tupc_options o = {.threads = threads, .return_on_error = 1, .quiet = 1, .checks = checks};
    return tupc_run_opts(&o, fn, arg);
}

/* ---- NOSYNC calls: compared at the next meeting point, or at once -------- */

static int nosync_half_nbytes(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8);
    tupc_sptr_t B = upc_all_alloc(THREADS, 8);
    upc_barrier();
    upc_all_broadcast(B, A, MYTHREAD == 1 ? 4 : 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    return 0;
}

static void test_nosync_compared_at_the_call(void **state)
{
    (void)state;
    for (int n = 2; n <= 8; n *= 2) {
        /* Default: found by the barrier after it. */
        tt_expect_error_at(TUPC_CHECKS_DEFAULT, n, nosync_half_nbytes, NULL, "tupc: upc_barrier (",
                           "nbytes 4", "nbytes 8", NULL);
        /* Full: by the broadcast itself, in whichever thread entered last. */
        tt_expect_error_at(TUPC_CHECKS_FULL, n, nosync_half_nbytes, NULL,
                           "tupc: upc_all_broadcast (", "nbytes 4", "nbytes 8", NULL);
        /* Off: not compared; the run ends normally. */
        assert_int_equal(run_at(TUPC_CHECKS_OFF, n, nosync_half_nbytes, NULL), 0);
    }
}

/* ---- overlapping src and dst, undefined by the spec ---------------------- */

enum overlap_case {
    BCAST_SELF,
    EXCHANGE_SELF,
    PERMUTE_PERM,
    REDUCE_IN_SRC,
    PREFIX_SHIFTED,
    NCASES
};

static int overlapping(void *arg)
{
    enum overlap_case k = *(enum overlap_case *)arg;
    const size_t n = 4 * (size_t)THREADS;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * n * sizeof(long));
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(int));
    tupc_ref(P, MYTHREAD, 1, int) = (MYTHREAD + 1) % THREADS;
    upc_barrier();
    const upc_flag_t all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    switch (k) {
    case BCAST_SELF: /* dst's block on thread 0 is src */
        upc_all_broadcast(A, A, 8, all);
        break;
    case EXCHANGE_SELF: /* the same array, without UPC_IN_PLACE */
        upc_all_exchange(A, A, 8, all);
        break;
    case PERMUTE_PERM: /* dst's blocks hold perm */
        upc_all_permute(P, A, P, sizeof(int), all);
        break;
    case REDUCE_IN_SRC: /* dst is an element of src (shared [4] long[n]) */
        upc_all_reduceL(tupc_index(A, 2, 4, long), A, UPC_ADD, n, 4, NULL, all);
        break;
    case PREFIX_SHIFTED: /* dst is src one course on (same thread and phase) */
        upc_all_prefix_reduceL(tupc_index(A, n, 4, long), A, UPC_ADD, 2 * n, 4, NULL, all);
        break;
    case NCASES:
        break;
    }
    upc_barrier();
    return 0;
}

/* Arrays of one allocation that do not overlap, though their extents on
 * a thread interleave with the other's: no false alarm at full. */
static int disjoint_in_one_allocation(void *arg)
{
    (void)arg;
    const size_t n = 4 * (size_t)THREADS;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * n * sizeof(long));
    for (size_t i = 0; i < 2 * n; i++)
        if (i % THREADS == (size_t)MYTHREAD)
            tupc_ref(A, i, 4, long) = (long)i;
    const upc_flag_t all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    /* src the first n elements, dst the next n: on each thread dst's run
     * starts where src's ends. */
    upc_all_prefix_reduceL(tupc_index(A, n, 4, long), A, UPC_ADD, n, 4, NULL, all);
    long sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += (long)i;
        if ((n + i) / 4 % THREADS == (size_t)MYTHREAD)
            TCHECK(tupc_ref(A, n + i, 4, long) == sum, "dst[%zu] is %ld, expected %ld", i,
                   tupc_ref(A, n + i, 4, long), sum);
    }
    /* The reduce's dst right after src's last element. */
    upc_all_reduceL(tupc_index(A, n, 4, long), A, UPC_ADD, n, 4, NULL, all);
    if (n / 4 % THREADS == (size_t)MYTHREAD)
        TCHECK(tupc_ref(A, n, 4, long) == sum, "reduce gave %ld, expected %ld",
               tupc_ref(A, n, 4, long), sum);
    /* Broadcast from the last block into an array after it. */
    tupc_sptr_t B = upc_all_alloc(THREADS, 8);
    upc_all_broadcast(B, tupc_index(A, n - 1, 4, long), sizeof(long), all);
    upc_barrier();
    return 0;
}

static void test_overlap(void **state)
{
    (void)state;
    static const char *const who[NCASES] = {"upc_all_broadcast", "upc_all_exchange",
                                            "upc_all_permute", "upc_all_reduceL",
                                            "upc_all_prefix_reduceL"};
    for (int n = 1; n <= 5; n += 2)
        for (int k = 0; k < NCASES; k++) {
            if (n == 1 && k == PERMUTE_PERM)
                continue; /* with one thread perm and dst are still one int */
            tt_expect_error_at(TUPC_CHECKS_FULL, n, overlapping, &k, who[k], "overlaps",
                               "TUPC_CHECKS=full", NULL);
        }
    for (int n = 1; n <= 5; n += 2)
        assert_int_equal(run_at(TUPC_CHECKS_FULL, n, disjoint_in_one_allocation, NULL), 0);
}

/* ---- off: no allocation checks ------------------------------------------- */

static int past_allocation(void *arg)
{
    (void)arg;
    /* 8 longs per thread asked for; the reduce reads 16 per thread. Off
     * reads what follows in the partition (the next allocation's bytes). */
    tupc_sptr_t A = upc_all_alloc(THREADS, 8 * sizeof(long));
    tupc_sptr_t pad = upc_all_alloc(THREADS, 8 * sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    (void)pad;
    upc_all_reduceL(R, A, UPC_ADD, 16 * (size_t)THREADS, 16, NULL,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    return 0;
}

static void test_off(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n *= 2) {
        tt_expect_error_at(TUPC_CHECKS_DEFAULT, n, past_allocation, NULL, "upc_all_reduceL",
                           "past the end of its allocation", NULL);
        assert_int_equal(run_at(TUPC_CHECKS_OFF, n, past_allocation, NULL), 0);
    }
}

/* ---- the option over the environment, and bad values --------------------- */

static int nothing(void *arg)
{
    (void)arg;
    return 0;
}

static void test_choice(void **state)
{
    (void)state;
    const char *old = getenv("TUPC_CHECKS");
    char *saved = old ? strdup(old) : NULL;
    setenv("TUPC_CHECKS", "full", 1);
    int k = BCAST_SELF;
    tt_expect_error_at(0, 2, overlapping, &k, "overlaps", NULL); /* from the environment */
    /* The option wins: a program wrong only for the checks (the
     * overlapping broadcast would race if it ran). */
    assert_int_equal(run_at(TUPC_CHECKS_OFF, 2, nosync_half_nbytes, NULL), 0);
    setenv("TUPC_CHECKS", "paranoid", 1);
    tt_expect_error_at(0, 2, nothing, NULL, "TUPC_CHECKS is \"paranoid\"",
                       "expected off, default or full", NULL);
    unsetenv("TUPC_CHECKS");
    tt_expect_error_at(7, 2, nothing, NULL, "tupc_run_opts", "checks is 7",
                       "TUPC_CHECKS_OFF, TUPC_CHECKS_DEFAULT or TUPC_CHECKS_FULL", NULL);
    tt_expect_error_at(-1, 2, nothing, NULL, "checks is -1", NULL);
    if (saved) {
        setenv("TUPC_CHECKS", saved, 1);
        free(saved);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nosync_compared_at_the_call),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
