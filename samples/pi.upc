/* pi.c in UPC: pi as the integral of 4 / (1 + x^2) over [0, 1], by the
 * midpoint rule. Each thread sums its own share of the intervals into its
 * element of part; upc_all_reduceD adds them up into pi, on thread 0.
 * Run: pi -n 4 [intervals] */
#include <upc.h>
#include <upc_collective.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

shared double part[THREADS];
shared double pi;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    if (n < THREADS)
        n = THREADS;

    double h = 1.0 / (double)n, sum = 0;
    long lo = n * MYTHREAD / THREADS, hi = n * (MYTHREAD + 1) / THREADS;
    for (long i = lo; i < hi; i++) {
        double x = h * ((double)i + 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    part[MYTHREAD] = sum * h;

    /* ALLSYNC in: every part is written before anyone reads; MYSYNC out:
     * thread 0 may read pi as soon as its own call returns. */
    upc_all_reduceD(&pi, part, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC);
    int bad = 0;
    if (MYTHREAD == 0) {
        double err = fabs(pi - 3.14159265358979323846);
        printf("pi ~ %.12f with %ld intervals on %d THREADS (error %.2e)\n", pi, n, THREADS, err);
        bad = err > 1e-9;
    }
    return bad;
}
