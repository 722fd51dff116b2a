/* Classic: pi as the integral of 4 / (1 + x^2) over [0, 1], by the midpoint
 * rule. Each thread sums its own block of intervals into one element of a
 * shared array; upc_all_reduceD adds the elements up on thread 0.
 * Run: pi -n 4 [intervals] */
#include <upc.h>
#include <upc_collective.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: pi [-n N] [INTERVALS]\n"
          "pi by the midpoint rule on N UPC threads.\n"
          "\n"
          "  -n N          THREADS, before INTERVALS (default $UPC_THREADS, else one per CPU)\n"
          "  INTERVALS     intervals of [0, 1] (default 10000000)\n"
          "  -h, --help    print this text and exit\n",
          f);
}

int tupc_main(int argc, char **argv)
{
    /* tupc's main has taken -n N; every thread reads the rest, and thread 0
     * alone speaks. A bad argument returns 2 from every thread: the exit
     * status. */
    long n = 10000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            if (MYTHREAD == 0)
                usage(stdout);
            return 0;
        }
        if (argv[i][0] == '-' || i > 1) {
            if (MYTHREAD == 0) {
                fprintf(stderr, "pi: unexpected argument %s\n", argv[i]);
                usage(stderr);
            }
            return 2;
        }
        n = atol(argv[i]);
    }
    if (n < THREADS)
        n = THREADS;
    /* shared double part[THREADS]; shared double *pi (on thread 0) */
    tupc_sptr_t part = upc_all_alloc(THREADS, sizeof(double));
    tupc_sptr_t pi = upc_all_alloc(1, sizeof(double));

    double h = 1.0 / (double)n, sum = 0;
    long lo = n * MYTHREAD / THREADS, hi = n * (MYTHREAD + 1) / THREADS;
    for (long i = lo; i < hi; i++) {
        double x = h * ((double)i + 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    tupc_ref(part, MYTHREAD, 1, double) = sum * h;

    /* ALLSYNC in: every part is written before anyone reads; MYSYNC out:
     * thread 0 may read the result as soon as its own call returns. */
    upc_all_reduceD(pi, part, UPC_ADD, (size_t)THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC);
    int bad = 0;
    if (MYTHREAD == 0) {
        double v = tupc_ref(pi, 0, 0, double), err = fabs(v - 3.14159265358979323846);
        printf("pi ~ %.12f with %ld intervals on %d THREADS (error %.2e)\n", v, n, THREADS, err);
        bad = err > 1e-9;
    }
    upc_all_free(part);
    upc_all_free(pi);
    return bad;
}
