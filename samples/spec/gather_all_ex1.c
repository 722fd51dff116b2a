/* Spec example: UPC 1.3 Required Library 7.4.2.4 para 10, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.4 as example 1):
 * upc_all_gather_all for the static THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *   shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS];
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_gather_all( B, A, sizeof(int)*NELEMS,
 *                       UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * Every thread gets the whole of A in its row of B: a gather to all.
 * Run: gather_all_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int ROW = NELEMS * THREADS; /* ints in a row of B */
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    /* shared [ROW] int B[THREADS][ROW]: row t is thread t's block, so
     * B[t][k] is element t * ROW + k with block size ROW. */
    tupc_sptr_t B = upc_all_alloc(THREADS, ROW * sizeof(int));

    // Initialize A: A[i] = 5i + 2, each thread its own block.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 5 * i + 2;
    upc_barrier();
    upc_all_gather_all(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[t][k] == A[k] for every row t. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int t = 0; t < THREADS; t++)
            for (int k = 0; k < ROW; k++)
                if (tupc_ref(B, t * ROW + k, ROW, int) != 5 * k + 2) {
                    fprintf(stderr, "gather_all_ex1: B[%d][%d] is %d, expected %d\n", t, k,
                            tupc_ref(B, t * ROW + k, ROW, int), 5 * k + 2);
                    bad = 1;
                }
        if (!bad)
            printf("gather_all_ex1: each of the %d rows of B is A = 2 7 12 ... %d\n", THREADS,
                   5 * (ROW - 1) + 2);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
