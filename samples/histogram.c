/* Classic: a histogram, two ways. First one shared array on thread 0,
 * updated under a lock by every thread (simple, and every update contends).
 * Then without contention: each thread counts into its own counters, and one
 * upc_all_reduceL per bin adds them up. Run: histogram -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdint.h>
#include <stdio.h>

#define BINS 8
/* Per thread. The suite mpi asks fewer (-DSAMPLES=), as each locked
 * update there may cross processes. */
#ifndef SAMPLES
#define SAMPLES 100000
#endif

static unsigned next_bin(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*s >> 61); /* 0..7 */
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int T = THREADS;

    /* shared [] long hist[BINS] (on thread 0), and a lock for it */
    tupc_sptr_t hist = upc_all_alloc(1, BINS * sizeof(long));
    upc_lock_t *lock = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        for (int b = 0; b < BINS; b++)
            tupc_ref(hist, b, 0, long) = 0;
    upc_barrier();
    uint64_t seed = 12345 + (uint64_t)MYTHREAD;
    for (int i = 0; i < SAMPLES; i++) {
        unsigned b = next_bin(&seed);
        upc_lock(lock);
        /* hist[b]++ on thread 0's array, here or (built with MPI) in
         * another process: a get and a put, under the lock. */
        tupc_sptr_t h = tupc_index(hist, b, 0, long);
        tupc_put_long(h, tupc_get_long(h) + 1);
        upc_unlock(lock);
    }

    /* shared long counts[BINS * THREADS]: element b * T + t is thread t's
     * count of bin b, on thread t (block size 1); bin b's counts are the
     * T consecutive elements from b * T. */
    tupc_sptr_t counts = upc_all_alloc((size_t)BINS * T, sizeof(long));
    tupc_sptr_t total = upc_all_alloc(1, BINS * sizeof(long)); /* on thread 0 */
    for (int b = 0; b < BINS; b++)
        tupc_ref(counts, b * T + MYTHREAD, 1, long) = 0;
    seed = 12345 + (uint64_t)MYTHREAD; /* the same samples again */
    for (int i = 0; i < SAMPLES; i++)
        tupc_ref(counts, (int)next_bin(&seed) * T + MYTHREAD, 1, long)++;
    for (int b = 0; b < BINS; b++)
        /* IN_ALLSYNC once: every thread has finished counting when all have
         * entered the first call. OUT_MYSYNC: thread 0, which owns total,
         * may read it as soon as its own calls return. */
        upc_all_reduceL(tupc_index(total, b, 0, long), tupc_index(counts, b * T, 1, long), UPC_ADD,
                        (size_t)T, 1, NULL,
                        (b == 0 ? UPC_IN_ALLSYNC : UPC_IN_NOSYNC) | UPC_OUT_MYSYNC);

    upc_barrier(); /* the locked updates of every thread are done */
    int differ = 0;
    if (MYTHREAD == 0) {
        printf("bin   locked  reduced\n");
        for (int b = 0; b < BINS; b++) {
            long h = tupc_ref(hist, b, 0, long), t = tupc_ref(total, b, 0, long);
            printf("%3d %8ld %8ld\n", b, h, t);
            differ |= h != t;
        }
    }
    upc_barrier();
    upc_all_lock_free(lock);
    upc_all_free(hist);
    upc_all_free(counts);
    upc_all_free(total);
    return differ; /* the two ways must agree */
}
