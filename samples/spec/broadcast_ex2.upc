/* UPC 1.3 Required Library 7.4.2.1 para 10, EXAMPLE 2, as the spec writes it
 * (broadcast_ex2.c is its C translation); "Initialize A" and the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [] int A[NELEMS];
shared [NELEMS] int B[NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[k] = 7k + 1, by thread 0, which A has affinity to.
    upc_forall (int k = 0; k < NELEMS; k++; &A[k])
        A[k] = 7 * k + 1;
    upc_all_broadcast( B, A, sizeof(int)*NELEMS,
                       UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* every block of B is A; each thread checks its own */
    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != 7 * (i % NELEMS) + 1) {
            fprintf(stderr, "broadcast_ex2: B[%d] is %d, expected %d\n", i, B[i],
                    7 * (i % NELEMS) + 1);
            bad = 1;
        }
    return bad;
}
