/* STREAM triad over shared arrays, as a UPC textbook writes it: cyclic
 * arrays, a upc_forall over &a[i]. (-DNPT=elements per thread, -DREPS) */
#include <upc.h>
#include "common.h"
#ifndef NPT
#define NPT 1000000
#endif
#ifndef REPS
#define REPS 40
#endif
shared double a[NPT * THREADS], b[NPT * THREADS], c[NPT * THREADS];

int main(void)
{
    const long n = (long)NPT * THREADS;
    upc_forall (long i = 0; i < n; i++; &a[i]) {
        a[i] = 0;
        b[i] = (double)(i % 7);
        c[i] = (double)(i % 5);
    }
    upc_barrier;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        upc_forall (long i = 0; i < n; i++; &a[i])
            a[i] = b[i] + 3.0 * c[i];
        upc_barrier;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (long i = 0; i < n; i += 997)
            sum += a[i];
        KERN_REPORT("triad", t1 - t0, sum);
    }
    return 0;
}
