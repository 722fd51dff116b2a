/* Classic: transpose a matrix distributed by rows, with one all-to-all.
 * Thread t owns R consecutive rows of A. Cut A into a THREADS x THREADS
 * grid of R x R tiles: tile (i, j) of A, transposed, is tile (j, i) of the
 * transpose AT. So thread i transposes each of its tiles j locally into
 * block j of a send buffer, and upc_all_exchange, which moves block j of
 * thread i to block i of thread j, delivers every tile to its owner.
 * Run: transpose -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <string.h>

#define N 100 /* A is N x N, whatever THREADS */

static double value(int r, int c)
{
    return r * 1000.0 + c;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int T = THREADS, me = MYTHREAD;
    const int R = (N + T - 1) / T; /* rows per thread */
    const int NP = R * T;          /* N padded to a multiple of THREADS */
    /* shared [R*NP] double A[NP][NP], AT likewise: thread t holds rows
     * t*R to t*R + R-1, one after the other. The padding is zeros. */
    const size_t rows = (size_t)R * NP; /* elements in a thread's rows */
    tupc_sptr_t A = upc_all_alloc(T, rows * sizeof(double));
    tupc_sptr_t AT = upc_all_alloc(T, rows * sizeof(double));
    /* shared [T*R*R] double S[T][T*R*R], and D for what arrives: THREADS
     * blocks of one tile per thread. */
    const size_t tile = (size_t)R * R;
    tupc_sptr_t S = upc_all_alloc(T, T * tile * sizeof(double));
    tupc_sptr_t D = upc_all_alloc(T, T * tile * sizeof(double));

    /* What a thread owns is plain memory to it: C pointers to my rows. */
    double *a = tupc_local(tupc_index(A, me * rows, rows, double));
    double *at = tupc_local(tupc_index(AT, me * rows, rows, double));
    double *s = tupc_local(tupc_index(S, me * T * tile, T * tile, double));
    double *d = tupc_local(tupc_index(D, me * T * tile, T * tile, double));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < NP; c++) {
            int g = me * R + r; /* the global row */
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
    upc_barrier(); /* every thread's rows of AT are done */

    /* Check: AT[r][c] == A[c][r], every element, by thread 0. */
    int bad = 0;
    if (me == 0) {
        for (int r = 0; r < N && !bad; r++)
            for (int c = 0; c < N && !bad; c++) {
                /* Any thread's element, here or (built with MPI) in another process. */
                double got = tupc_get_double(tupc_index(AT, r * NP + c, rows, double));
                if (got != value(c, r)) {
                    fprintf(stderr, "transpose: AT[%d][%d] is %g, expected A[%d][%d] = %g\n", r, c,
                            got, c, r, value(c, r));
                    bad = 1;
                }
            }
        if (!bad)
            printf("transpose: %d x %d matrix transposed on %d threads, in %d x %d tiles\n", N, N,
                   T, R, R);
    }
    upc_all_free(A);
    upc_all_free(AT);
    upc_all_free(S);
    upc_all_free(D);
    return bad;
}
