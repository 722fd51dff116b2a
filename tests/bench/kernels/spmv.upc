/* y = A x for a sparse A with NZ entries a row (CG's kernel), rows in one
 * block per thread, as UPC writes it: the matrix as shared arrays of the
 * rows' layout, x shared and read where the column says (mostly the
 * thread's own block: a band, and one far entry a row).
 * (-DRPT=rows per thread, -DNZ, -DREPS) */
#include <upc.h>
#include "common.h"
#ifndef RPT
#define RPT 50000
#endif
#ifndef NZ
#define NZ 16
#endif
#ifndef REPS
#define REPS 30
#endif
shared [RPT * NZ] double val[RPT * THREADS][NZ];
shared [RPT * NZ] int col[RPT * THREADS][NZ];
shared [RPT] double x[RPT * THREADS], y[RPT * THREADS];

int main(void)
{
    const long R = (long)RPT * THREADS;
    upc_forall (long i = 0; i < R; i++; &y[i]) {
        for (int k = 0; k < NZ; k++) {
            long c = k == NZ - 1 ? (i * 7919) % R : i + k - NZ / 2;
            col[i][k] = (int)(c < 0 ? c + R : c >= R ? c - R : c);
            val[i][k] = 1.0 / (1 + k);
        }
        x[i] = (double)(i % 17);
    }
    upc_barrier;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        upc_forall (long i = 0; i < R; i++; &y[i]) {
            double s = 0;
            for (int k = 0; k < NZ; k++)
                s += val[i][k] * x[col[i][k]];
            y[i] = s;
        }
        upc_barrier;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (long i = 0; i < R; i += 101)
            sum += y[i];
        KERN_REPORT("spmv", t1 - t0, sum);
    }
    return 0;
}
