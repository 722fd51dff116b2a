/* A pointer-to-shared walk over a blocked array: each thread sums its own
 * block, and then its right neighbour's, by stepping a shared [BW] int *
 * from the block's first element to past its last. (-DBW=elements per
 * thread, -DREPS) */
#include <upc.h>
#include "common.h"
#ifndef BW
#define BW 1000000
#endif
#ifndef REPS
#define REPS 40
#endif
shared [BW] int w[BW * THREADS];

int main(void)
{
    for (shared [BW] int *p = &w[(long)MYTHREAD * BW]; p < &w[(long)(MYTHREAD + 1) * BW]; p++)
        *p = (int)((p - &w[(long)MYTHREAD * BW]) % 9);
    upc_barrier;
    long sum = 0;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        int next = (MYTHREAD + 1) % THREADS;
        shared [BW] int *end = &w[(long)MYTHREAD * BW] + BW;
        for (shared [BW] int *p = &w[(long)MYTHREAD * BW]; p < end; p++)
            sum += *p;
        end = &w[(long)next * BW] + BW;
        for (shared [BW] int *p = &w[(long)next * BW]; p != end; ++p)
            sum += *p;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    upc_barrier;
    if (MYTHREAD == 0)
        KERN_REPORT("walk", t1 - t0, sum);
    return 0;
}
