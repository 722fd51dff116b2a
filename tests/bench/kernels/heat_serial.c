/* The heat stencil of samples/heat.c in plain serial C: the floor.
 * (-DN=cells, -DSTEPS=steps) */
#include <stdlib.h>
#include "common.h"
#ifndef N
#define N 1000000
#endif
#ifndef STEPS
#define STEPS 100
#endif
#define ALPHA 0.25

static double update(double left, double mid, double right)
{
    return mid + ALPHA * (left - 2 * mid + right);
}

int main(void)
{
    double *v = malloc(2 * (size_t)N * sizeof(double));
    if (!v)
        return 1;
    for (long i = 0; i < N; i++)
        v[i] = i >= N / 4 && i < N / 2 ? 100.0 : 0.0;
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int step = 0; step < STEPS; step++) {
        const double *c = v + (step % 2) * (long)N;
        double *nx = v + ((step + 1) % 2) * (long)N;
        for (long i = 0; i < N; i++)
            nx[i] = update(i > 0 ? c[i - 1] : 0, c[i], i + 1 < N ? c[i + 1] : 0);
    }
    double t1 = kern_now();
    KERN_DUMP(0);
    double sum = 0;
    for (long i = 0; i < N; i++)
        sum += v[(STEPS % 2) * (long)N + i];
    KERN_REPORT("heat", t1 - t0, sum);
    free(v);
    return 0;
}
