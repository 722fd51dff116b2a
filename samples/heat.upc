/* heat.c in UPC: the 1-D heat equation by explicit finite differences. A rod
 * of CELLS cells per thread, one block each; at each step a cell moves towards
 * the mean of its two neighbours. The cells either side of a thread's block,
 * its halo, are a neighbour's: plain shared reads. Its own cells it reaches
 * through a pointer-to-local, as UPC allows for its own block. Two rows of
 * u, one read and the other written, swap every step: one barrier a step.
 * Checked against a serial run. Run: heat -n 4
 * (-DCELLS=cells per thread, -DSTEPS=steps; -DHEAT_TIME prints the steps' time:
 * tests/bench/compare_tupcc.sh times it against heat.c) */
#include <upc.h>
#include <upc_tick.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CELLS
#define CELLS 50 /* cells per thread */
#endif
#ifndef STEPS
#define STEPS 300
#endif
#define N ((long)CELLS * THREADS)
#define ALPHA 0.25

/* u[k][i], cell i at generation k mod 2: row k is THREADS blocks of CELLS, so
 * cells CELLS * t to CELLS * t + CELLS - 1 of either row are thread t's. */
shared [CELLS] double u[2][CELLS * THREADS];

static double initial(long i, long n)
{
    return i >= n / 4 && i < n / 2 ? 100.0 : 0.0; /* a hot stretch */
}

static double update(double left, double mid, double right)
{
    return mid + ALPHA * (left - 2 * mid + right);
}

int main(void)
{
    const long lo = (long)CELLS * MYTHREAD, hi = lo + CELLS; /* my cells: lo to hi-1 */

    upc_forall (long i = 0; i < N; i++; &u[0][i])
        u[0][i] = initial(i, N);
    upc_barrier; /* the halos read in step 0 are written */

    upc_tick_t t0 = upc_ticks_now();
    for (int step = 0; step < STEPS; step++) {
        int cur = step % 2, nxt = 1 - cur;
        /* the ends of the rod are held at 0 */
        double left = lo > 0 ? u[cur][lo - 1] : 0;
        double right = hi < N ? u[cur][hi] : 0;
        const double *c = (double *)&u[cur][lo];
        double *nx = (double *)&u[nxt][lo];
        for (long i = 0; i < CELLS; i++)
            nx[i] = update(i > 0 ? c[i - 1] : left, c[i], i + 1 < CELLS ? c[i + 1] : right);
        /* after it every thread has read cur and written nxt */
        upc_barrier;
    }
    upc_tick_t t1 = upc_ticks_now();

    /* Thread 0 runs the same steps serially. Equal but for rounding: a
     * compiler may fuse a multiply-add in one loop only. */
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
        double total = 0;
        for (long i = 0; i < N; i++) {
            double got = u[STEPS % 2][i], want = v[(STEPS % 2) * N + i];
            total += got;
            if (!bad && fabs(got - want) > 1e-9 * (1 + fabs(want))) {
                fprintf(stderr, "heat: cell %ld is %.17g, expected %.17g\n", i, got, want);
                bad = 1;
            }
        }
        free(v);
        if (!bad)
            printf("heat: %d steps on %ld cells and %d threads; heat left in the rod %.6f\n",
                   STEPS, N, THREADS, total);
#ifdef HEAT_TIME
        printf("heat: steps took %.6f s\n", (double)upc_ticks_to_ns(t1 - t0) * 1e-9);
#endif
    }
    (void)t0, (void)t1;
    return bad;
}
