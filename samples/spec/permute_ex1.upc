/* UPC 1.3 Required Library 7.4.2.6 para 10, EXAMPLE 1, as the spec writes
 * it (permute_ex1.c is its C translation); "Initialize A and P" (P a
 * rotation) and the check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS], B[NELEMS*THREADS];
shared int P[THREADS];

int main(void)
{
    // Initialize A and P: A[i] = 100 + i; P[i] = (i + 1) % THREADS by thread i.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = 100 + i;
    upc_forall (int i = 0; i < THREADS; i++; i)
        P[i] = (i + 1) % THREADS;
    upc_barrier;
    upc_all_permute( B, A, P, sizeof(int)*NELEMS,
                     UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    /* my block of B is the block of A of the thread i with P[i] == MYTHREAD */
    int bad = 0;
    int from = (MYTHREAD + THREADS - 1) % THREADS;
    for (int e = 0; e < NELEMS; e++)
        if (B[MYTHREAD * NELEMS + e] != 100 + from * NELEMS + e) {
            fprintf(stderr, "permute_ex1: B[%d] is %d, expected %d\n", MYTHREAD * NELEMS + e,
                    B[MYTHREAD * NELEMS + e], 100 + from * NELEMS + e);
            bad = 1;
        }
    return bad;
}
