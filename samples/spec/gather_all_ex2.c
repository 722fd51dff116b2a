/* Spec example: UPC 1.3 Required Library 7.4.2.4 para 11, EXAMPLE 2 (the
 * same in UPC 1.2, and in Collectives 1.0 4.2.4 as example 2):
 * upc_all_gather_all for the dynamic THREADS translation environment.
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *   shared int *Bdata;
 *   shared [] int *myB;
 *
 *   Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
 *   myB = (shared [] int *)&Bdata[MYTHREAD];
 *
 *   // Bdata contains THREADS*THREADS*NELEMS elements.
 *   // myB is MYTHREAD's row of Bdata.
 *   // Initialize A.
 *   upc_all_gather_all( Bdata, A, NELEMS*sizeof(int),
 *                       UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * Bdata's THREADS*THREADS blocks of NELEMS ints go round the threads, so
 * thread t holds blocks t, t+THREADS, ...: THREADS blocks one after the
 * other in its memory, its row. &Bdata[MYTHREAD] points at the row's start
 * and, cast to `shared []`, walks along it. Run: gather_all_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t Bdata, myB;
    tupc_sptr_t bad = upc_all_alloc(THREADS, sizeof(int)); /* shared int bad[THREADS] */

    Bdata = upc_all_alloc(THREADS * THREADS, NELEMS * sizeof(int));
    myB = tupc_ptr_cast(tupc_index(Bdata, MYTHREAD, 1, int));

    // Initialize A: A[i] = i * i, each thread its own block.
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = i * i;
    upc_all_gather_all(Bdata, A, NELEMS * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: myB[k] == A[k]. Each thread checks its own row through
     * myB and notes the result in bad[MYTHREAD]; thread 0 reads them. */
    tupc_ref(bad, MYTHREAD, 1, int) = 0;
    for (int k = 0; k < NELEMS * THREADS; k++)
        if (tupc_ref(myB, k, 0, int) != k * k) {
            fprintf(stderr, "gather_all_ex2: thread %d: myB[%d] is %d, expected %d\n", MYTHREAD, k,
                    tupc_ref(myB, k, 0, int), k * k);
            tupc_ref(bad, MYTHREAD, 1, int) = 1;
        }
    upc_barrier();
    int status = 0;
    if (MYTHREAD == 0) {
        for (int t = 0; t < THREADS; t++)
            status |= tupc_ref(bad, t, 1, int);
        if (!status)
            printf("gather_all_ex2: myB = A = 0 1 4 9 ... %d on each of the %d threads\n",
                   (NELEMS * THREADS - 1) * (NELEMS * THREADS - 1), THREADS);
    }
    upc_all_free(A);
    upc_all_free(Bdata);
    upc_all_free(bad);
    return status;
}
