/* C = A B with A and C distributed by blocks of RB rows, round robin
 * (block-cyclic rows), B a private copy in every thread, as UPC matrix
 * multiplies are written: a upc_forall over the rows by &A[i][0].
 * (-DRPT=rows per thread, -DNC=columns, -DREPS) */
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
shared [RB * NC] double A[RPT * THREADS][NC], C[RPT * THREADS][NC];
static double Bm[NC][NC];

int main(void)
{
    const int R = RPT * THREADS;
    for (int k = 0; k < NC; k++)
        for (int j = 0; j < NC; j++)
            Bm[k][j] = (double)((k + 2 * j) % 11) - 5;
    upc_forall (int i = 0; i < R; i++; &A[i][0])
        for (int k = 0; k < NC; k++)
            A[i][k] = (double)((3 * i + k) % 13) - 6;
    upc_barrier;
    double t0 = kern_now();
    KERN_ZERO(MYTHREAD);
    for (int r = 0; r < REPS; r++) {
        upc_forall (int i = 0; i < R; i++; &A[i][0]) {
            for (int j = 0; j < NC; j++)
                C[i][j] = 0;
            for (int k = 0; k < NC; k++) {
                double aik = A[i][k];
                for (int j = 0; j < NC; j++)
                    C[i][j] += aik * Bm[k][j];
            }
        }
        upc_barrier;
    }
    double t1 = kern_now();
    KERN_DUMP(MYTHREAD);
    if (MYTHREAD == 0) {
        double sum = 0;
        for (int i = 0; i < R; i++)
            sum += C[i][i % NC];
        KERN_REPORT("matmul", t1 - t0, sum);
    }
    return 0;
}
