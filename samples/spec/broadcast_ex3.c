/* Spec example: UPC 1.3 Required Library 7.4.2.1 para 11, EXAMPLE 3 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.1 as example 3).
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *   shared [NELEMS] int B[NELEMS*THREADS];
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_broadcast( B, &A[3], sizeof(int)*2,
 *                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * (A[3],A[4]) is broadcast to (B[0],B[1]), (B[10],B[11]), ...: the source
 * may start anywhere, and only the first 2 ints of each block of B change.
 * Run: broadcast_ex3 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));

    // Initialize A: A[i] = 1000 + i; and B to -1, to see what the call leaves.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
    {
        tupc_ref(A, i, NELEMS, int) = 1000 + i;
        tupc_ref(B, i, NELEMS, int) = -1;
    }
    upc_barrier();
    upc_all_broadcast(B, tupc_index(A, 3, NELEMS, int), sizeof(int) * 2,
                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[t*NELEMS] == 1003, B[t*NELEMS + 1] == 1004, the rest -1. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++) {
            int k = i % NELEMS, want = k == 0 ? 1003 : k == 1 ? 1004 : -1;
            if (tupc_ref(B, i, NELEMS, int) != want) {
                fprintf(stderr, "broadcast_ex3: B[%d] is %d, expected %d\n", i,
                        tupc_ref(B, i, NELEMS, int), want);
                bad = 1;
            }
        }
        if (!bad)
            printf("broadcast_ex3: (A[3],A[4]) = (1003,1004) at the start of each of the %d "
                   "blocks of B\n",
                   THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
