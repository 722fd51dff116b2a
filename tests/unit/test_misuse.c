/* Programs that break a rule of the specs, as a new user writes them: each
 * must end with one line naming the function, the thread and what was
 * expected, never with a crash or a silent wrong answer. Each runs at
 * THREADS 2, 4 and 32 with return_on_error (tt_expect_error). */
#include "tt.h"

#include <upc_collective.h>

#include <limits.h>
#include <stdlib.h>

static const int counts[] = {2, 4, 32};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* ---- negative and out-of-range flags ----------------------------------- */

static int bad_flags_broadcast(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4);
    upc_all_broadcast(B, A, 4, flags);
    TCHECK(0, "upc_all_broadcast accepted flags 0x%x", (unsigned)flags);
    return 0;
}

static int bad_flags_reduce(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(R, A, UPC_ADD, 1, 1, NULL, flags);
    TCHECK(0, "upc_all_reduceL accepted flags 0x%x", (unsigned)flags);
    return 0;
}

static void test_negative_flags(void **state)
{
    (void)state;
    static const upc_flag_t bad[] = {
        -1, -2, -3, -8, -64, -100, -1000, INT_MIN, (int)0x80000040u, 64, 0x7fffffff};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int c = 0; c < NCOUNTS; c++) {
            upc_flag_t f = bad[i];
            tt_expect_error(counts[c], bad_flags_broadcast, &f, "upc_all_broadcast", "flags",
                            "no sync mode", "Collectives 1.0 section 3", NULL);
            tt_expect_error(counts[c], bad_flags_reduce, &f, "upc_all_reduceL", "flags",
                            "no sync mode", NULL);
        }
}

/* ---- rule breaks under NOSYNC, between barriers -------------------------- */

enum nosync_case { HALF_NBYTES, OTHER_SRC, BCAST_VS_GATHER, SCATTER_VS_BCAST, SKIP_CALL };

static int nosync_program(void *arg)
{
    enum nosync_case k = *(enum nosync_case *)arg;
    const upc_flag_t nn = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8 * THREADS);
    tupc_sptr_t A2 = upc_all_alloc(THREADS, 8 * THREADS);
    tupc_sptr_t B = upc_all_alloc(THREADS, 8 * THREADS);
    upc_barrier();
    switch (k) {
    case HALF_NBYTES:
        upc_all_broadcast(B, A, MYTHREAD == 1 ? 4 : 8, nn);
        break;
    case OTHER_SRC:
        upc_all_broadcast(B, MYTHREAD == 1 ? A2 : A, 8, nn);
        break;
    case BCAST_VS_GATHER:
        if (MYTHREAD == 0)
            upc_all_broadcast(B, A, 8, nn);
        else
            upc_all_gather(B, A, 8, nn);
        break;
    case SCATTER_VS_BCAST:
        if (MYTHREAD == 0)
            upc_all_scatter(B, A, 8, nn);
        else
            upc_all_broadcast(B, A, 8, nn);
        break;
    case SKIP_CALL:
        if (MYTHREAD != 1)
            upc_all_broadcast(B, A, 8, nn);
        break;
    }
    upc_barrier();
    TCHECK(0, "the barrier after mismatched NOSYNC calls returned");
    return 0;
}

static void expect_nosync(enum nosync_case k, const char *a, const char *b, const char *c)
{
    for (int i = 0; i < NCOUNTS; i++)
        tt_expect_error(counts[i], nosync_program, &k, "upc_barrier", a, b, c, NULL);
}

static void test_nosync_rule_breaks(void **state)
{
    (void)state;
    expect_nosync(HALF_NBYTES, "to upc_all_broadcast (collective call 1) where", "nbytes 4",
                  "nbytes 8");
    expect_nosync(OTHER_SRC, "passed src byte ", "to upc_all_broadcast (collective call 1) where",
                  "UPC 1.3 7.4 para 4");
    expect_nosync(BCAST_VS_GATHER, "upc_all_broadcast", "upc_all_gather", "collective call 1");
    expect_nosync(SCATTER_VS_BCAST, "upc_all_broadcast", "upc_all_scatter", "collective call 1");
    expect_nosync(SKIP_CALL, "upc_all_broadcast", "collective call 1", "UPC 1.3 7.4 para 3");
}

