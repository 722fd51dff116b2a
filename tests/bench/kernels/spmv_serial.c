/* spmv.upc in plain serial C: the floor. (-DR=rows, -DNZ, -DREPS) */
#include <stdlib.h>
#include "common.h"
#ifndef R
#define R 50000
#endif
#ifndef NZ
#define NZ 16
#endif
#ifndef REPS
#define REPS 30
#endif

int main(void)
{
    double *val = malloc(sizeof(double) * R * NZ), *x = malloc(sizeof(double) * R),
           *y = malloc(sizeof(double) * R);
    int *col = malloc(sizeof(int) * R * NZ);
    if (!val || !x || !y || !col)
        return 1;
    for (long i = 0; i < R; i++) {
        for (int k = 0; k < NZ; k++) {
            long c = k == NZ - 1 ? (i * 7919) % R : i + k - NZ / 2;
            col[i * NZ + k] = (int)(c < 0 ? c + R : c >= R ? c - R : c);
            val[i * NZ + k] = 1.0 / (1 + k);
        }
        x[i] = (double)(i % 17);
    }
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int rep = 0; rep < REPS; rep++)
        for (long i = 0; i < R; i++) {
            double s = 0;
            for (int k = 0; k < NZ; k++)
                s += val[i * NZ + k] * x[col[i * NZ + k]];
            y[i] = s;
        }
    double t1 = kern_now();
    KERN_DUMP(0);
    double sum = 0;
    for (long i = 0; i < R; i += 101)
        sum += y[i];
    KERN_REPORT("spmv", t1 - t0, sum);
    free(val), free(x), free(y), free(col);
    return 0;
}
