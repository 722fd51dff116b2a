/* Spec example: UPC 1.3 Required Library 7.4.2.5 para 10, EXAMPLE 2 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.5 as example 2):
 * upc_all_exchange for the dynamic THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared int *Adata, *Bdata;
 *   shared [] int *myA, *myB;
 *   int i;
 *
 *   Adata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
 *   myA = (shared [] int *)&Adata[MYTHREAD];
 *   Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
 *   myB = (shared [] int *)&Bdata[MYTHREAD];
 *
 *   // Adata and Bdata contain THREADS*THREADS*NELEMS elements.
 *   // myA and myB are MYTHREAD's rows of Adata and Bdata, resp.
 *
 *   // Initialize MYTHREAD's row of A. For example,
 *   for (i=0; i<NELEMS*THREADS; i++)
 *       myA[i] = MYTHREAD*10 + i;
 *
 *   upc_all_exchange( Bdata, Adata, NELEMS*sizeof(int),
 *                     UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * As exchange_ex1.c, with the rows allocated at run time and reached
 * through myA and myB. Run: exchange_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t Adata, Bdata;
    tupc_sptr_t myA, myB;
    int i;
    tupc_sptr_t bad = upc_all_alloc(THREADS, sizeof(int)); /* shared int bad[THREADS] */

    Adata = upc_all_alloc(THREADS * THREADS, NELEMS * sizeof(int));
    myA = tupc_ptr_cast(tupc_index(Adata, MYTHREAD, 1, int));
    Bdata = upc_all_alloc(THREADS * THREADS, NELEMS * sizeof(int));
    myB = tupc_ptr_cast(tupc_index(Bdata, MYTHREAD, 1, int));

    // Initialize MYTHREAD's row of A. For example,
    for (i = 0; i < NELEMS * THREADS; i++)
        tupc_ref(myA, i, 0, int) = MYTHREAD * 10 + i;

    upc_all_exchange(Bdata, Adata, NELEMS * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: block j of my row of B is block MYTHREAD of thread j's row
     * of A: myB[j*NELEMS + e] == j*10 + MYTHREAD*NELEMS + e. Each thread
     * checks its own row; thread 0 collects the verdicts. */
    tupc_ref(bad, MYTHREAD, 1, int) = 0;
    for (int j = 0; j < THREADS; j++)
        for (int e = 0; e < NELEMS; e++) {
            int got = tupc_ref(myB, j * NELEMS + e, 0, int);
            int want = j * 10 + MYTHREAD * NELEMS + e;
            if (got != want) {
                fprintf(stderr, "exchange_ex2: thread %d: myB[%d] is %d, expected %d\n", MYTHREAD,
                        j * NELEMS + e, got, want);
                tupc_ref(bad, MYTHREAD, 1, int) = 1;
            }
        }
    upc_barrier();
    int status = 0;
    if (MYTHREAD == 0) {
        for (int t = 0; t < THREADS; t++)
            status |= tupc_ref(bad, t, 1, int);
        if (!status)
            printf("exchange_ex2: block j of every myB is block MYTHREAD of thread j's myA\n");
    }
    upc_all_free(Adata);
    upc_all_free(Bdata);
    upc_all_free(bad);
    return status;
}
