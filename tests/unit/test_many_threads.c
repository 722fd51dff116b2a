/* 64, 256 and 1024 THREADS through every kind of synchronization the
 * runtime has: allocation (symmetric, global, local), a collective, a lock,
 * barriers and frees. Run in every CI build, ThreadSanitizer's included,
 * which once stopped at 64 THREADS (growing the symmetric arena held
 * THREADS + 1 mutexes); the quick runs stop at 256. */
#include "tt.h"

#include <stdlib.h>

#include <upc_collective.h>

static int body(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    tupc_sptr_t G = upc_global_alloc(THREADS, 64);
    tupc_sptr_t L = upc_alloc(32);
    upc_lock_t *lock = upc_all_lock_alloc();
    tupc_ref(A, MYTHREAD, 1, long) = MYTHREAD;
    upc_all_reduceL(R, A, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    long sum = (long)THREADS * (THREADS - 1) / 2;
    TCHECK(tupc_ref(R, 0, 1, long) == sum, "the sum is %ld, expected %ld", tupc_ref(R, 0, 1, long),
           sum);
    upc_barrier();
    upc_lock(lock);
    tupc_ref(R, 0, 1, long) += 1;
    upc_unlock(lock);
    upc_barrier();
    TCHECK(tupc_ref(R, 0, 1, long) == sum + THREADS,
           "after the locked increments %ld, expected %ld", tupc_ref(R, 0, 1, long), sum + THREADS);
    upc_barrier();
    upc_free(L);
    upc_free(G); /* each thread frees its own global allocation */
    upc_all_lock_free(lock);
    upc_all_free(A);
    upc_all_free(R);
    return 0;
}

static void test_many(void **state)
{
    (void)state;
    static const int counts[] = {64, 256, 1024};
    /* TUPC_TEST_QUICK (./dev.sh test): 1024 THREADS, most of the time, are
     * CI's (the suite matrices). */
    int n = getenv("TUPC_TEST_QUICK") ? 2 : 3;
    for (int i = 0; i < n; i++) {
        tupc_options o = {.threads = counts[i], .heap_size = 1 << 20, .return_on_error = 1};
        assert_int_equal(tupc_run_opts(&o, body, NULL), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_many)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
