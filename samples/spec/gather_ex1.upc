/* UPC 1.3 Required Library 7.4.2.3 para 10, EXAMPLE 1 (static THREADS), as
 * the spec writes it (gather_ex1.c is its C translation); "Initialize A"
 * and the check added. With dynamic THREADS tupcc lays B out at run time. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared [] int B[NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[i] = 11i, each thread its own block.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = 11 * i;
    upc_all_gather( B, A, sizeof(int)*NELEMS,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* B[i] == A[i], all on thread 0, which checks */
    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != 11 * i) {
            fprintf(stderr, "gather_ex1: B[%d] is %d, expected %d\n", i, B[i], 11 * i);
            bad = 1;
        }
    return bad;
}
