/* STREAM triad by hand in tupc C: each thread's elements of the cyclic
 * arrays are contiguous in its partition, a plain loop over them. */
#include <upc.h>
#include "common.h"
#ifndef NPT
#define NPT 1000000
#endif
#ifndef REPS
#define REPS 40
#endif

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const long n = (long)NPT * THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)n, sizeof(double));
    tupc_sptr_t b = upc_all_alloc((size_t)n, sizeof(double));
    tupc_sptr_t c = upc_all_alloc((size_t)n, sizeof(double));
    double *la = tupc_local(tupc_index(a, MYTHREAD, 1, double));
    double *lb = tupc_local(tupc_index(b, MYTHREAD, 1, double));
    double *lc = tupc_local(tupc_index(c, MYTHREAD, 1, double));
    const long mine = (n - MYTHREAD + THREADS - 1) / THREADS;
    for (long j = 0; j < mine; j++) {
        long i = MYTHREAD + j * THREADS;
        la[j] = 0;
        lb[j] = (double)(i % 7);
        lc[j] = (double)(i % 5);
    }
    upc_barrier();
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        for (long j = 0; j < mine; j++)
            la[j] = lb[j] + 3.0 * lc[j];
        upc_barrier();
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (long i = 0; i < n; i += 997)
            sum += tupc_ref(a, i, 1, double);
        KERN_REPORT("triad", t1 - t0, sum);
    }
    upc_barrier();
    upc_all_free(a);
    upc_all_free(b);
    upc_all_free(c);
    return 0;
}
