/* Spec example: UPC 1.3 Required Library 7.4.2.3 para 10, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.3 as example 1):
 * upc_all_gather for the static THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *   shared [] int B[NELEMS*THREADS];
 *   // Initialize A.
 *   upc_all_gather( B, A, sizeof(int)*NELEMS,
 *                   UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * Thread i's block of A becomes block i of B, which is all on thread 0.
 * Run: gather_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    /* shared [] int B[NELEMS*THREADS]: one block, on thread 0. */
    tupc_sptr_t B = upc_all_alloc(1, NELEMS * THREADS * sizeof(int));

    // Initialize A: A[i] = 11i, each thread its own block.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 11 * i;
    upc_all_gather(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: B[i] == A[i]. B is thread 0's, and after ALLSYNC out every
     * thread could read it; thread 0 checks. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++)
            if (tupc_ref(B, i, 0, int) != 11 * i) {
                fprintf(stderr, "gather_ex1: B[%d] is %d, expected %d\n", i, tupc_ref(B, i, 0, int),
                        11 * i);
                bad = 1;
            }
        if (!bad)
            printf("gather_ex1: B[i] = A[i] = 11i for all %d elements, on thread 0\n",
                   NELEMS * THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
