/* Spec example: UPC 1.3 Required Library 7.4.2.2 para 10, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.2 as example 1, figure 2):
 * upc_all_scatter for the dynamic THREADS translation environment.
 *
 *   #define NUMELEMS 10
 *   #define SRC_THREAD 1
 *   shared int *A;
 *   shared [] int *myA, *srcA;
 *   shared [NUMELEMS] int B[NUMELEMS*THREADS];
 *
 *   // allocate and initialize an array distributed across all threads
 *   A = upc_all_alloc(THREADS, THREADS*NUMELEMS*sizeof(int));
 *   myA = (shared [] int *) &A[MYTHREAD];
 *   for (i=0; i<NUMELEMS*THREADS; i++)
 *       myA[i] = i + NUMELEMS*THREADS*MYTHREAD; // (for example)
 *   // scatter the SRC_THREAD's row of the array
 *   srcA = (shared [] int *) &A[SRC_THREAD];
 *   upc_barrier;
 *   upc_all_scatter( B, srcA, sizeof(int)*NUMELEMS,
 *                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
 *   upc_barrier;
 *
 * Each thread owns a row of THREADS*NUMELEMS ints; thread SRC_THREAD's row
 * is cut into THREADS blocks and block i goes to thread i's block of B.
 * It names thread 1, so it needs THREADS >= 2. Run: scatter_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NUMELEMS 10
#define SRC_THREAD 1

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS <= SRC_THREAD) {
        if (MYTHREAD == 0)
            fprintf(stderr, "scatter_ex1: SRC_THREAD is 1: run it with -n 2 or more\n");
        return 2;
    }
    tupc_sptr_t A, myA, srcA;
    tupc_sptr_t B = upc_all_alloc(THREADS, NUMELEMS * sizeof(int));

    // allocate and initialize an array distributed across all threads
    /* THREADS blocks of THREADS*NUMELEMS ints, block t on thread t: a row
     * per thread. A is a `shared int *` (block size 1), so &A[MYTHREAD] is
     * the first int of thread MYTHREAD's block; cast to `shared []`, the
     * pointer walks along that row and stays on that thread. */
    A = upc_all_alloc(THREADS, THREADS * NUMELEMS * sizeof(int));
    myA = tupc_ptr_cast(tupc_index(A, MYTHREAD, 1, int));
    for (int i = 0; i < NUMELEMS * THREADS; i++)
        tupc_ref(myA, i, 0, int) = i + NUMELEMS * THREADS * MYTHREAD; // (for example)
    // scatter the SRC_THREAD's row of the array
    srcA = tupc_ptr_cast(tupc_index(A, SRC_THREAD, 1, int));
    upc_barrier();
    upc_all_scatter(B, srcA, sizeof(int) * NUMELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: B[i] is element i of SRC_THREAD's row. */
    int bad = 0;
    if (MYTHREAD == 0) {
        for (int i = 0; i < NUMELEMS * THREADS; i++) {
            int want = i + NUMELEMS * THREADS * SRC_THREAD;
            if (tupc_ref(B, i, NUMELEMS, int) != want) {
                fprintf(stderr, "scatter_ex1: B[%d] is %d, expected %d\n", i,
                        tupc_ref(B, i, NUMELEMS, int), want);
                bad = 1;
            }
        }
        if (!bad)
            printf("scatter_ex1: B[i] = %d + i: thread %d's row, block i on thread i\n",
                   NUMELEMS * THREADS * SRC_THREAD, SRC_THREAD);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
