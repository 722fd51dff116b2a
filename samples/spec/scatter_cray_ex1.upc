/* Cray's upc_all_scatter(3c) manual page, example 1, as the page writes it
 * (scatter_cray_ex1.c is its C translation). The page never initializes
 * the row nor sets srcA; the two lines marked "not in the page" do, as its
 * evident intent. SRC_THREAD is 1, so it needs THREADS >= 2. */
/* threads: 2 3 5 8 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
#define SRC_THREAD 1
shared int *A;
shared [] int *myA, *srcA;
shared [NELEMS] int B[NELEMS*THREADS];

int main(void)
{
    if (THREADS <= SRC_THREAD) {
        if (MYTHREAD == 0)
            fprintf(stderr, "scatter_cray_ex1: SRC_THREAD is 1: run it with -n 2 or more\n");
        return 2;
    }
    // allocate and initialize an array distributed across all threads
    A = upc_all_alloc(THREADS, THREADS*NELEMS*sizeof(int));
    myA = (shared [] int *) &A[SRC_THREAD];
    if (MYTHREAD == SRC_THREAD) /* not in the page */
        for (int i = 0; i < NELEMS * THREADS; i++)
            myA[i] = i + NELEMS * THREADS * SRC_THREAD;
    srcA = myA; /* not in the page */
    upc_barrier;
    upc_all_scatter( B, srcA, sizeof(int)*NELEMS,
                     UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier;

    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != i + NELEMS * THREADS * SRC_THREAD) {
            fprintf(stderr, "scatter_cray_ex1: B[%d] is %d, expected %d\n", i, B[i],
                    i + NELEMS * THREADS * SRC_THREAD);
            bad = 1;
        }
    return bad;
}
