/* upc_lock_t (UPC 1.3 7.2.4): mutual exclusion, upc_lock_attempt, FIFO
 * handoff, allocation and freeing, refused misuse. */
#include "tt.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define MAXT 32

static const int counts[] = {1, 2, 3, 4, 8, 16, 32};
#define NCOUNTS (sizeof counts / sizeof *counts)

static upc_lock_t *lock_of[MAXT];

/* ---- Mutual exclusion --------------------------------------------------- */

/* Plain, non-atomic: only the lock keeps the increments from being lost. */
static long counter;
static int inside; /* threads inside the critical section, also plain */

static int exclusion_body(void *arg)
{
    int rounds = *(int *)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    for (int i = 0; i < rounds; i++) {
        upc_lock(l);
        TCHECK(++inside == 1, "%d threads inside", inside);
        long c = counter;
        if (i % 16 == 0)
            upc_fence(); /* widen the window a lost update would need */
        counter = c + 1;
        inside--;
        upc_unlock(l);
    }
    upc_barrier();
    if (MYTHREAD == 0)
        TCHECK(counter == (long)rounds * THREADS, "counter %ld, expected %ld", counter,
               (long)rounds * THREADS);
    upc_all_lock_free(l);
    return 0;
}

static void test_mutual_exclusion(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++) {
        int rounds = counts[c] >= 16 ? 300 : 2000;
        counter = 0;
        TT_RUN(counts[c], exclusion_body, &rounds);
    }
}

/* ---- upc_lock_attempt --------------------------------------------------- */

static _Atomic int attempts_won;

static int attempt_body(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0) {
        TCHECK(upc_lock_attempt(l) == 1, "attempt on a free lock failed");
        /* Held by this thread: the attempt fails and the lock stays held. */
        TCHECK(upc_lock_attempt(l) == 0, "attempt on a lock held by the caller succeeded");
    }
    upc_barrier();
    if (MYTHREAD != 0)
        TCHECK(upc_lock_attempt(l) == 0, "attempt on a lock held by thread 0 succeeded");
    upc_barrier();
    if (MYTHREAD == 0)
        upc_unlock(l);
    upc_barrier();
    /* Everyone tries until it wins once. */
    for (unsigned n = 0; !upc_lock_attempt(l); n++)
        if (n % 64 == 63) {
            struct timespec ts = {0, 10000};
            nanosleep(&ts, NULL);
        }
    atomic_fetch_add_explicit(&attempts_won, 1, memory_order_relaxed);
    upc_unlock(l);
    /* And upc_lock and upc_lock_attempt mix on one lock. */
    for (int i = 0; i < 50; i++) {
        if (i % 2 == 0 && upc_lock_attempt(l)) {
            counter++;
            upc_unlock(l);
            continue;
        }
        upc_lock(l);
        counter++;
        upc_unlock(l);
    }
    upc_barrier();
    if (MYTHREAD == 0) {
        TCHECK(atomic_load(&attempts_won) == THREADS, "%d winners", atomic_load(&attempts_won));
        TCHECK(counter == 50L * THREADS, "mixed counter %ld", counter);
    }
    upc_all_lock_free(l);
    return 0;
}

static void test_attempt(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++) {
        atomic_store(&attempts_won, 0);
        counter = 0;
        TT_RUN(counts[c], attempt_body, NULL);
    }
}

/* ---- FIFO handoff ------------------------------------------------------- */

static _Atomic int turn; /* the thread whose turn it is to enqueue */
static _Atomic int about_to[MAXT];
static int order[MAXT], norder; /* under the lock */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static int fifo_body(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    int me = MYTHREAD;
    if (me == 0) {
        upc_lock(l);
        order[norder++] = 0;
        /* Let threads 1, 2, ... enqueue one at a time, in that order: each
         * gets 20 ms to get from its flag into the queue. */
        for (int t = 1; t < THREADS; t++) {
            atomic_store_explicit(&turn, t, memory_order_release);
            while (!atomic_load_explicit(&about_to[t], memory_order_acquire))
                sleep_ms(1);
            sleep_ms(20);
        }
        upc_unlock(l);
    } else {
        while (atomic_load_explicit(&turn, memory_order_acquire) != me)
            sleep_ms(1);
        atomic_store_explicit(&about_to[me], 1, memory_order_release);
        upc_lock(l);
        order[norder++] = me;
        upc_unlock(l);
    }
    upc_barrier();
    if (me == 0)
        for (int k = 0; k < THREADS; k++)
            TCHECK(order[k] == k, "acquisition %d went to thread %d", k, order[k]);
    upc_all_lock_free(l);
    return 0;
}

