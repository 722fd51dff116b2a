/* Spec example: UPC 1.3 Required Library 7.4.2.1 para 10, EXAMPLE 2 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.1 as example 2).
 *
 *   #define NELEMS 10
 *   shared [] int A[NELEMS];
 *   shared [NELEMS] int B[NELEMS*THREADS];
 *   // Initialize A.
 *   upc_all_broadcast( B, A, sizeof(int)*NELEMS,
 *                      UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * The whole of A, NELEMS ints on thread 0, goes to every thread's block of
 * B. Run: broadcast_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* shared [] int A[NELEMS]: one block, all on thread 0 (block size 0,
     * "indefinite", when indexing). shared [NELEMS] int B[NELEMS*THREADS]:
     * one block of NELEMS per thread. */
    tupc_sptr_t A = upc_all_alloc(1, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));

    // Initialize A: A[k] = 7k + 1. upc_forall gives each iteration to the
    // thread that A[k] has affinity to: here thread 0 does them all.
    upc_forall(int k = 0, k < NELEMS, k++, tupc_index(A, k, 0, int)) tupc_ref(A, k, 0, int) =
        7 * k + 1;
    /* ALLSYNC in: no data is read before every thread has entered, so A is
     * written by then; ALLSYNC out: every copy is done when a call returns. */
    upc_all_broadcast(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: B[i] == A[i % NELEMS]. Any thread may read any element:
     * thread 0 checks them all. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++) {
            int want = 7 * (i % NELEMS) + 1;
            if (tupc_ref(B, i, NELEMS, int) != want) {
                fprintf(stderr, "broadcast_ex2: B[%d] is %d, expected %d\n", i,
                        tupc_ref(B, i, NELEMS, int), want);
                bad = 1;
            }
        }
        if (!bad)
            printf("broadcast_ex2: each of the %d blocks of B is A = 1 8 15 ... %d\n", THREADS,
                   7 * (NELEMS - 1) + 1);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
