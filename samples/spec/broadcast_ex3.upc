/* UPC 1.3 Required Library 7.4.2.1 para 11, EXAMPLE 3, as the spec writes it
 * (broadcast_ex3.c is its C translation); "Initialize A" and the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared [NELEMS] int B[NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[i] = 1000 + i; and B to -1, to see what the call leaves.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i]) {
        A[i] = 1000 + i;
        B[i] = -1;
    }
    upc_barrier;
    upc_all_broadcast( B, &A[3], sizeof(int)*2,
                       UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    /* (A[3],A[4]) at the start of each block of B, the rest untouched */
    int bad = 0;
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &B[i]) {
        int k = i % NELEMS, want = k == 0 ? 1003 : k == 1 ? 1004 : -1;
        if (B[i] != want) {
            fprintf(stderr, "broadcast_ex3: B[%d] is %d, expected %d\n", i, B[i], want);
            bad = 1;
        }
    }
    return bad;
}
