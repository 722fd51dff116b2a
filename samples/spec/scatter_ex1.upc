/* UPC 1.3 Required Library 7.4.2.2 para 10, EXAMPLE 1 (dynamic THREADS), as
 * the spec writes it (scatter_ex1.c is its C translation); the check added.
 * SRC_THREAD is 1, so it needs THREADS >= 2. */
/* threads: 2 3 5 8 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NUMELEMS 10
#define SRC_THREAD 1
shared int *A;
shared [] int *myA, *srcA;
shared [NUMELEMS] int B[NUMELEMS*THREADS];

int main(void)
{
    int i;
    if (THREADS <= SRC_THREAD) {
        if (MYTHREAD == 0)
            fprintf(stderr, "scatter_ex1: SRC_THREAD is 1: run it with -n 2 or more\n");
        return 2;
    }

    // allocate and initialize an array distributed across all threads
    A = upc_all_alloc(THREADS, THREADS*NUMELEMS*sizeof(int));
    myA = (shared [] int *) &A[MYTHREAD];
    for (i=0; i<NUMELEMS*THREADS; i++)
        myA[i] = i + NUMELEMS*THREADS*MYTHREAD; // (for example)
    // scatter the SRC_THREAD's row of the array
    srcA = (shared [] int *) &A[SRC_THREAD];
    upc_barrier;
    upc_all_scatter( B, srcA, sizeof(int)*NUMELEMS,
                     UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier;

    /* B[i] is element i of SRC_THREAD's row */
    int bad = 0;
    upc_forall (i = 0; i < NUMELEMS * THREADS; i++; &B[i])
        if (B[i] != i + NUMELEMS * THREADS * SRC_THREAD) {
            fprintf(stderr, "scatter_ex1: B[%d] is %d, expected %d\n", i, B[i],
                    i + NUMELEMS * THREADS * SRC_THREAD);
            bad = 1;
        }
    return bad;
}
