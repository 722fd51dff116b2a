/* walk.upc by hand in tupc C: a block of a thread is contiguous in its
 * partition, so both walks are plain pointer loops. */
#include <upc.h>
#include "common.h"
#ifndef BW
#define BW 1000000
#endif
#ifndef REPS
#define REPS 40
#endif

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t w = upc_all_alloc(THREADS, BW * sizeof(int));
    int *lw = tupc_local(tupc_index(w, (long)MYTHREAD * BW, BW, int));
    for (long j = 0; j < BW; j++)
        lw[j] = (int)(j % 9);
    upc_barrier();
    long sum = 0;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        int next = (MYTHREAD + 1) % THREADS;
        for (const int *p = lw; p < lw + BW; p++)
            sum += *p;
        const int *nw = tupc_local(tupc_index(w, (long)next * BW, BW, int));
        for (const int *p = nw; p != nw + BW; ++p)
            sum += *p;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    upc_barrier();
    if (MYTHREAD == 0)
        KERN_REPORT("walk", t1 - t0, sum);
    upc_barrier();
    upc_all_free(w);
    return 0;
}
