/* Classic: the 1-D heat equation by explicit finite differences. A rod of
 * N cells is cut into one block of cells per thread; at each step a cell
 * moves towards the mean of its two neighbours. A thread needs one cell
 * from each neighbouring block, its halo, and fetches it with upc_memget.
 * Two shared arrays, one read and the other written, swapped every step,
 * need one barrier per step. Checked against a serial run.
 * Run: heat -n 4
 * (-DN=cells, -DSTEPS=steps; -DHEAT_TIME prints the steps' time:
 * tests/bench/compare_tupcc.sh times it against heat.upc, its UPC form) */
#include <upc.h>
#include <upc_tick.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200 /* cells, whatever THREADS */
#endif
#ifndef STEPS
#define STEPS 300 /* time steps */
#endif
#define ALPHA 0.25

static double initial(long i)
{
    return i >= N / 4 && i < N / 2 ? 100.0 : 0.0; /* a hot stretch */
}

static double update(double left, double mid, double right)
{
    return mid + ALPHA * (left - 2 * mid + right);
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* shared [*] double u[2][N]: cell i on thread i / B. */
    const size_t B = (N + THREADS - 1) / THREADS;
    tupc_sptr_t u[2] = {upc_all_alloc(THREADS, B * sizeof(double)),
                        upc_all_alloc(THREADS, B * sizeof(double))};
    long lo = (long)B * MYTHREAD, hi = lo + (long)B; /* my cells: lo to hi-1 */
    if (lo > N)
        lo = N;
    if (hi > N)
        hi = N;
    const long n = hi - lo;

    upc_forall(long i = 0, i < N, i++, tupc_index(u[0], i, B, double))
        tupc_ref(u[0], i, B, double) = initial(i);
    upc_barrier(); /* the halos read in step 0 are written */

    upc_tick_t t0 = upc_ticks_now();
    for (int step = 0; step < STEPS; step++) {
        tupc_sptr_t cur = u[step % 2], next = u[(step + 1) % 2];
        /* The ends of the rod are held at 0. upc_memget copies from shared
         * memory on any thread into private memory: one cell each side. */
        double left = 0, right = 0;
        if (n > 0 && lo > 0)
            upc_memget(&left, tupc_index(cur, lo - 1, B, double), sizeof(double));
        if (n > 0 && hi < N)
            upc_memget(&right, tupc_index(cur, hi, B, double), sizeof(double));
        if (n > 0) {
            /* My own cells are plain memory to me. */
            const double *c = tupc_local(tupc_index(cur, lo, B, double));
            double *nx = tupc_local(tupc_index(next, lo, B, double));
            for (long i = 0; i < n; i++)
                nx[i] = update(i > 0 ? c[i - 1] : left, c[i], i + 1 < n ? c[i + 1] : right);
        }
        /* One barrier: after it, every thread has read cur and written
         * next, so the next step may read next and overwrite cur. */
        upc_barrier();
    }
    upc_tick_t t1 = upc_ticks_now();

    /* Check: thread 0 runs the same steps serially. Equal but for
     * rounding: a compiler may fuse a multiply-add in one loop only. */
    int bad = 0;
    if (MYTHREAD == 0) {
        double(*v)[N] = malloc(2 * sizeof *v);
        if (!v)
            return 1;
        for (long i = 0; i < N; i++)
            v[0][i] = initial(i);
        for (int step = 0; step < STEPS; step++) {
            const double *c = v[step % 2];
            double *nx = v[(step + 1) % 2];
            for (long i = 0; i < N; i++)
                nx[i] = update(i > 0 ? c[i - 1] : 0, c[i], i + 1 < N ? c[i + 1] : 0);
        }
        double total = 0;
        for (long i = 0; i < N; i++) {
            /* Any thread's cell, in this process or (built with MPI) another. */
            double got = tupc_get_double(tupc_index(u[STEPS % 2], i, B, double));
            double want = v[STEPS % 2][i];
            total += got;
            if (!bad && fabs(got - want) > 1e-9 * (1 + fabs(want))) {
                fprintf(stderr, "heat: cell %ld is %.17g, expected %.17g\n", i, got, want);
                bad = 1;
            }
        }
        free(v);
        if (!bad)
            printf("heat: %d steps on %ld cells and %d threads; heat left in the rod %.6f\n", STEPS,
                   (long)N, THREADS, total);
#ifdef HEAT_TIME
        printf("heat: steps took %.6f s\n", (double)upc_ticks_to_ns(t1 - t0) * 1e-9);
#endif
    }
    (void)t0, (void)t1;
    upc_all_free(u[0]);
    upc_all_free(u[1]);
    return bad;
}
