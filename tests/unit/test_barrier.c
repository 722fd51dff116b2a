/* upc_barrier, upc_notify/upc_wait and barrier ids (UPC 1.3 6.6.1), for
 * both algorithms of lib/sync/barrier.c (TUPC_BARRIER=flat and =tree). */
#include "tt.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 32

static const char *const algorithms[] = {"flat", "tree"};
static const int counts[] = {1, 2, 3, 4, 8, 16, 32};
#define NCOUNTS (sizeof counts / sizeof *counts)

static void use_algorithm(const char *name)
{
    setenv("TUPC_BARRIER", name, 1);
}

/* ---- No thread passes early ------------------------------------------- */

/* Plain ints on purpose: the barrier must order them (TSan checks that).
 * Slot i % 2 of iteration i is written again only at i + 2, after barrier
 * i + 1, which no thread passes before every thread is done reading. */
static int stamp[2][MAXT];
static int iterations;

static int counter_body(void *arg)
{
    (void)arg;
    int me = MYTHREAD;
    for (int i = 1; i <= iterations; i++) {
        stamp[i % 2][me] = i;
        if (i % 3 == 0) {
            upc_notify();
            upc_wait();
        } else {
            upc_barrier();
        }
        for (int t = 0; t < THREADS; t++)
            if (stamp[i % 2][t] != i) {
                TCHECK(0, "iteration %d: thread %d's stamp is %d", i, t, stamp[i % 2][t]);
                return 1;
            }
    }
    return 0;
}

static void test_no_early_pass(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (size_t c = 0; c < NCOUNTS; c++) {
            iterations = counts[c] > 8 ? 150 : 1000;
            TT_RUN(counts[c], counter_body, NULL);
        }
    }
    unsetenv("TUPC_BARRIER");
}

/* ---- A team's barrier, in both its forms -------------------------------- */

/* Two teams (even and odd threads, ranks in thread order), each passing its
 * own barrier with plain stamps per member, which the barrier must order.
 * TUPC_BARRIER picks the team barrier's form too (coll/team_barrier.c): flat
 * makes the flat form at every size, tree the counter form. */
static int team_stamp[2][2][MAXT];

static int team_body(void *arg)
{
    (void)arg;
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &team);
    const int colour = MYTHREAD % 2, rank = MYTHREAD / 2;
    const int n = (THREADS + 1 - colour) / 2;
    for (int i = 1; i <= iterations; i++) {
        team_stamp[colour][i % 2][rank] = i;
        tupc_team_barrier(team);
        for (int r = 0; r < n; r++)
            if (team_stamp[colour][i % 2][r] != i) {
                TCHECK(0, "team %d, iteration %d: rank %d's stamp is %d", colour, i, r,
                       team_stamp[colour][i % 2][r]);
                return 1;
            }
    }
    tupc_team_free(&team);
    return 0;
}

static void test_team_no_early_pass(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (size_t c = 0; c < NCOUNTS; c++) {
            iterations = counts[c] > 8 ? 100 : 600;
            TT_RUN(counts[c], team_body, NULL);
        }
    }
    unsetenv("TUPC_BARRIER");
}

/* ---- Split phase with work and a lock in between ------------------------ */

static long locked_total; /* under the lock only */
static _Thread_local unsigned work_sink;

static int split_body(void *arg)
{
    upc_lock_t *lock = upc_all_lock_alloc();
    int rounds = *(int *)arg;
    for (int i = 0; i < rounds; i++) {
        upc_notify(i);
        /* Work between the phases: other threads may be waiting already. */
        for (int k = 0; k < 200 * (MYTHREAD + 1); k++)
            work_sink += (unsigned)k * (unsigned)i;
        upc_lock(lock);
        locked_total++;
        upc_unlock(lock);
        upc_wait(i);
    }
    upc_barrier();
    if (MYTHREAD == 0) {
        TCHECK(locked_total == (long)rounds * THREADS, "total %ld, expected %ld", locked_total,
               (long)rounds * THREADS);
        locked_total = 0;
    }
    upc_all_lock_free(lock);
    return 0;
}

static void test_split_phase_with_lock(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (size_t c = 0; c < NCOUNTS; c++) {
            int rounds = counts[c] > 8 ? 30 : 200;
            TT_RUN(counts[c], split_body, &rounds);
        }
    }
    unsetenv("TUPC_BARRIER");
}

/* ---- Ids ---------------------------------------------------------------- */

static int ids_body(void *arg)
{
    (void)arg;
    int me = MYTHREAD;
    for (int i = 0; i < 20; i++) {
        upc_barrier(i);  /* matching named ids */
        upc_barrier(-7); /* negative ids are ids too */
        if (me % 2)      /* anonymous matches anything */
            upc_barrier();
        else
            upc_barrier(1000 + i);
        upc_notify(i); /* named notify, anonymous wait */
        upc_wait();
        if (me == 0) /* anonymous notify, named wait */
            upc_notify();
        else
            upc_notify(42);
        upc_wait(42);
        upc_notify();
        upc_wait();
    }
    return 0;
}

static void test_matching_ids(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (size_t c = 0; c < NCOUNTS; c++)
            TT_RUN(counts[c], ids_body, NULL);
    }
    unsetenv("TUPC_BARRIER");
}

static int mismatch_body(void *arg)
{
    (void)arg;
    upc_barrier(1);
    upc_barrier(MYTHREAD == THREADS - 1 ? 2 : 1);
    return 0;
}

static int mismatch_split_body(void *arg)
{
    (void)arg;
    upc_notify(5);
    upc_wait(MYTHREAD == 0 ? 6 : 5); /* thread 0 waits on an id nobody notified */
    return 0;
}

