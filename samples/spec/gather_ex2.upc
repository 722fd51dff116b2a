/* UPC 1.3 Required Library 7.4.2.3 para 11, EXAMPLE 2 (dynamic THREADS), as
 * the spec writes it (gather_ex2.c is its C translation); "Initialize A"
 * and the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared [] int *B;

int main(void)
{
    B = (shared [] int *) upc_all_alloc(1,NELEMS*THREADS*sizeof(int));
    // Initialize A: A[i] = 11i + 1, each thread its own block.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = 11 * i + 1;
    upc_barrier;
    upc_all_gather( B, A, sizeof(int)*NELEMS,
                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != 11 * i + 1) {
            fprintf(stderr, "gather_ex2: B[%d] is %d, expected %d\n", i, B[i], 11 * i + 1);
            bad = 1;
        }
    upc_barrier;
    if (MYTHREAD == 0)
        upc_free(B);
    return bad;
}
