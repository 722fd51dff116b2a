/* histogram.c in UPC: a histogram, two ways. First one shared array on
 * thread 0, updated under a lock by every thread (simple, and every update
 * contends). Then without contention: each thread counts into its own
 * elements of counts, and one upc_all_reduceL per bin adds them up. (The
 * suite runs it at up to 3 THREADS: more threads than CPUs queue at the
 * lock, and a run takes seconds.) Run: histogram -n 4 */
/* threads: 1 2 3 */
#include <upc.h>
#include <upc_collective.h>
#include <stdint.h>
#include <stdio.h>

#define BINS 8
#ifndef SAMPLES /* per thread; the suite mpi asks fewer (-DSAMPLES=), as each */
#define SAMPLES 100000 /* locked update there may cross processes */
#endif

shared [] long hist[BINS];           /* all on thread 0 */
shared long counts[BINS * THREADS]; /* counts[b * THREADS + t]: thread t's count of bin b, on t */
shared [] long total[BINS];          /* on thread 0 */

static unsigned next_bin(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*s >> 61); /* 0..7 */
}

int main(void)
{
    upc_lock_t *lock = upc_all_lock_alloc();
    uint64_t seed = 12345 + (uint64_t)MYTHREAD;
    for (int i = 0; i < SAMPLES; i++) {
        unsigned b = next_bin(&seed);
        upc_lock(lock);
        hist[b]++;
        upc_unlock(lock);
    }

    seed = 12345 + (uint64_t)MYTHREAD; /* the same samples again */
    for (int i = 0; i < SAMPLES; i++)
        counts[(int)next_bin(&seed) * THREADS + MYTHREAD]++;
    for (int b = 0; b < BINS; b++)
        /* IN_ALLSYNC once: every thread has finished counting when all have
         * entered the first call. OUT_MYSYNC: thread 0, which owns total,
         * may read it as soon as its own calls return. */
        upc_all_reduceL(&total[b], &counts[b * THREADS], UPC_ADD, THREADS, 1, NULL,
                        (b == 0 ? UPC_IN_ALLSYNC : UPC_IN_NOSYNC) | UPC_OUT_MYSYNC);

    upc_barrier; /* the locked updates of every thread are done */
    int differ = 0;
    if (MYTHREAD == 0) {
        long all = 0;
        printf("bin   locked  reduced\n");
        for (int b = 0; b < BINS; b++) {
            printf("%3d %8ld %8ld\n", b, hist[b], total[b]);
            differ |= hist[b] != total[b];
            all += hist[b];
        }
        differ |= all != (long)SAMPLES * THREADS;
    }
    upc_barrier;
    upc_all_lock_free(lock);
    return differ; /* the two ways must agree */
}
