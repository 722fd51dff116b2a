/* Spec example: UPC 1.3 Required Library 7.4.2.2 para 11, EXAMPLE 2 (the
 * same in UPC 1.2, in Collectives 1.0 4.2.2 as example 2, and in Cray's
 * upc_all_scatter(3c) page as example 2): upc_all_scatter for the static
 * THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [] int A[NELEMS*THREADS];
 *   shared [NELEMS] int B[NELEMS*THREADS];
 *   // Initialize A.
 *   upc_all_scatter( B, A, sizeof(int)*NELEMS,
 *                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * A, all on thread 0, is cut into THREADS blocks of NELEMS; block i goes to
 * thread i. tupc has no static THREADS: the arrays are allocated at run
 * time with the layouts the declarations give. Run: scatter_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* shared [] int A[NELEMS*THREADS]: all on thread 0, block size 0. */
    tupc_sptr_t A = upc_all_alloc(1, NELEMS * THREADS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));

    // Initialize A: A[i] = 3i - 5, by thread 0, which A has affinity to.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, 0, int))
        tupc_ref(A, i, 0, int) = 3 * i - 5;
    /* ALLSYNC in: A is read only once every thread, thread 0 included, has
     * entered, so no barrier is needed before the call. */
    upc_all_scatter(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: B[i] == A[i]; the layouts differ, the values do not. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++)
            if (tupc_ref(B, i, NELEMS, int) != 3 * i - 5) {
                fprintf(stderr, "scatter_ex2: B[%d] is %d, expected %d\n", i,
                        tupc_ref(B, i, NELEMS, int), 3 * i - 5);
                bad = 1;
            }
        if (!bad)
            printf("scatter_ex2: B[i] = A[i] = 3i - 5; block t of A (A[%dt] on) is on thread t\n",
                   NELEMS);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
