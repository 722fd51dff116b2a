/* Classic: a parallel prefix sum (a scan), and what it is for.
 * upc_all_prefix_reduceL makes sum[i] = x[i] + all the elements before it,
 * each thread working on the elements it owns. A scan of 0/1 flags then
 * tells each thread where its kept elements go in a shared output array,
 * with no further talk between threads: stream compaction, here keeping
 * the multiples of 3. The answers do not depend on THREADS.
 * Run: prefix_sum -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define N 1000 /* elements in all */

static long value(long i)
{
    return (i * 37 + 11) % 100;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* shared [*] long x[N], ...: UPC's [*] layout, one block of B = N /
     * THREADS (rounded up) elements per thread, x[i] on thread i / B.
     * upc_all_alloc is collective: every thread gets the same pointers. */
    const size_t B = (N + THREADS - 1) / THREADS;
    tupc_sptr_t x = upc_all_alloc(THREADS, B * sizeof(long));
    tupc_sptr_t sum = upc_all_alloc(THREADS, B * sizeof(long));  /* running sums of x */
    tupc_sptr_t keep = upc_all_alloc(THREADS, B * sizeof(long)); /* 1 where x[i] is kept */
    tupc_sptr_t pos = upc_all_alloc(THREADS, B * sizeof(long));  /* running sums of keep */
    tupc_sptr_t out = upc_all_alloc(THREADS, B * sizeof(long));  /* the kept values */

    /* upc_forall runs iteration i on the thread that x[i] has affinity to,
     * so each thread writes only its own memory here. */
    upc_forall(long i = 0, i < N, i++, tupc_index(x, i, B, long))
    {
        tupc_ref(x, i, B, long) = value(i);
        tupc_ref(keep, i, B, long) = value(i) % 3 == 0;
    }

    /* IN_MYSYNC: a thread's elements may be read once it has entered the
     * call, which is after it wrote them: no barrier needed. OUT_MYSYNC: a
     * thread may read its own results as soon as its call returns. */
    const upc_flag_t sync = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    upc_all_prefix_reduceL(sum, x, UPC_ADD, N, B, NULL, sync);
    upc_all_prefix_reduceL(pos, keep, UPC_ADD, N, B, NULL, sync);

    /* A kept x[i] is number pos[i] among the kept ones, so it goes to
     * out[pos[i] - 1]: a write to whichever thread owns that element. */
    /* (Built with MPI, that thread may be in another process: a put.) */
    upc_forall(long i = 0, i < N, i++, tupc_index(x, i, B, long)) if (tupc_ref(keep, i, B, long))
        tupc_put_long(tupc_index(out, tupc_ref(pos, i, B, long) - 1, B, long),
                      tupc_ref(x, i, B, long));
    upc_barrier(); /* every write to out is done before thread 0 reads it */

    /* Check against a serial run of the same two loops (any thread's
     * elements: with MPI, tupc_get_long reaches another process's). */
#define AT(a, i) tupc_get_long(tupc_index(a, i, B, long))
    int bad = 0;
    if (MYTHREAD == 0) {
        long s = 0, kept = 0;
        for (long i = 0; i < N && !bad; i++) {
            s += value(i);
            if (AT(sum, i) != s) {
                fprintf(stderr, "prefix_sum: sum[%ld] is %ld, expected %ld\n", i, AT(sum, i), s);
                bad = 1;
            }
            if (value(i) % 3 == 0 && AT(out, kept++) != value(i)) {
                fprintf(stderr, "prefix_sum: out[%ld] is %ld, expected x[%ld] = %ld\n", kept - 1,
                        AT(out, kept - 1), i, value(i));
                bad = 1;
            }
        }
        if (!bad && AT(pos, N - 1) != kept) {
            fprintf(stderr, "prefix_sum: pos[N-1] is %ld, expected %ld kept\n", AT(pos, N - 1),
                    kept);
            bad = 1;
        }
        if (!bad)
            printf("prefix_sum: sum[%d] = %ld; %ld of %d values kept, in order, on %d threads\n",
                   N - 1, s, kept, N, THREADS);
    }
    upc_all_free(x);
    upc_all_free(sum);
    upc_all_free(keep);
    upc_all_free(pos);
    upc_all_free(out);
    return bad;
}