/* The error names both ids and the thread whose id differs; which thread
 * finds it first depends on timing, so either side may report. */
static void expect_mismatch(int threads, int (*fn)(void *), int a, int b)
{
    tupc_options o = {.threads = threads, .return_on_error = 1, .quiet = 1};
    assert_int_equal(tupc_run_opts(&o, fn, NULL), TUPC_RUN_ERROR);
    const char *msg = tupc_last_error();
    char one[64], two[64];
    snprintf(one, sizeof one, "barrier id %d differs from id %d that thread ", a, b);
    snprintf(two, sizeof two, "barrier id %d differs from id %d that thread ", b, a);
    if (!strstr(msg, one) && !strstr(msg, two))
        fail_msg("mismatch message \"%s\" names neither %d vs %d nor %d vs %d", msg, a, b, b, a);
    if (!strstr(msg, "(UPC 1.3 6.6.1 para 10)") || strncmp(msg, "tupc: upc_", 10) != 0)
        fail_msg("mismatch message \"%s\" lacks the function or section", msg);
}

static void test_mismatched_ids(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (int n = 2; n <= 32; n *= 2) {
            expect_mismatch(n, mismatch_body, 1, 2);
            expect_mismatch(n, mismatch_split_body, 5, 6);
        }
    }
    /* With two threads, the reporter names the other one. */
    use_algorithm("flat");
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    assert_int_equal(tupc_run_opts(&o, mismatch_body, NULL), TUPC_RUN_ERROR);
    const char *msg = tupc_last_error();
    assert_true(strstr(msg, "(thread 0 of 2): barrier id 1 differs from id 2 that thread 1") ||
                strstr(msg, "(thread 1 of 2): barrier id 2 differs from id 1 that thread 0"));
    unsetenv("TUPC_BARRIER");
}

/* ---- Misuse ------------------------------------------------------------- */

static int double_notify(void *arg)
{
    (void)arg;
    upc_notify();
    if (MYTHREAD == 1)
        upc_notify();
    upc_wait();
    return 0;
}

static int wait_without_notify(void *arg)
{
    (void)arg;
    if (MYTHREAD == 0)
        upc_wait();
    upc_barrier();
    return 0;
}

static int barrier_in_split(void *arg)
{
    (void)arg;
    upc_notify();
    upc_barrier();
    return 0;
}

static int collective_in_split(void *arg)
{
    (void)arg;
    upc_notify();
    upc_all_alloc(4, 4);
    upc_wait();
    return 0;
}

static int lock_alloc_in_split(void *arg)
{
    (void)arg;
    upc_notify();
    upc_all_lock_alloc();
    upc_wait();
    return 0;
}

static int free_in_split(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_all_alloc(4, 4);
    upc_notify();
    upc_all_free(p);
    upc_wait();
    return 0;
}

static void test_misuse(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        tt_expect_error(3, double_notify, NULL, "tupc: upc_notify (thread 1 of 3)",
                        "upc_notify called twice", "(UPC 1.3 6.6.1 para 7)", NULL);
        tt_expect_error(2, wait_without_notify, NULL, "tupc: upc_wait (thread 0 of 2)",
                        "without a preceding upc_notify", NULL);
        tt_expect_error(2, barrier_in_split, NULL, "tupc: upc_barrier (thread",
                        "between upc_notify and upc_wait", NULL);
        tt_expect_error(4, collective_in_split, NULL, "tupc: upc_all_alloc (thread",
                        "collective called between upc_notify and upc_wait", "(UPC 1.3 7.4 para 5)",
                        NULL);
        tt_expect_error(2, lock_alloc_in_split, NULL, "tupc: upc_all_lock_alloc",
                        "between upc_notify and upc_wait", NULL);
        tt_expect_error(2, free_in_split, NULL, "tupc: upc_all_free",
                        "between upc_notify and upc_wait", NULL);
    }
    unsetenv("TUPC_BARRIER");
}

/* The barrier works again in the next run after a run ended in an error
 * (thread-local split-phase state starts fresh with new threads). */
static void test_after_error(void **state)
{
    (void)state;
    tt_expect_error(4, double_notify, NULL, "called twice", NULL);
    iterations = 50;
    TT_RUN(4, counter_body, NULL);
}

/* ---- No lost wake-ups --------------------------------------------------
 * Meant for TUPC_SPIN=0 TUPC_YIELD=0 (meson: barrier_sleep*), where every
 * wait sleeps on its futex at once: a setter that misses a sleeper (a
 * broken fence in sync/wait.h) leaves it to its 50 ms timeout, which the
 * library counts. Library-internal counter, declared here on purpose. */
extern _Atomic unsigned long tupc_wait_lost_wakeups_;

static void test_no_lost_wakeups(void **state)
{
    (void)state;
    unsigned long before = atomic_load(&tupc_wait_lost_wakeups_);
    for (int a = 0; a < 2; a++) {
        use_algorithm(algorithms[a]);
        for (int t = 2; t <= 4; t++) {
            iterations = 1500;
            TT_RUN(t, counter_body, NULL);
        }
    }
    unsetenv("TUPC_BARRIER");
    unsigned long lost = atomic_load(&tupc_wait_lost_wakeups_) - before;
    if (lost)
        fail_msg("%lu sleeps ran out their timeout with the value already set", lost);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_early_pass),         cmocka_unit_test(test_team_no_early_pass),
        cmocka_unit_test(test_split_phase_with_lock), cmocka_unit_test(test_matching_ids),
        cmocka_unit_test(test_mismatched_ids),        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_after_error),           cmocka_unit_test(test_no_lost_wakeups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
