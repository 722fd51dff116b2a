/* prefix_sum.c in UPC: a parallel prefix sum (a scan), and what it is for.
 * upc_all_prefix_reduceL makes sum[i] = x[i] + all the elements before it,
 * each thread working on the elements it owns. A scan of 0/1 flags then
 * tells each thread where its kept elements go in a shared output array,
 * with no further talk between threads: stream compaction, here keeping
 * the multiples of 3. Run: prefix_sum -n 4 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define PER 250 /* elements per thread */
#define N (PER * THREADS)

/* blocks of PER, one per thread: x[i] on thread i / PER */
shared [PER] long x[PER * THREADS];
shared [PER] long sum[PER * THREADS];  /* running sums of x */
shared [PER] long keep[PER * THREADS]; /* 1 where x[i] is kept */
shared [PER] long pos[PER * THREADS];  /* running sums of keep */
shared [PER] long out[PER * THREADS];  /* the kept values */

static long value(long i)
{
    return (i * 37 + 11) % 100;
}

int main(void)
{
    /* iteration i runs on the thread x[i] has affinity to: each thread
     * writes only its own elements */
    upc_forall (long i = 0; i < N; i++; &x[i]) {
        x[i] = value(i);
        keep[i] = value(i) % 3 == 0;
    }

    /* IN_MYSYNC: a thread's elements are read once it has entered the
     * call, after it wrote them. OUT_MYSYNC: a thread may read its own
     * results as soon as its call returns. */
    upc_all_prefix_reduceL(sum, x, UPC_ADD, N, PER, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    upc_all_prefix_reduceL(pos, keep, UPC_ADD, N, PER, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);

    /* a kept x[i] is number pos[i] among the kept ones: it goes to
     * out[pos[i] - 1], on whichever thread owns that element */
    upc_forall (long i = 0; i < N; i++; &x[i])
        if (keep[i])
            out[pos[i] - 1] = x[i];
    upc_barrier; /* every write to out is done before thread 0 reads it */

    int bad = 0;
    if (MYTHREAD == 0) {
        long s = 0, kept = 0;
        for (long i = 0; i < N && !bad; i++) {
            s += value(i);
            if (sum[i] != s) {
                fprintf(stderr, "prefix_sum: sum[%ld] is %ld, expected %ld\n", i, sum[i], s);
                bad = 1;
            }
            if (value(i) % 3 == 0 && out[kept++] != value(i)) {
                fprintf(stderr, "prefix_sum: out[%ld] is %ld, expected x[%ld] = %ld\n", kept - 1,
                        out[kept - 1], i, value(i));
                bad = 1;
            }
        }
        if (!bad && pos[N - 1] != kept) {
            fprintf(stderr, "prefix_sum: pos[N-1] is %ld, expected %ld kept\n", pos[N - 1], kept);
            bad = 1;
        }
        if (!bad)
            printf("prefix_sum: sum[%d] = %ld; %ld of %d values kept, in order, on %d threads\n",
                   N - 1, s, kept, N, THREADS);
    }
    return bad;
}