/* ---- a user barrier against a collective's synchronization --------------- */

static int barrier_vs_broadcast(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8);
    tupc_sptr_t B = upc_all_alloc(THREADS, 8);
    upc_barrier();
    if (MYTHREAD == 1)
        upc_barrier();
    else
        upc_all_broadcast(B, A, 8, flags);
    upc_barrier();
    TCHECK(0, "a barrier matched to upc_all_broadcast (flags 0x%x) returned", (unsigned)flags);
    return 0;
}

static void test_barrier_vs_collective(void **state)
{
    (void)state;
    static const upc_flag_t flags[] = {0x21, 0x14, 0x0c, 0x22, 0x24, 0x09, 0x12, 0x11, 0x0a, 0x00};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        for (int c = 0; c < NCOUNTS; c++) {
            upc_flag_t f = flags[i];
            tt_expect_error(counts[c], barrier_vs_broadcast, &f, "thread 1",
                            "upc_all_broadcast (collective call 1: nbytes 8, ",
                            "expected every thread", NULL);
        }
}

/* ---- ranges past their allocation ------------------------------------------ */

enum { N = 10 };

enum range_case {
    PREFIX_PAST,
    REDUCE_PAST,
    BCAST_SRC_MID_BLOCK,
    BCAST_DST_LOCAL,
    BCAST_AFTER_FREE,
    SORT_PAST,
    MEMGET_PAST
};

static int lt_int(tupc_sptr_t a, tupc_sptr_t b)
{
    return *(int *)tupc_local(a) < *(int *)tupc_local(b);
}

static int range_program(void *arg)
{
    enum range_case k = *(enum range_case *)arg;
    const upc_flag_t aa = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    /* shared [N] int X[N*THREADS], Z[N*THREADS], W[N*THREADS]: W follows Z
     * in the heap, where an overlong call would write. */
    tupc_sptr_t X = upc_all_alloc(THREADS, N * sizeof(int));
    tupc_sptr_t Z = upc_all_alloc(THREADS, N * sizeof(int));
    tupc_sptr_t W = upc_all_alloc(THREADS, N * sizeof(int));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(int));
    tupc_sptr_t C = upc_all_alloc(THREADS, 8); /* shared [8] char C[8*THREADS] */
    for (int i = 0; i < N; i++)
        tupc_ref(X, MYTHREAD * N + i, N, int) = 1;
    upc_barrier();
    switch (k) {
    case PREFIX_PAST:
        upc_all_prefix_reduceI(Z, X, UPC_ADD, 40 * N * THREADS, N, NULL, aa);
        break;
    case REDUCE_PAST:
        upc_all_reduceI(R, X, UPC_ADD, 2 * N * THREADS, N, NULL, aa);
        break;
    case BCAST_SRC_MID_BLOCK:
        upc_all_broadcast(Z, tupc_index(C, 4, 8, char), 8, aa);
        break;
    case BCAST_DST_LOCAL: {
        /* Thread 0's upc_alloc block, handed to every thread. */
        tupc_sptr_t S = upc_all_alloc(1, sizeof(tupc_sptr_t));
        if (MYTHREAD == 0)
            tupc_ref(S, 0, 0, tupc_sptr_t) = upc_alloc(8 * sizeof(int));
        upc_barrier();
        upc_all_broadcast(tupc_ref(S, 0, 0, tupc_sptr_t), X, 8, aa);
        break;
    }
    case BCAST_AFTER_FREE:
        upc_all_free(W);
        upc_all_broadcast(W, X, 8, aa);
        break;
    case SORT_PAST:
        upc_all_sort(X, sizeof(int), 3 * N * THREADS, N, lt_int, aa);
        break;
    case MEMGET_PAST: {
        int buf[2 * N];
        upc_memget(buf, tupc_index(X, 5, N, int), 2 * N * sizeof(int));
        break;
    }
    }
    TCHECK(0, "a call on a range past its allocation returned");
    (void)W;
    return 0;
}

