/* Threads that break the collective rules are stopped with a message: a
 * different collective in the same position of the sequence, or arguments
 * that are not single-valued (Collectives 1.0 section 2, UPC 1.3 7.4 para 4). */
#include "tt.h"

#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <stdlib.h>

enum { NB = 100 }; /* above the inline size, so broadcast copies from src */

static int different_functions(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB * THREADS);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB * THREADS);
    if (MYTHREAD == 1)
        upc_all_scatter(B, A, NB, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    else
        upc_all_broadcast(B, A, NB, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    TCHECK(0, "the mismatched calls returned");
    return 0;
}

static int different_nbytes(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB);
    /* The root (thread 0) is waited for by every other thread under
     * IN_MYSYNC; thread 2 passes another size. */
    upc_all_broadcast(B, A, MYTHREAD == 2 ? 2 * NB : NB, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    upc_barrier();
    return 0;
}

static int different_flags(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB);
    upc_all_gather_all(B, A, NB / THREADS,
                       MYTHREAD == 0 ? UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC
                                     : UPC_IN_ALLSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    return 0;
}

static int different_reduce_length(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 64 * sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(R, A, UPC_ADD, MYTHREAD == THREADS - 1 ? 40 : 50, 64, NULL,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_barrier();
    return 0;
}

static int different_op(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 64 * sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(R, A, MYTHREAD == 1 ? UPC_MAX : UPC_ADD, 50, 64, NULL,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_barrier();
    return 0;
}

static int different_src(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB * THREADS);
    tupc_sptr_t A2 = upc_all_alloc(THREADS, 4 * NB * THREADS);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB);
    upc_all_scatter(B, MYTHREAD == THREADS - 1 ? A2 : A, NB, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_barrier();
    return 0;
}

/* One thread passes NOSYNC where the others pass MYSYNC, after two alike
 * calls: the root waits for that thread's entry and must compare this
 * call's signature, not the one two calls back, which is the same but for
 * the flags. */
static int nosync_on_one_thread(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(2 * THREADS, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    upc_all_reduceL(R, A, UPC_ADD, 2 * THREADS, 1, NULL, my);
    upc_all_reduceL(R, A, UPC_ADD, 2 * THREADS, 1, NULL, my);
    upc_all_reduceL(R, A, UPC_ADD, 2 * THREADS, 1, NULL,
                    MYTHREAD == 1 ? UPC_IN_NOSYNC | UPC_OUT_NOSYNC : my);
    upc_barrier();
    return 0;
}

/* After *arg alike calls, thread 1 passes NOSYNC|NOSYNC to a one-element
 * reduce where the others pass ALLSYNC|ALLSYNC. The two sides then disagree
 * on which thread does the work (the root under NOSYNC, the call number %
 * THREADS under ALLSYNC), so with each *arg up to THREADS - 1 every thread
 * has the worker's role on the ALLSYNC side once: a thread that waits for a
 * worker must compare its call too, as nobody else may. */
static int nosync_small_by_turns(void *arg)
{
    int alike = *(int *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    const upc_flag_t all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    for (int k = 0; k < alike; k++)
        upc_all_reduceL(R, A, UPC_ADD, 1, 1, NULL, all);
    upc_all_reduceL(R, A, UPC_ADD, 1, 1, NULL,
                    MYTHREAD == 1 ? UPC_IN_NOSYNC | UPC_OUT_NOSYNC : all);
    upc_barrier();
    return 0;
}

/* The same for upc_all_reduce_allD, whose worker is the thread of src
 * except under ALLSYNC|ALLSYNC, and whose other threads, under MY|MY, wait
 * for the worker's eager line: thread 1 passes NO|NO or MY|MY after
 * arg->alike alike ALL|ALL calls; with src on the last thread, both sides'
 * workers differ wherever they can. */
struct turns {
    int alike;
    upc_flag_t odd;
};

static int reduce_all_by_turns(void *arg)
{
    const struct turns *t = arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(double));
    tupc_sptr_t R = upc_all_alloc(THREADS, sizeof(double));
    tupc_sptr_t src = tupc_index(A, THREADS - 1, 1, double);
    const upc_flag_t all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    for (int k = 0; k < t->alike; k++)
        upc_all_reduce_allD(R, src, UPC_ADD, 1, 1, NULL, all);
    upc_all_reduce_allD(R, src, UPC_ADD, 1, 1, NULL, MYTHREAD == 1 ? t->odd : all);
    upc_barrier();
    return 0;
}

/* The same collectives with equal arguments pass the check. */
static int all_alike(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB * THREADS);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB * THREADS);
    for (int k = 0; k < 200; k++) {
        upc_all_broadcast(B, A, NB, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        upc_all_scatter(B, A, NB, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC);
        upc_all_exchange(B, A, NB, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC);
    }
    upc_barrier();
    upc_all_free(A);
    upc_all_free(B);
    return 0;
}

/* On a team (a split of every thread, at 2 to 8 members): calls under
 * NOSYNC that differ in an argument are found at the team's next barrier,
 * whose arrivals' digests differ, and so are different functions. */
static int team_different_nbytes(void *arg)
{
    (void)arg;
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &team);
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB);
    tupc_team_broadcast(B, A, MYTHREAD == 1 ? 2 * NB : NB, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, team);
    tupc_team_barrier(team);
    TCHECK(0, "the team barrier after mismatched calls returned");
    return 0;
}

