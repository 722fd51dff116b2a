/* What bench_async.c (tupc) and mpi_overlap.c (MPI) share: the computation
 * that a posted collective overlaps, and the figures' arithmetic, so that
 * both measure the same thing.
 *
 * Per collective: `coll`, the post followed at once by the wait; `comp`,
 * the computation alone, calibrated to last as long as `coll`; `both`,
 * post, compute, wait. Each is the slowest thread's time, median over the
 * rounds. The ratio both / (coll + comp) is 1 without overlap and 0.5 with
 * a perfect one. */
#ifndef TB_OVERLAP_H
#define TB_OVERLAP_H

#include "args.h"

/* A dependent chain of floating-point operations: no memory traffic, so it
 * competes with the copies for nothing but the core. */
static inline double tb_compute(long iters)
{
    double x = 1.0;
    for (long i = 0; i < iters; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

/* Iterations of tb_compute that take about `us` microseconds. */
static inline long tb_calibrate(double us)
{
    long n = 1 << 16;
    for (;;) {
        double t0 = tb_now_us();
        volatile double sink = tb_compute(n);
        (void)sink;
        double dt = tb_now_us() - t0;
        if (dt > 2000 || n > (1L << 40))
            return (long)((double)n * us / dt);
        n *= 2;
    }
}

#endif
