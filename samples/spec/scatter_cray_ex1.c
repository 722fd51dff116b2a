/* Spec example: Cray's upc_all_scatter(3c) manual page, EXAMPLES, example 1:
 * upc_all_scatter for the dynamic THREADS translation environment.
 *
 *   #define NELEMS 10
 *   #define SRC_THREAD 1
 *   shared int *A;
 *   shared [] int *myA, *srcA;
 *   shared [NELEMS] int B[NELEMS*THREADS];
 *
 *   // allocate and initialize an array distributed across all threads
 *   A = upc_all_alloc(THREADS, THREADS*NELEMS*sizeof(int));
 *   myA = (shared [] int *) &A[SRC_THREAD];
 *   upc_barrier;
 *   upc_all_scatter( B, srcA, sizeof(int)*NELEMS,
 *                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
 *   upc_barrier;
 *
 * The page shortens UPC 1.3's example (scatter_ex1.c) too far: the loop
 * that initializes the rows is gone and srcA is never set, so the call
 * would scatter from an undefined pointer. Made concrete here as its
 * evident intent: srcA = myA = &A[SRC_THREAD], and thread SRC_THREAD
 * initializes its row. Needs THREADS >= 2. Run: scatter_cray_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10
#define SRC_THREAD 1

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS <= SRC_THREAD) {
        if (MYTHREAD == 0)
            fprintf(stderr, "scatter_cray_ex1: SRC_THREAD is 1: run it with -n 2 or more\n");
        return 2;
    }
    tupc_sptr_t A, myA, srcA;
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));

    // allocate and initialize an array distributed across all threads
    A = upc_all_alloc(THREADS, THREADS * NELEMS * sizeof(int));
    myA = tupc_ptr_cast(tupc_index(A, SRC_THREAD, 1, int)); /* (shared [] int *) &A[SRC_THREAD] */
    /* Not in the page: the row to scatter gets values, by its owner. */
    if (MYTHREAD == SRC_THREAD)
        for (int i = 0; i < NELEMS * THREADS; i++)
            tupc_ref(myA, i, 0, int) = i + NELEMS * THREADS * SRC_THREAD;
    srcA = myA; /* not in the page, which never sets srcA */
    upc_barrier();
    upc_all_scatter(B, srcA, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[i] is element i of SRC_THREAD's row. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NELEMS * THREADS; i++) {
            int want = i + NELEMS * THREADS * SRC_THREAD;
            if (tupc_ref(B, i, NELEMS, int) != want) {
                fprintf(stderr, "scatter_cray_ex1: B[%d] is %d, expected %d\n", i,
                        tupc_ref(B, i, NELEMS, int), want);
                bad = 1;
            }
        }
        if (!bad)
            printf("scatter_cray_ex1: B[i] = %d + i: thread %d's row, block i on thread i\n",
                   NELEMS * THREADS * SRC_THREAD, SRC_THREAD);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
