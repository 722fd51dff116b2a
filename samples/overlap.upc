/* overlap.c in UPC: thread 0 broadcasts a 512 KiB block to every thread with
 * UPC_ASYNC, which posts the broadcast and returns a handle at once; each
 * thread computes a partial sum of a series while the data moves, and
 * upc_wait(handle) completes the broadcast before the block is read. Both
 * results are checked.
 * Build and run: tupcc -O2 overlap.upc -o overlap && ./overlap -n 4 */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>

#define NBYTES ((size_t)512 << 10) /* tupcc takes block sizes up to 1,000,000 */
#define TERMS 2000000L

shared [NBYTES] unsigned char src[NBYTES * THREADS], dst[NBYTES * THREADS];
shared double part[THREADS];

int main(void)
{
    unsigned char *mine = (unsigned char *)&src[MYTHREAD * NBYTES];
    for (size_t i = 0; i < NBYTES; i++)
        mine[i] = (unsigned char)(i * 7 + 1);
    /* IN_ALLSYNC: every source block is written before anyone reads one. */
    upc_coll_handle_t h = tupc_team_broadcast(
        dst, src, NBYTES, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, UPC_TEAM_ALL);

    /* The computation, while the broadcast runs: this thread's terms of
     * the series 1/1^2 + 1/2^2 + ..., whose whole sum is pi^2/6. */
    double sum = 0;
    for (long k = MYTHREAD + 1; k <= TERMS; k += THREADS)
        sum += 1.0 / ((double)k * (double)k);
    part[MYTHREAD] = sum;

    upc_wait(h); /* now this thread's block of dst is its to read */
    const unsigned char *got = (const unsigned char *)&dst[MYTHREAD * NBYTES];
    long wrong = 0;
    for (size_t i = 0; i < NBYTES; i++)
        wrong += got[i] != (unsigned char)(i * 7 + 1);
    upc_barrier;

    int bad = wrong != 0;
    if (MYTHREAD == 0) {
        double all = 0;
        for (int t = 0; t < THREADS; t++)
            all += part[t];
        /* The tail of the series past TERMS is about 1/TERMS. */
        bad |= all < 1.6449335 || all > 1.6449341;
        printf("overlap: %zu bytes broadcast to %d threads while they summed the series: %.7f\n",
               NBYTES, THREADS, all);
    }
    if (wrong)
        fprintf(stderr, "overlap: thread %d got %ld wrong bytes\n", MYTHREAD, wrong);
    return bad;
}