static int team_different_functions(void *arg)
{
    (void)arg;
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &team);
    tupc_sptr_t A = upc_all_alloc(THREADS, 4 * NB);
    tupc_sptr_t B = upc_all_alloc(THREADS, 4 * NB);
    if (MYTHREAD == THREADS - 1)
        tupc_team_barrier(team);
    else
        tupc_team_broadcast(B, A, NB, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, team);
    TCHECK(0, "the mismatched calls returned");
    return 0;
}

/* Both forms of the team barrier at every size (TUPC_BARRIER: flat, and
 * tree for its counter form; the default takes flat at 2 members here). */
static void test_team_mismatch(void **state)
{
    (void)state;
    static const char *const forms[] = {"flat", "tree"};
    for (int a = 0; a < 2; a++) {
        setenv("TUPC_BARRIER", forms[a], 1);
        for (int n = 2; n <= 8; n *= 2) {
            tt_expect_error(n, team_different_nbytes, NULL, "tupc_team_broadcast", "nbytes 100",
                            "nbytes 200", NULL);
            tt_expect_error(n, team_different_functions, NULL, "tupc_team_barrier",
                            "tupc_team_broadcast", NULL);
        }
    }
    unsetenv("TUPC_BARRIER");
}

static void test_different_functions(void **state)
{
    (void)state;
    for (int n = 2; n <= 8; n *= 2)
        tt_expect_error(n, different_functions, NULL, "upc_all_broadcast", "upc_all_scatter",
                        "expected every thread to reach the same barriers and collective calls",
                        NULL);
}

static void test_different_arguments(void **state)
{
    (void)state;
    for (int n = 3; n <= 8; n += 5) {
        /* Each message names the argument and both values. */
        tt_expect_error(n, different_nbytes, NULL, "passed nbytes ", " to upc_all_broadcast",
                        "nbytes 100", "nbytes 200", "(UPC 1.3 7.4 para 4)", NULL);
        tt_expect_error(n, different_flags, NULL, "passed flags ", " to upc_all_gather_all",
                        "flags UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC",
                        "flags UPC_IN_ALLSYNC | UPC_OUT_NOSYNC", NULL);
        tt_expect_error(n, different_reduce_length, NULL, "to upc_all_reduceL", "nelems 40",
                        "nelems 50", NULL);
        tt_expect_error(n, nosync_on_one_thread, NULL, "to upc_all_reduceL (collective call 3)",
                        "flags UPC_IN_NOSYNC | UPC_OUT_NOSYNC",
                        "flags UPC_IN_MYSYNC | UPC_OUT_MYSYNC", NULL);
        tt_expect_error(n, different_op, NULL, "passed op 0x", "to upc_all_reduceL", NULL);
        tt_expect_error(n, different_src, NULL, "passed src byte ", "to upc_all_scatter",
                        "'s partition", NULL);
    }
    for (int n = 2; n <= 3; n++)
        for (int alike = 0; alike < n; alike++) {
            tt_expect_error(n, nosync_small_by_turns, &alike, "upc_all_reduceL", "flags ",
                            "UPC_IN_NOSYNC | UPC_OUT_NOSYNC", NULL);
            struct turns no = {alike, UPC_IN_NOSYNC | UPC_OUT_NOSYNC},
                         my = {alike, UPC_IN_MYSYNC | UPC_OUT_MYSYNC};
            tt_expect_error(n, reduce_all_by_turns, &no, "upc_all_reduce_allD", "flags ",
                            "UPC_IN_NOSYNC | UPC_OUT_NOSYNC", NULL);
            tt_expect_error(n, reduce_all_by_turns, &my, "upc_all_reduce_allD", "flags ",
                            "UPC_IN_MYSYNC | UPC_OUT_MYSYNC", NULL);
        }
}

static void test_alike_passes(void **state)
{
    (void)state;
    for (int n = 1; n <= 16; n *= 2)
        TT_RUN(n, all_alike, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_different_functions),
        cmocka_unit_test(test_different_arguments),
        cmocka_unit_test(test_alike_passes),
        cmocka_unit_test(test_team_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
