/* Spec example: UPC 1.3 Required Library 7.4.2.5 para 9, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.5 as example 1):
 * upc_all_exchange for the static THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [NELEMS*THREADS] int A[THREADS][NELEMS*THREADS];
 *   shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS];
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_exchange( B, A, NELEMS*sizeof(int),
 *                     UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * Row j of A (on thread j) is THREADS blocks of NELEMS; block i of it goes
 * to block j of row i of B: an all-to-all, the transpose of the blocks.
 * Run: exchange_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int ROW = NELEMS * THREADS; /* A[t][k] is element t * ROW + k */
    tupc_sptr_t A = upc_all_alloc(THREADS, ROW * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, ROW * sizeof(int));

    // Initialize A: A[t][k] = 1000t + k, each thread its own row.
    for (int k = 0; k < ROW; k++)
        tupc_ref(A, MYTHREAD * ROW + k, ROW, int) = 1000 * MYTHREAD + k;
    upc_barrier();
    upc_all_exchange(B, A, NELEMS * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: element e of block j of B[i] is element e of block i of
     * A[j]: B[i][j*NELEMS + e] == A[j][i*NELEMS + e]. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < THREADS; i++)
            for (int j = 0; j < THREADS; j++)
                for (int e = 0; e < NELEMS; e++) {
                    int got = tupc_ref(B, i * ROW + j * NELEMS + e, ROW, int);
                    int want = 1000 * j + i * NELEMS + e;
                    if (got != want) {
                        fprintf(stderr, "exchange_ex1: B[%d][%d] is %d, expected %d\n", i,
                                j * NELEMS + e, got, want);
                        bad = 1;
                    }
                }
        if (!bad)
            printf("exchange_ex1: block j of B[i] = block i of A[j] for all %d x %d blocks\n",
                   THREADS, THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
