/* STREAM triad in plain serial C: the floor. (-DN=elements) */
#include <stdlib.h>
#include "common.h"
#ifndef N
#define N 1000000
#endif
#ifndef REPS
#define REPS 40
#endif

int main(void)
{
    double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double)),
           *c = malloc(N * sizeof(double));
    if (!a || !b || !c)
        return 1;
    for (long i = 0; i < N; i++) {
        a[i] = 0;
        b[i] = (double)(i % 7);
        c[i] = (double)(i % 5);
    }
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int r = 0; r < REPS; r++)
        for (long i = 0; i < N; i++)
            a[i] = b[i] + 3.0 * c[i];
    double t1 = kern_now();
    KERN_DUMP(0);
    double sum = 0;
    for (long i = 0; i < N; i += 997)
        sum += a[i];
    KERN_REPORT("triad", t1 - t0, sum);
    free(a), free(b), free(c);
    return 0;
}
