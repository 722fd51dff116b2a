/* matmul.upc in plain serial C: the floor. (-DR=rows, -DNC, -DREPS) */
#include <stdlib.h>
#include "common.h"
#ifndef R
#define R 64
#endif
#ifndef NC
#define NC 256
#endif
#ifndef REPS
#define REPS 16
#endif
static double Bm[NC][NC];

int main(void)
{
    double(*A)[NC] = malloc(sizeof(double[R][NC])), (*C)[NC] = malloc(sizeof(double[R][NC]));
    if (!A || !C)
        return 1;
    for (int k = 0; k < NC; k++)
        for (int j = 0; j < NC; j++)
            Bm[k][j] = (double)((k + 2 * j) % 11) - 5;
    for (long i = 0; i < R; i++)
        for (int k = 0; k < NC; k++)
            A[i][k] = (double)((3 * i + k) % 13) - 6;
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int r = 0; r < REPS; r++)
        for (long i = 0; i < R; i++) {
            for (int j = 0; j < NC; j++)
                C[i][j] = 0;
            for (int k = 0; k < NC; k++) {
                double aik = A[i][k];
                for (int j = 0; j < NC; j++)
                    C[i][j] += aik * Bm[k][j];
            }
        }
    double t1 = kern_now();
    KERN_DUMP(0);
    double sum = 0;
    for (long i = 0; i < R; i++)
        sum += C[i][i % NC];
    KERN_REPORT("matmul", t1 - t0, sum);
    free(A), free(C);
    return 0;
}
