/* samples/heat.upc written the other way a UPC programmer might: every cell
 * a shared access, in a upc_forall over the cells with &u1[i] affinity, the
 * rows swapped by two loops. For compare_tupcc.sh, which times it beside
 * heat.upc and heat.c: what the translation costs where the program leaves
 * the locality to the compiler. Checked against a serial run like heat.upc.
 * (-DCELLS=cells per thread, -DSTEPS=steps, an even number) */
/* threads: 1 2 3 */
#include <upc.h>
#include <upc_tick.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CELLS
#define CELLS 50
#endif
#ifndef STEPS
#define STEPS 300
#endif
#define N ((long)CELLS * THREADS)
#define ALPHA 0.25

shared [CELLS] double u0[CELLS * THREADS], u1[CELLS * THREADS];

static double initial(long i, long n)
{
    return i >= n / 4 && i < n / 2 ? 100.0 : 0.0;
}

static double update(double left, double mid, double right)
{
    return mid + ALPHA * (left - 2 * mid + right);
}

int main(void)
{
    upc_forall (long i = 0; i < N; i++; &u0[i])
        u0[i] = initial(i, N);
    upc_barrier;

    upc_tick_t t0 = upc_ticks_now();
    for (int step = 0; step < STEPS; step += 2) {
        upc_forall (long i = 0; i < N; i++; &u1[i])
            u1[i] = update(i > 0 ? u0[i - 1] : 0, u0[i], i + 1 < N ? u0[i + 1] : 0);
        upc_barrier;
        upc_forall (long i = 0; i < N; i++; &u0[i])
            u0[i] = update(i > 0 ? u1[i - 1] : 0, u1[i], i + 1 < N ? u1[i + 1] : 0);
        upc_barrier;
    }
    upc_tick_t t1 = upc_ticks_now();

    int bad = 0;
    if (MYTHREAD == 0) {
        double *v = malloc(2 * (size_t)N * sizeof(double));
        if (!v)
            return 1;
        for (long i = 0; i < N; i++)
            v[i] = initial(i, N);
        for (int step = 0; step < STEPS; step++) {
            const double *c = v + (step % 2) * N;
            double *nx = v + ((step + 1) % 2) * N;
            for (long i = 0; i < N; i++)
                nx[i] = update(i > 0 ? c[i - 1] : 0, c[i], i + 1 < N ? c[i + 1] : 0);
        }
        for (long i = 0; i < N && !bad; i++)
            if (fabs(u0[i] - v[i]) > 1e-9 * (1 + fabs(v[i]))) {
                fprintf(stderr, "heat_forall: cell %ld is %.17g, expected %.17g\n", i, u0[i], v[i]);
                bad = 1;
            }
        free(v);
        printf("heat: steps took %.6f s\n", (double)upc_ticks_to_ns(t1 - t0) * 1e-9);
    }
    return bad;
}
