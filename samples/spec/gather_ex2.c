/* Spec example: UPC 1.3 Required Library 7.4.2.3 para 11, EXAMPLE 2 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.3 as example 2):
 * upc_all_gather for the dynamic THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *   shared [] int *B;
 *   B = (shared [] int *) upc_all_alloc(1,NELEMS*THREADS*sizeof(int));
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_gather( B, A, sizeof(int)*NELEMS,
 *                   UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * As gather_ex1.c, with B allocated at run time and the synchronization
 * done by barriers around a NOSYNC call. Run: gather_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t B;
    /* The cast to (shared [] int *) is in how B is indexed: block size 0. */
    B = upc_all_alloc(1, NELEMS * THREADS * sizeof(int));

    // Initialize A: A[i] = 11i + 1, each thread its own block.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 11 * i + 1;
    upc_barrier();
    upc_all_gather(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[i] == A[i]. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++)
            if (tupc_ref(B, i, 0, int) != 11 * i + 1) {
                fprintf(stderr, "gather_ex2: B[%d] is %d, expected %d\n", i, tupc_ref(B, i, 0, int),
                        11 * i + 1);
                bad = 1;
            }
        if (!bad)
            printf("gather_ex2: B[i] = A[i] = 11i + 1 for all %d elements, on thread 0\n",
                   NELEMS * THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
