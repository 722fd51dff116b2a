/* UPC 1.3 Required Library 7.4.2.5 para 10, EXAMPLE 2 (dynamic THREADS), as
 * the spec writes it (exchange_ex2.c is its C translation); the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared int *Adata, *Bdata;
shared [] int *myA, *myB;

int main(void)
{
    int i;

    Adata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
    myA = (shared [] int *)&Adata[MYTHREAD];
    Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
    myB = (shared [] int *)&Bdata[MYTHREAD];

    // Adata and Bdata contain THREADS*THREADS*NELEMS elements.
    // myA and myB are MYTHREAD's rows of Adata and Bdata, resp.

    // Initialize MYTHREAD's row of A. For example,
    for (i=0; i<NELEMS*THREADS; i++)
        myA[i] = MYTHREAD*10 + i;

    upc_all_exchange( Bdata, Adata, NELEMS*sizeof(int),
                      UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* block j of my row of B is block MYTHREAD of thread j's row of A */
    int bad = 0;
    for (int j = 0; j < THREADS; j++)
        for (int e = 0; e < NELEMS; e++) {
            int want = j * 10 + MYTHREAD * NELEMS + e;
            if (myB[j * NELEMS + e] != want) {
                fprintf(stderr, "exchange_ex2: thread %d: myB[%d] is %d, expected %d\n",
                        MYTHREAD, j * NELEMS + e, myB[j * NELEMS + e], want);
                bad = 1;
            }
        }
    upc_all_free(Adata);
    upc_all_free(Bdata);
    return bad;
}
