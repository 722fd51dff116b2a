/* matmul.c in UPC: C = A x B for N x N matrices distributed by block rows,
 * with broadcasts of blocks. Thread t owns R rows of A, B and C. Its rows
 * of C need all of B, so in round k thread k's rows of B are broadcast to
 * every thread, and each thread adds their product with the matching R
 * columns of its rows of A into its rows of C. Small integers in doubles
 * keep every sum exact. R depends on THREADS, so the rows are allocated:
 * upc_all_alloc(THREADS, bytes) puts block t on thread t, and &X[t] of a
 * `shared double *` is the first element of it (the UPC 1.3 collectives'
 * examples do the same). Run: matmul -n 4 */
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

int main(void)
{
    const int T = THREADS, me = MYTHREAD;
    const int R = (N + T - 1) / T, NP = R * T; /* rows per thread; N padded */
    const size_t rows = (size_t)R * NP;        /* elements in a thread's rows */
    shared double *A = upc_all_alloc(T, rows * sizeof(double));
    shared double *B = upc_all_alloc(T, rows * sizeof(double));
    shared double *C = upc_all_alloc(T, rows * sizeof(double));
    shared double *Bk = upc_all_alloc(T, rows * sizeof(double)); /* the broadcast rows */

    /* my rows, as C arrays: a[r*NP + j] is A[me*R + r][j] */
    double *a = (double *)&A[me], *b = (double *)&B[me], *c = (double *)&C[me];
    const double *bk = (double *)&Bk[me];
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
         * entered, so thread k has written its rows of B, and every thread
         * is done with its Bk of round k-1. MYSYNC out: my block of Bk is
         * complete when my call returns. */
        upc_all_broadcast(Bk, &B[k], rows * sizeof(double), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        for (int r = 0; r < R; r++)
            for (int q = 0; q < R; q++) {
                double aik = a[r * NP + k * R + q];
                for (int j = 0; j < NP; j++)
                    c[r * NP + j] += aik * bk[q * NP + j];
            }
    }
    upc_barrier; /* every thread's rows of C are done */

    /* every element of C against a serial product, by thread 0; row i is
     * row i % R of thread i / R's block */
    int bad = 0;
    if (me == 0) {
        for (int i = 0; i < N && !bad; i++) {
            shared [] double *row = (shared [] double *)&C[i / R];
            for (int j = 0; j < N && !bad; j++) {
                double want = 0;
                for (int k = 0; k < N; k++)
                    want += a_value(i, k) * b_value(k, j);
                if (row[(i % R) * NP + j] != want) {
                    fprintf(stderr, "matmul: C[%d][%d] is %g, expected %g\n", i, j,
                            row[(i % R) * NP + j], want);
                    bad = 1;
                }
            }
        }
        if (!bad)
            printf("matmul: %d x %d product on %d threads, %d broadcasts of %d rows; C[0][0] = "
                   "%g\n",
                   N, N, T, T, R, C[0]);
    }
    upc_barrier;
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(C);
    upc_all_free(Bk);
    return bad;
}
