/* spmv.upc by hand in tupc C: this thread's rows, columns and values in
 * its partition, x read locally inside its block, else through tupc_ref. */
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

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const long R = (long)RPT * THREADS, lo = (long)RPT * MYTHREAD;
    tupc_sptr_t val = upc_all_alloc(THREADS, RPT * NZ * sizeof(double));
    tupc_sptr_t col = upc_all_alloc(THREADS, RPT * NZ * sizeof(int));
    tupc_sptr_t x = upc_all_alloc(THREADS, RPT * sizeof(double));
    tupc_sptr_t y = upc_all_alloc(THREADS, RPT * sizeof(double));
    double *lv = tupc_local(tupc_index(val, lo * NZ, RPT * NZ, double));
    int *lc = tupc_local(tupc_index(col, lo * NZ, RPT * NZ, int));
    double *lx = tupc_local(tupc_index(x, lo, RPT, double));
    double *ly = tupc_local(tupc_index(y, lo, RPT, double));
    for (long r = 0; r < RPT; r++) {
        long i = lo + r;
        for (int k = 0; k < NZ; k++) {
            long c = k == NZ - 1 ? (i * 7919) % R : i + k - NZ / 2;
            lc[r * NZ + k] = (int)(c < 0 ? c + R : c >= R ? c - R : c);
            lv[r * NZ + k] = 1.0 / (1 + k);
        }
        lx[r] = (double)(i % 17);
    }
    upc_barrier();
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int rep = 0; rep < REPS; rep++) {
        for (long r = 0; r < RPT; r++) {
            double s = 0;
            for (int k = 0; k < NZ; k++) {
                long c = lc[r * NZ + k];
                double xc =
                    (unsigned long)(c - lo) < RPT ? lx[c - lo] : tupc_ref(x, c, RPT, double);
                s += lv[r * NZ + k] * xc;
            }
            ly[r] = s;
        }
        upc_barrier();
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (long i = 0; i < R; i += 101)
            sum += tupc_ref(y, i, RPT, double);
        KERN_REPORT("spmv", t1 - t0, sum);
    }
    upc_barrier();
    upc_all_free(val);
    upc_all_free(col);
    upc_all_free(x);
    upc_all_free(y);
    return 0;
}
