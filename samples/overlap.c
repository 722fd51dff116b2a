/* Computing while a collective moves data: thread 0 broadcasts a 4 MiB
 * block to every thread with UPC_ASYNC, which posts the broadcast and
 * returns a handle at once; each thread then computes (a partial sum of a
 * series) while the data moves, and upc_wait(handle) completes the
 * broadcast before the block is read. Both results are checked.
 * Run: overlap -n 4 */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>

#define NBYTES ((size_t)4 << 20)
#define TERMS 2000000L

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* shared [NBYTES] char src[NBYTES * THREADS], dst[NBYTES * THREADS] */
    tupc_sptr_t src = upc_all_alloc(THREADS, NBYTES);
    tupc_sptr_t dst = upc_all_alloc(THREADS, NBYTES);
    unsigned char *mine = tupc_local(tupc_index(src, MYTHREAD, 1, char[NBYTES]));
    for (size_t i = 0; i < NBYTES; i++)
        mine[i] = (unsigned char)(i * 7 + 1);
    /* IN_ALLSYNC: the source is written before anyone reads it. */
    upc_coll_handle_t h = tupc_team_broadcast(
        dst, src, NBYTES, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, UPC_TEAM_ALL);

    /* The computation, while the broadcast runs: this thread's terms of
     * the series 1/1^2 + 1/2^2 + ..., whose whole sum is pi^2/6. */
    double part = 0;
    for (long k = MYTHREAD + 1; k <= TERMS; k += THREADS)
        part += 1.0 / ((double)k * (double)k);

    upc_wait(h); /* now dst is this thread's to read */
    const unsigned char *got = tupc_local(tupc_index(dst, MYTHREAD, 1, char[NBYTES]));
    long wrong = 0;
    for (size_t i = 0; i < NBYTES; i++)
        wrong += got[i] != (unsigned char)(i * 7 + 1);

    tupc_sptr_t parts = upc_all_alloc(THREADS, sizeof(double));
    tupc_ref(parts, MYTHREAD, 1, double) = part;
    upc_barrier();
    int bad = wrong != 0;
    if (MYTHREAD == 0) {
        double sum = 0;
        for (int t = 0; t < THREADS; t++)
            sum += tupc_ref(parts, t, 1, double);
        /* The tail of the series past TERMS is about 1/TERMS. */
        bad |= sum < 1.6449335 || sum > 1.6449341;
        printf("overlap: %zu bytes broadcast to %d threads while they summed the series: %.7f\n",
               NBYTES, THREADS, sum);
    }
    if (wrong)
        fprintf(stderr, "overlap: thread %d got %ld wrong bytes\n", MYTHREAD, wrong);
    upc_barrier();
    upc_all_free(parts);
    upc_all_free(src);
    upc_all_free(dst);
    return bad;
}