static void test_ranges_past_allocation(void **state)
{
    (void)state;
    static const struct {
        enum range_case k;
        const char *func, *arg, *what;
    } cases[] = {
        {PREFIX_PAST, "upc_all_prefix_reduceI", "src covers bytes 0 to",
         "past the end of its allocation (bytes 0 to 40"},
        {REDUCE_PAST, "upc_all_reduceI", "src covers bytes 0 to",
         "past the end of its allocation (bytes 0 to 40"},
        {BCAST_SRC_MID_BLOCK, "upc_all_broadcast", "src covers bytes",
         "past the end of its allocation"},
        {BCAST_DST_LOCAL, "upc_all_broadcast", "dst covers bytes", "from upc_alloc"},
        {BCAST_AFTER_FREE, "upc_all_broadcast", "dst starts at byte", "in no live allocation"},
        {SORT_PAST, "upc_all_sort", "A covers bytes 0 to", "past the end of its allocation"},
        {MEMGET_PAST, "upc_memget", "src covers bytes 20 to 100", "past the end of its allocation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int c = 0; c < NCOUNTS; c++) {
            enum range_case k = cases[i].k;
            tt_expect_error(counts[c], range_program, &k, cases[i].func, cases[i].arg,
                            cases[i].what, "UPC 1.3 7.2.2", NULL);
        }
}

/* ---- a thread that returns while others wait for it ------------------------ */

static int return_holding_lock(void *arg)
{
    (void)arg;
    upc_lock_t *L = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        upc_lock(L);
    upc_barrier();
    if (MYTHREAD == 0)
        return 0; /* still holding L */
    upc_lock(L);
    TCHECK(0, "upc_lock took a lock that its returned holder never released");
    upc_unlock(L);
    return 0;
}

/* Thread 1 returns without calling upc_all_permute; under OUT_MYSYNC the
 * thread whose block it should write waits for it. */
static int permute_writer_returns(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t src = upc_all_alloc(THREADS, 16);
    tupc_sptr_t dst = upc_all_alloc(THREADS, 16);
    tupc_sptr_t perm = upc_all_alloc(THREADS, sizeof(int));
    tupc_ref(perm, MYTHREAD, 1, int) = (MYTHREAD + 1) % THREADS;
    upc_barrier();
    if (MYTHREAD == 1)
        return 0;
    upc_all_permute(dst, src, perm, 16, flags); /* then return: only permute waits */
    return 0;
}

static void test_returned_threads(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], return_holding_lock, NULL, "upc_lock", "thread 0 returned",
                        "holding the lock", "UPC 1.3 7.2.4.3", NULL);
        static const upc_flag_t flags[] = {UPC_IN_NOSYNC | UPC_OUT_MYSYNC,
                                           UPC_IN_MYSYNC | UPC_OUT_MYSYNC};
        for (int f = 0; f < 2; f++)
            tt_expect_error(counts[c], permute_writer_returns, (void *)&flags[f], "upc_all_permute",
                            "thread 1 returned from its entry function", NULL);
    }
}

/* ---- two collectives that wait for each other, and NOSYNC calls at the end --- */

/* Thread 0's gather waits for every thread to finish; the others'
 * broadcast waits for thread 0's post (the eager path of small payloads). */
static int gather_vs_broadcast(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t src = upc_all_alloc(THREADS, 8), dst = upc_all_alloc(THREADS, 8 * THREADS);
    upc_barrier();
    if (MYTHREAD == 0)
        upc_all_gather(dst, src, 8, flags);
    else
        upc_all_broadcast(dst, src, 8, flags);
    upc_barrier();
    TCHECK(0, "gather against broadcast returned");
    return 0;
}

/* Thread 1 is in a barrier while the others permute; its block's writer
 * waits for a claim that never comes. */
