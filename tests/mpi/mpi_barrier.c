/* Barriers across processes: rounds of a ring exchange that each need the
 * barrier (a value put before it is read after it), split-phase barriers
 * with ids and work between upc_notify and upc_wait, and the run's status
 * from the lowest failing thread. */
#include "check.h"

#define ROUNDS 200

int tupc_main(int argc, char **argv)
{
    int T = THREADS, me = MYTHREAD;
    CHECK(T == expected_threads(argc, argv));
    tupc_sptr_t v = upc_all_alloc((size_t)T, 2 * sizeof(long));
    for (int r = 0; r < ROUNDS; r++) {
        /* Parity slots: a round's reads never meet the next round's puts. */
        tupc_put_long(tupc_ptr_add(tupc_index(v, (me + 1) % T, 1, long[2]), r % 2, 0, sizeof(long)),
                      (long)r * 1000 + me);
        if (r % 3 == 0) {
            upc_barrier();
        } else if (r % 3 == 1) {
            upc_barrier(r);
        } else {
            upc_notify(r);
            /* Work between the phases: this thread's own data only. */
            long sum = 0;
            for (int k = 0; k < 100; k++)
                sum += k;
            CHECK(sum == 4950);
            upc_wait(r);
        }
        long got =
            tupc_get_long(tupc_ptr_add(tupc_index(v, me, 1, long[2]), r % 2, 0, sizeof(long)));
        CHECK(got == (long)r * 1000 + (me + T - 1) % T);
    }
    /* A named notify and an unnamed wait, and the reverse, match. */
    upc_notify(7);
    upc_wait();
    upc_notify();
    upc_wait(8);
    upc_barrier();
    upc_all_free(v);
    /* argv[2]: the status each thread returns from MYTHREAD on (the run's
     * status is that of the lowest failing thread). */
    if (argc > 2 && me >= atoi(argv[2]))
        return 3 + me;
    return 0;
}
