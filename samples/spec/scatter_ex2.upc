/* UPC 1.3 Required Library 7.4.2.2 para 11, EXAMPLE 2 (static THREADS), as
 * the spec writes it (scatter_ex2.c is its C translation); "Initialize A"
 * and the check added. With dynamic THREADS tupcc lays A out at run time. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [] int A[NELEMS*THREADS];
shared [NELEMS] int B[NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[i] = 3i - 5, by thread 0, which A has affinity to.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = 3 * i - 5;
    upc_all_scatter( B, A, sizeof(int)*NELEMS,
                     UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* B[i] == A[i]: the layouts differ, the values do not */
    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != 3 * i - 5) {
            fprintf(stderr, "scatter_ex2: B[%d] is %d, expected %d\n", i, B[i], 3 * i - 5);
            bad = 1;
        }
    return bad;
}
