/* Classic: C = A x B for N x N matrices distributed by block rows, with
 * broadcasts of blocks. Thread t owns R rows of A, B and C. Its rows of C
 * need all of B, so in round k thread k's rows of B are broadcast to every
 * thread, and each thread adds their product with the matching R columns
 * of its rows of A into its rows of C. Small integers in doubles keep
 * every sum exact, so the check against a serial product is exact.
 * Run: matmul -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define N 96 /* the matrices are N x N, whatever THREADS */

static double a_value(int i, int j)
{
    return (i + 2 * j) % 7 - 3;
}

static double b_value(int i, int j)
{
    return (3 * i + j) % 5 - 2;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int T = THREADS, me = MYTHREAD;
    const int R = (N + T - 1) / T, NP = R * T; /* rows per thread; N padded */
    const size_t rows = (size_t)R * NP;        /* elements in a thread's rows */
    /* shared [R*NP] double A[NP][NP], B and C likewise: row block t on
     * thread t. Bk has one such block per thread, for the broadcasts. */
    tupc_sptr_t A = upc_all_alloc(T, rows * sizeof(double));
    tupc_sptr_t B = upc_all_alloc(T, rows * sizeof(double));
    tupc_sptr_t C = upc_all_alloc(T, rows * sizeof(double));
    tupc_sptr_t Bk = upc_all_alloc(T, rows * sizeof(double));

    /* My rows, as C arrays: a[r*NP + j] is A[me*R + r][j]. */
    double *a = tupc_local(tupc_index(A, me * rows, rows, double));
    double *b = tupc_local(tupc_index(B, me * rows, rows, double));
    double *c = tupc_local(tupc_index(C, me * rows, rows, double));
    const double *bk = tupc_local(tupc_index(Bk, me * rows, rows, double));
    for (int r = 0; r < R; r++)
        for (int j = 0; j < NP; j++) {
            int i = me * R + r, in = i < N && j < N; /* zeros in the padding */
            a[r * NP + j] = in ? a_value(i, j) : 0;
            b[r * NP + j] = in ? b_value(i, j) : 0;
            c[r * NP + j] = 0;
        }

    for (int k = 0; k < T; k++) {
        /* Thread k's rows of B to every thread's block of Bk. MYSYNC in:
         * the call touches a thread's data only once that thread has
         * entered: thread k has written its rows of B by then, and every
         * thread is done with its block of Bk from round k-1. MYSYNC out: my
         * block of Bk is complete when my call returns. */
        upc_all_broadcast(Bk, tupc_index(B, k * rows, rows, double), rows * sizeof(double),
                          UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        /* C[my rows] += A[my rows][columns kR to kR+R-1] x B[rows kR to kR+R-1] */
        for (int r = 0; r < R; r++)
            for (int q = 0; q < R; q++) {
                double aik = a[r * NP + k * R + q];
                for (int j = 0; j < NP; j++)
                    c[r * NP + j] += aik * bk[q * NP + j];
            }
    }
    upc_barrier(); /* every thread's rows of C are done */

    /* Check: every element of C against a serial product, by thread 0. */
    int bad = 0;
    if (me == 0) {
        for (int i = 0; i < N && !bad; i++)
            for (int j = 0; j < N && !bad; j++) {
                double want = 0;
                for (int k = 0; k < N; k++)
                    want += a_value(i, k) * b_value(k, j);
                /* Any thread's element, here or (built with MPI) in another process. */
                double got = tupc_get_double(tupc_index(C, i * NP + j, rows, double));
                if (got != want) {
                    fprintf(stderr, "matmul: C[%d][%d] is %g, expected %g\n", i, j, got, want);
                    bad = 1;
                }
            }
        if (!bad)
            printf("matmul: %d x %d product on %d threads, %d broadcasts of %d rows; C[0][0] = "
                   "%g\n",
                   N, N, T, T, R, tupc_ref(C, 0, rows, double));
    }
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(C);
    upc_all_free(Bk);
    return bad;
}
