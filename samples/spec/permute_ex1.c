/* Spec example: UPC 1.3 Required Library 7.4.2.6 para 10, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.6 as example 1).
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS], B[NELEMS*THREADS];
 *   shared int P[THREADS];
 *   // Initialize A and P.
 *   upc_barrier;
 *   upc_all_permute( B, A, P, sizeof(int)*NELEMS,
 *                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * Thread i's block of A goes to thread P[i]'s block of B. P must hold each
 * of 0..THREADS-1 once; here it is a rotation, P[i] = (i + 1) % THREADS.
 * Run: permute_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(int)); /* shared int P[THREADS] */

    // Initialize A and P: A[i] = 100 + i; P[i] by thread i (integer affinity).
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 100 + i;
    upc_forall(int i = 0, i < THREADS, i++, i) tupc_ref(P, i, 1, int) = (i + 1) % THREADS;
    upc_barrier();
    upc_all_permute(B, A, P, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[P[i]*NELEMS + e] == A[i*NELEMS + e]. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < THREADS; i++)
            for (int e = 0; e < NELEMS; e++) {
                int to = (i + 1) % THREADS;
                int got = tupc_ref(B, to * NELEMS + e, NELEMS, int);
                if (got != 100 + i * NELEMS + e) {
                    fprintf(stderr, "permute_ex1: B[%d] is %d, expected A[%d] = %d\n",
                            to * NELEMS + e, got, i * NELEMS + e, 100 + i * NELEMS + e);
                    bad = 1;
                }
            }
        if (!bad)
            printf("permute_ex1: thread i's block of A is thread (i+1) %% %d's block of B\n",
                   THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(P);
    return bad;
}