static void test_fifo(void **state)
{
    (void)state;
    const int fifo_counts[] = {2, 4, 6};
    for (size_t c = 0; c < sizeof fifo_counts / sizeof *fifo_counts; c++) {
        atomic_store(&turn, 0);
        for (int t = 0; t < MAXT; t++)
            atomic_store(&about_to[t], 0);
        norder = 0;
        TT_RUN(fifo_counts[c], fifo_body, NULL);
    }
}

/* ---- Allocation and freeing --------------------------------------------- */

static int alloc_body(void *arg)
{
    (void)arg;
    int me = MYTHREAD;
    /* upc_all_lock_alloc: one lock, the same on every thread. */
    upc_lock_t *all = upc_all_lock_alloc();
    TCHECK(all != NULL, "upc_all_lock_alloc gave NULL");
    lock_of[me] = all;
    upc_barrier();
    for (int t = 0; t < THREADS; t++)
        TCHECK(lock_of[t] == all, "thread %d got another lock", t);
    upc_barrier();
    /* upc_global_lock_alloc: a new lock per call. */
    upc_lock_t *g = upc_global_lock_alloc();
    TCHECK(g != NULL && g != all, "upc_global_lock_alloc");
    lock_of[me] = g;
    upc_barrier();
    for (int t = 0; t < THREADS; t++)
        TCHECK(t == me || lock_of[t] != g, "threads %d and %d share a global lock", t, me);
    /* Another thread's lock works here too; then its owner frees it. */
    upc_lock_t *other = lock_of[(me + 1) % THREADS];
    upc_lock(other);
    upc_unlock(other);
    upc_barrier();
    upc_lock_free(g);
    upc_lock_free(NULL); /* no action */
    /* A freshly allocated lock starts unlocked; free one held by the caller. */
    upc_lock_t *h = upc_global_lock_alloc();
    TCHECK(upc_lock_attempt(h) == 1, "a new lock is not free");
    upc_lock_free(h);
    /* Many allocations and frees: the run frees what is left at its end. */
    for (int i = 0; i < 100; i++) {
        upc_lock_t *x = upc_global_lock_alloc();
        upc_lock(x);
        upc_unlock(x);
        if (i % 2)
            upc_lock_free(x);
    }
    upc_all_lock_free(all);
    upc_all_lock_free(NULL);
    return 0;
}

static void test_alloc_free(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        TT_RUN(counts[c], alloc_body, NULL);
}

/* ---- Refused misuse ----------------------------------------------------- */

static int unlock_not_held(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 1)
        upc_unlock(l);
    upc_barrier();
    return 0;
}

static int unlock_other_held(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        upc_lock(l);
    upc_barrier();
    if (MYTHREAD == 1)
        upc_unlock(l);
    upc_barrier();
    return 0;
}

static int relock(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_global_lock_alloc();
    upc_lock(l);
    upc_lock(l);
    return 0;
}

static int lock_null(void *arg)
{
    (void)arg;
    upc_lock(NULL);
    return 0;
}

static int free_held_by_other(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        upc_lock(l);
    upc_barrier();
    if (MYTHREAD == 1)
        upc_lock_free(l);
    upc_barrier();
    return 0;
}

/* Threads queued on a lock whose holder fails are released by the stop. */
static int fail_while_others_queue(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        upc_lock(l);
    upc_barrier();
    if (MYTHREAD == 0) {
        sleep_ms(20); /* the others are queued by now, most asleep */
        upc_unlock(NULL);
    }
    upc_lock(l);
    upc_unlock(l);
    return 0;
}

static void test_refused(void **state)
{
    (void)state;
    tt_expect_error(2, unlock_not_held, NULL,
                    "tupc: upc_unlock (thread 1 of 2): lock is not held; expected a lock held by "
                    "this thread (UPC 1.3 7.2.4.5)",
                    NULL);
    tt_expect_error(2, unlock_other_held, NULL, "tupc: upc_unlock (thread 1 of 2)",
                    "held by another thread", NULL);
    tt_expect_error(1, relock, NULL, "tupc: upc_lock (thread 0 of 1)", "already held",
                    "(UPC 1.3 7.2.4.3)", NULL);
    tt_expect_error(3, lock_null, NULL, "tupc: upc_lock", "lock is NULL", NULL);
    tt_expect_error(2, free_held_by_other, NULL, "tupc: upc_lock_free (thread 1 of 2)",
                    "held by thread 0", NULL);
    for (int n = 2; n <= 32; n *= 4)
        tt_expect_error(n, fail_while_others_queue, NULL, "tupc: upc_unlock (thread 0", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutual_exclusion),
        cmocka_unit_test(test_attempt),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_alloc_free),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