static int permute_vs_barrier(void *arg)
{
    upc_flag_t flags = *(upc_flag_t *)arg;
    tupc_sptr_t src = upc_all_alloc(THREADS, 16), dst = upc_all_alloc(THREADS, 16);
    tupc_sptr_t perm = upc_all_alloc(THREADS, sizeof(int));
    tupc_ref(perm, MYTHREAD, 1, int) = (MYTHREAD + THREADS - 1) % THREADS;
    upc_barrier();
    if (MYTHREAD != 1)
        upc_all_permute(dst, src, perm, 16, flags);
    upc_barrier();
    TCHECK(0, "permute against a barrier returned");
    return 0;
}

/* The last calls of the run break the rules under NOSYNC|NOSYNC, and every
 * thread returns: the end of the threads is a barrier (UPC 1.3 3). */
static int nosync_at_the_end(void *arg)
{
    enum nosync_case k = *(enum nosync_case *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8 * THREADS);
    tupc_sptr_t B = upc_all_alloc(THREADS, 8 * THREADS);
    upc_barrier();
    if (k == HALF_NBYTES)
        upc_all_broadcast(B, A, MYTHREAD == 1 ? 4 : 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    else if (MYTHREAD != 1)
        upc_all_broadcast(B, A, 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    return 0;
}

/* Valid: with one thread, a upc_alloc block is a whole one-block array. */
static int one_thread_local_dst(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(1, 8);
    tupc_sptr_t D = upc_alloc(8);
    for (int i = 0; i < 8; i++)
        tupc_ref(A, i, 8, char) = (char)(i + 1);
    upc_all_broadcast(D, A, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < 8; i++)
        TCHECK(tupc_ref(D, i, 8, char) == i + 1, "byte %d is %d", i, tupc_ref(D, i, 8, char));
    upc_free(D);
    return 0;
}

static void test_waits_on_each_other(void **state)
{
    (void)state;
    static const upc_flag_t flags[] = {UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
                                       UPC_IN_NOSYNC | UPC_OUT_MYSYNC};
    for (int f = 0; f < 2; f++)
        for (int c = 0; c < NCOUNTS; c++) {
            tt_expect_error(counts[c], gather_vs_broadcast, (void *)&flags[f], "upc_all_gather",
                            "upc_all_broadcast", "collective call 1", NULL);
            tt_expect_error(counts[c], permute_vs_barrier, (void *)&flags[f], "thread 1",
                            "upc_barrier", "upc_all_permute", NULL);
        }
    for (int c = 0; c < NCOUNTS; c++) {
        enum nosync_case k = HALF_NBYTES;
        tt_expect_error(counts[c], nosync_at_the_end, &k, "tupc_run", "when the threads ended",
                        "to upc_all_broadcast (collective call 1) where", "nbytes 4", "nbytes 8",
                        NULL);
        k = SKIP_CALL;
        tt_expect_error(counts[c], nosync_at_the_end, &k, "when the threads ended",
                        "upc_all_broadcast", "collective call 1", NULL);
    }
    TT_RUN(1, one_thread_local_dst, NULL);
}

/* ---- TUPC_SPIN and TUPC_YIELD ------------------------------------------- */

static int trivial(void *arg)
{
    (void)arg;
    upc_barrier();
    return 0;
}

static void test_spin_yield_values(void **state)
{
    (void)state;
    static const char *const names[] = {"TUPC_SPIN", "TUPC_YIELD", "TUPC_NAP"};
    static const char *const bad[] = {"abc", "-1", "4294967295", "1e3", "12x", "99999999999"};
    for (int n = 0; n < 3; n++) {
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            setenv(names[n], bad[i], 1);
            tt_expect_error(2, trivial, NULL, names[n], bad[i], "expected a count from 0 to", NULL);
        }
        setenv(names[n], "0", 1);
        TT_RUN(4, trivial, NULL);
        setenv(names[n], "1000", 1);
        TT_RUN(4, trivial, NULL);
        unsetenv(names[n]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_flags),        cmocka_unit_test(test_nosync_rule_breaks),
        cmocka_unit_test(test_barrier_vs_collective), cmocka_unit_test(test_ranges_past_allocation),
        cmocka_unit_test(test_returned_threads),      cmocka_unit_test(test_waits_on_each_other),
        cmocka_unit_test(test_spin_yield_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
