/* matmul.upc by hand in tupc C: each of this thread's blocks of RB rows
 * is contiguous in its partition, a plain i-k-j loop over it. */
#include <upc.h>
#include "common.h"
#ifndef RPT
#define RPT 64
#endif
#ifndef NC
#define NC 256
#endif
#ifndef REPS
#define REPS 16
#endif
#define RB 4
static _Thread_local double Bm[NC][NC];

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const long R = (long)RPT * THREADS, nblk = (R + RB - 1) / RB;
    const size_t bs = RB * NC; /* elements a block */
    tupc_sptr_t A = upc_all_alloc((size_t)nblk, bs * sizeof(double));
    tupc_sptr_t C = upc_all_alloc((size_t)nblk, bs * sizeof(double));
    for (int k = 0; k < NC; k++)
        for (int j = 0; j < NC; j++)
            Bm[k][j] = (double)((k + 2 * j) % 11) - 5;
    for (long blk = MYTHREAD; blk < nblk; blk += THREADS) {
        double *a = tupc_local(tupc_index(A, blk * (long)bs, bs, double));
        for (long i = blk * RB; i < (blk + 1) * RB && i < R; i++)
            for (int k = 0; k < NC; k++)
                a[(i - blk * RB) * NC + k] = (double)((3 * i + k) % 13) - 6;
    }
    upc_barrier();
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        for (long blk = MYTHREAD; blk < nblk; blk += THREADS) {
            const double *a = tupc_local(tupc_index(A, blk * (long)bs, bs, double));
            double *c = tupc_local(tupc_index(C, blk * (long)bs, bs, double));
            long rows = R - blk * RB < RB ? R - blk * RB : RB;
            for (long i = 0; i < rows; i++) {
                double *ci = c + i * NC;
                for (int j = 0; j < NC; j++)
                    ci[j] = 0;
                for (int k = 0; k < NC; k++) {
                    double aik = a[i * NC + k];
                    for (int j = 0; j < NC; j++)
                        ci[j] += aik * Bm[k][j];
                }
            }
        }
        upc_barrier();
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (long i = 0; i < R; i++)
            sum += tupc_ref(C, i * NC + i % NC, bs, double);
        KERN_REPORT("matmul", t1 - t0, sum);
    }
    upc_barrier();
    upc_all_free(A);
    upc_all_free(C);
    return 0;
}
