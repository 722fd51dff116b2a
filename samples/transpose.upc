/* transpose.c in UPC: transpose a matrix distributed by rows, with one
 * all-to-all. Thread t owns R consecutive rows of A. Cut A into a
 * THREADS x THREADS grid of R x R tiles: tile (i, j) of A, transposed, is
 * tile (j, i) of the transpose AT. So thread i transposes each of its tiles
 * j locally into block j of a send buffer S, and upc_all_exchange, which
 * moves block j of thread i to block i of thread j, delivers every tile to
 * its owner. R depends on THREADS, so the arrays are allocated:
 * upc_all_alloc(THREADS, bytes) puts block t on thread t, and &X[t] of a
 * `shared double *` is its first element. Run: transpose -n 4 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>
#include <string.h>

#define N 100 /* A is N x N, whatever THREADS */

static double value(int r, int c)
{
    return r * 1000.0 + c;
}

int main(void)
{
    const int T = THREADS, me = MYTHREAD;
    const int R = (N + T - 1) / T;      /* rows per thread */
    const int NP = R * T;               /* N padded to a multiple of THREADS */
    const size_t rows = (size_t)R * NP; /* elements in a thread's rows */
    const size_t tile = (size_t)R * R;
    /* shared [R*NP] double A[NP][NP], AT likewise: thread t holds rows t*R
     * to t*R + R-1. shared [T*R*R] double S[T][T*R*R], and D for what
     * arrives: THREADS tiles on each thread. */
    shared double *A = upc_all_alloc(T, rows * sizeof(double));
    shared double *AT = upc_all_alloc(T, rows * sizeof(double));
    shared double *S = upc_all_alloc(T, T * tile * sizeof(double));
    shared double *D = upc_all_alloc(T, T * tile * sizeof(double));

    /* What a thread owns is plain memory to it: C pointers to my rows. */
    double *a = (double *)&A[me], *at = (double *)&AT[me];
    double *s = (double *)&S[me], *d = (double *)&D[me];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < NP; c++) {
            int g = me * R + r; /* the global row; the padding is zeros */
            a[r * NP + c] = g < N && c < N ? value(g, c) : 0;
        }

    /* Pack: tile j (columns j*R to j*R + R-1 of my rows), transposed, into
     * block j. The exchange moves contiguous blocks; the tiles are not. */
    for (int j = 0; j < T; j++)
        for (int r = 0; r < R; r++)
            for (int c = 0; c < R; c++)
                s[j * tile + c * R + r] = a[r * NP + j * R + c];

    /* MYSYNC in: a thread packed only its own blocks before entering.
     * MYSYNC out: a thread reads only its own blocks of D afterwards. */
    upc_all_exchange(D, S, tile * sizeof(double), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);

    /* Unpack: block i is tile (i, me) of A transposed, that is tile
     * (me, i) of AT: columns i*R to i*R + R-1 of my rows of AT. */
    for (int i = 0; i < T; i++)
        for (int r = 0; r < R; r++)
            memcpy(at + r * NP + i * R, d + i * tile + r * R, R * sizeof(double));
    upc_barrier; /* every thread's rows of AT are done */

    /* Check: AT[r][c] == A[c][r], every element, by thread 0; row r is row
     * r % R of thread r / R's block, read through a shared pointer. */
    int bad = 0;
    if (me == 0) {
        for (int r = 0; r < N && !bad; r++) {
            shared [] double *row = (shared [] double *)&AT[r / R];
            for (int c = 0; c < N && !bad; c++)
                if (row[(r % R) * NP + c] != value(c, r)) {
                    fprintf(stderr, "transpose: AT[%d][%d] is %g, expected A[%d][%d] = %g\n", r, c,
                            row[(r % R) * NP + c], c, r, value(c, r));
                    bad = 1;
                }
        }
        if (!bad)
            printf("transpose: %d x %d matrix transposed on %d threads, in %d x %d tiles\n", N, N,
                   T, R, R);
    }
    upc_barrier;
    upc_all_free(A);
    upc_all_free(AT);
    upc_all_free(S);
    upc_all_free(D);
    return bad;
}
