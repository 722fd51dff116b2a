/* is.upc by hand in tupc C: this thread's keys and histogram row through
 * local pointers, the columns read with tupc_ref. */
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
static _Thread_local int mine[NB];

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t key = upc_all_alloc(THREADS, KPT * sizeof(int));
    tupc_sptr_t hist = upc_all_alloc(THREADS, NB * sizeof(int));
    tupc_sptr_t total = upc_all_alloc((size_t)NB * THREADS, sizeof(int));
    const long lo = (long)KPT * MYTHREAD;
    int *lk = tupc_local(tupc_index(key, lo, KPT, int));
    int *lh = tupc_local(tupc_index(hist, (long)NB * MYTHREAD, NB, int));
    for (long j = 0; j < KPT; j++)
        lk[j] = (int)(((lo + j) * 2654435761u) % MAXKEY);
    upc_barrier();
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        memset(mine, 0, sizeof mine);
        for (long j = 0; j < KPT; j++)
            mine[lk[j] / (MAXKEY / NB)]++;
        memcpy(lh, mine, sizeof mine);
        upc_barrier();
        for (int b = MYTHREAD; b < NB; b += THREADS) {
            int s = 0;
            for (int t = 0; t < THREADS; t++)
                s += tupc_ref(hist, (long)t * NB + b, NB, int);
            tupc_ref(total, b, 1, int) = s;
        }
        upc_barrier();
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (int b = 0; b < NB; b++)
            sum += (double)tupc_ref(total, b, 1, int) * (b + 1);
        KERN_REPORT("is", t1 - t0, sum);
    }
    upc_barrier();
    upc_all_free(key);
    upc_all_free(hist);
    upc_all_free(total);
    return 0;
}
