/* Locks across processes: a counter in thread 0's partition incremented
 * under a upc_all_lock_alloc lock by every thread (read, then write: a
 * lost update shows in the total), a upc_global_lock_alloc lock made by
 * the last thread and handed to all, and upc_lock_attempt. */
#include "check.h"

#include <time.h>

#define ROUNDS 40

int tupc_main(int argc, char **argv)
{
    int T = THREADS, me = MYTHREAD;
    CHECK(T == expected_threads(argc, argv));
    upc_lock_t *l = upc_all_lock_alloc();
    CHECK(l != NULL);
    tupc_sptr_t counter = upc_all_alloc(1, 2 * sizeof(long));
    if (me == 0) {
        tupc_put_long(counter, 0);
        tupc_put_long(tupc_ptr_add(counter, 1, 0, sizeof(long)), 0);
    }
    upc_barrier();
    for (int r = 0; r < ROUNDS; r++) {
        upc_lock(l);
        long v = tupc_get_long(counter);
        tupc_put_long(counter, v + 1 + me);
        upc_unlock(l);
    }
    upc_barrier();
    CHECK(tupc_get_long(counter) == (long)ROUNDS * T + (long)ROUNDS * T * (T - 1) / 2);

    /* A lock made by one thread, in its partition, handed through thread
     * 0's slot; the second counter counts takes by upc_lock_attempt. */
    tupc_sptr_t slot = upc_all_alloc(1, sizeof(upc_lock_t *));
    if (me == T - 1) {
        upc_lock_t *g = upc_global_lock_alloc();
        CHECK(g != NULL);
        tupc_put(slot, &g, sizeof g);
    }
    upc_barrier();
    upc_lock_t *g;
    tupc_get(&g, slot, sizeof g);
    int took = 0;
    while (took < 5) {
        if (upc_lock_attempt(g)) {
            CHECK(upc_lock_attempt(g) == 0); /* held by this thread */
            tupc_sptr_t c = tupc_ptr_add(counter, 1, 0, sizeof(long));
            tupc_put_long(c, tupc_get_long(c) + 1);
            upc_unlock(g);
            took++;
        } else { /* let the holder run: the machine may have fewer cores than threads */
            nanosleep(&(struct timespec){.tv_nsec = 100000}, NULL);
        }
    }
    upc_barrier();
    CHECK(tupc_get_long(tupc_ptr_add(counter, 1, 0, sizeof(long))) == 5L * T);
    upc_barrier();
    if (me == T - 1)
        upc_lock_free(g);
    upc_all_lock_free(l);
    upc_all_free(counter);
    upc_all_free(slot);
    return 0;
}
