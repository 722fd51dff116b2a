/* Spec example: UPC 1.3 Required Library 7.4.2.1 para 9, EXAMPLE 1 (the same
 * in UPC 1.2, and in Collectives 1.0 4.2.1 as example 1, figure 1).
 *
 *   shared int A[THREADS];
 *   shared int B[THREADS];
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_broadcast( B, &A[1], sizeof(int),
 *                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * A[1], one int on thread 1, is copied to every thread's element of B.
 * It names A[1], so it needs THREADS >= 2. Run: broadcast_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "broadcast_ex1: the example reads A[1]: run it with -n 2 or more\n");
        return 2;
    }
    /* shared int A[THREADS], B[THREADS]: block size 1, element i on thread i.
     * Every thread calls upc_all_alloc and gets the same pointer. */
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, sizeof(int));

    // Initialize A: each thread writes its own element, A[i] = 100 + i.
    tupc_ref(A, MYTHREAD, 1, int) = 100 + MYTHREAD;
    /* NOSYNC in: the call may read A[1] as soon as any thread enters, so the
     * barrier is what makes thread 1's write visible first. */
    upc_barrier();
    upc_all_broadcast(B, tupc_index(A, 1, 1, int), sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    /* NOSYNC out: copies may go on until the last thread leaves the call,
     * so wait for them all before anyone reads B. */
    upc_barrier();

    /* Expected: B[i] == A[1] == 101 for every i. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < THREADS; i++)
            if (tupc_ref(B, i, 1, int) != 101) {
                fprintf(stderr, "broadcast_ex1: B[%d] is %d, expected A[1] = 101\n", i,
                        tupc_ref(B, i, 1, int));
                bad = 1;
            }
        if (!bad)
            printf("broadcast_ex1: B[i] = A[1] = 101 on all %d threads\n", THREADS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
