/* The counting step of an integer bucket sort (IS's kernel), as UPC writes
 * it: keys in one block per thread, each thread counts its own keys into
 * a private histogram, publishes it as its row of a shared histogram, and
 * sums the column of each bucket it owns. (-DKPT=keys per thread, -DNB
 * buckets, -DREPS) */
#include <upc.h>
#include <string.h>
#include "common.h"
#ifndef KPT
#define KPT 1000000
#endif
#ifndef NB
#define NB 1024
#endif
#ifndef REPS
#define REPS 40
#endif
#define MAXKEY (1 << 20)
shared [KPT] int key[KPT * THREADS];
shared [NB] int hist[NB * THREADS];  /* row t: thread t's counts */
shared int total[NB * THREADS];      /* bucket b's keys, in total[b] */
static int mine[NB];

int main(void)
{
    const long nk = (long)KPT * THREADS;
    upc_forall (long i = 0; i < nk; i++; &key[i])
        key[i] = (int)((i * 2654435761u) % MAXKEY);
    upc_barrier;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        memset(mine, 0, sizeof mine);
        upc_forall (long i = 0; i < nk; i++; &key[i])
            mine[key[i] / (MAXKEY / NB)]++;
        upc_forall (int b = MYTHREAD * NB; b < (MYTHREAD + 1) * NB; b++; &hist[b])
            hist[b] = mine[b - MYTHREAD * NB];
        upc_barrier;
        upc_forall (int b = 0; b < NB; b++; &total[b]) {
            int s = 0;
            for (int t = 0; t < THREADS; t++)
                s += hist[t * NB + b];
            total[b] = s;
        }
        upc_barrier;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (int b = 0; b < NB; b++)
            sum += (double)total[b] * (b + 1);
        KERN_REPORT("is", t1 - t0, sum);
    }
    return 0;
}
