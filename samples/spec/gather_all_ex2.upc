/* UPC 1.3 Required Library 7.4.2.4 para 11, EXAMPLE 2 (dynamic THREADS), as
 * the spec writes it (gather_all_ex2.c is its C translation); "Initialize
 * A" and the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared int *Bdata;
shared [] int *myB;

int main(void)
{
    Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
    myB = (shared [] int *)&Bdata[MYTHREAD];

    // Bdata contains THREADS*THREADS*NELEMS elements.
    // myB is MYTHREAD's row of Bdata.
    // Initialize A: A[i] = i * i, each thread its own block.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = i * i;
    upc_all_gather_all( Bdata, A, NELEMS*sizeof(int),
                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* my row is the whole of A */
    int bad = 0;
    for (int k = 0; k < NELEMS * THREADS; k++)
        if (myB[k] != k * k) {
            fprintf(stderr, "gather_all_ex2: thread %d: myB[%d] is %d, expected %d\n", MYTHREAD,
                    k, myB[k], k * k);
            bad = 1;
        }
    upc_all_free(Bdata);
    return bad;
}
